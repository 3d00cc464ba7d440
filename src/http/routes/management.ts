/** Management: mines, units and cafes (edit, delete, the management modal) and their Excel export. */
import { defineRoutes } from "../routing";

export const managementRoutes = defineRoutes([]);
