/** Businesses area: businesses with the services they offer, headquarters, properties with QR labels. */
import { defineRoutes } from "../routing";

export const businessesRoutes = defineRoutes([]);
