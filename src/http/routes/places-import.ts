/** Importing mines, units, cafes, services and prices from a workbook uploaded on the Management page. */
import { defineRoutes } from "../routing";

export const placesImportRoutes = defineRoutes([]);
