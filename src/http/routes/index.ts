/**
 * The route registry: the single list of every route of Mesa. Elysia mounts it (src/http/app.ts), the browser
 * resolves names from it (ziggy-js), `./mesa route:list` prints it, and the access tests walk it.
 */
import { checkRegistry, routePermissions, type RouteDefinition } from "../routing";
import { accessRoutes } from "./access";
import { authRoutes } from "./auth";
import { broadcastingRoutes } from "./broadcasting";
import { businessesRoutes } from "./businesses";
import { dealershipsRoutes } from "./dealerships";
import { dinersImportRoutes } from "./diners-import";
import { dinnersRoutes } from "./dinners";
import { managementRoutes } from "./management";
import { menuBoardRoutes } from "./menu-board";
import { menuRequirementsRoutes } from "./menu-requirements";
import { menuScheduleRoutes } from "./menu-schedule";
import { menuStructuresRoutes } from "./menu-structures";
import { placesImportRoutes } from "./places-import";
import { foodCatalogueRoutes } from "./food-catalogue";
import { foodRoutes } from "./food";
import { foodImportRoutes } from "./food-import";
import { ingredientsRoutes } from "./ingredients";
import { jobsRoutes } from "./jobs";
import { logisticsRoutes } from "./logistics";
import { periodsRoutes } from "./periods";
import { cashRoutes } from "./cash";
import { platformRoutes } from "./platform";
import { providersRoutes } from "./providers";
import { salesRoutes } from "./sales";
import { salesReportRoutes } from "./sales-report";
import { servicesRoutes } from "./services";
import { settingsRoutes } from "./settings";

export const routes: RouteDefinition[] = [
  ...platformRoutes,
  ...authRoutes,
  ...settingsRoutes,
  ...accessRoutes,
  ...servicesRoutes,
  ...managementRoutes,
  ...placesImportRoutes,
  ...jobsRoutes,
  ...businessesRoutes,
  ...dealershipsRoutes,
  ...dinnersRoutes,
  ...dinersImportRoutes,
  ...periodsRoutes,
  ...cashRoutes,
  ...salesRoutes,
  ...salesReportRoutes,
  ...ingredientsRoutes,
  ...providersRoutes,
  ...logisticsRoutes,
  ...foodRoutes,
  ...foodCatalogueRoutes,
  ...foodImportRoutes,
  ...menuStructuresRoutes,
  ...menuBoardRoutes,
  ...menuRequirementsRoutes,
  ...menuScheduleRoutes,
  ...broadcastingRoutes,
];

/** Every permission some route declares: the permission catalogue is kept in step with this list. */
export const declaredPermissions: string[] = [...new Set(routes.flatMap(routePermissions))].sort();

const problems = checkRegistry(routes);
if (problems.length) throw new Error(`The route registry is inconsistent:\n- ${problems.join("\n- ")}`);
