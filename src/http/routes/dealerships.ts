/** Dealerships and subdealerships: the tree page, the Businesses-area tables, their dialogs and exports. */
import { defineRoutes } from "../routing";

export const dealershipsRoutes = defineRoutes([]);
