/**
 * The permission catalogue: every permission Mesa checks, at a route or inside a handler, with its product area,
 * its name for people in both languages, the sidebar entry it opens, and the kind of data it acts on. It is the
 * source of truth: `access.can()` and `can()` take only these names (a typo fails the typecheck), and the
 * `permissions` table is kept in step with it (catalogue.ts). Free of database and server imports, so the browser
 * shares it.
 *
 * Data kinds (decision 008): "place" permissions act on place-bound data and reach the holder's places; "company"
 * permissions change company-wide data (roles and permissions, the services catalogue, dealerships and
 * subdealerships, ingredients, providers, offers and cities, and as they arrive levels, dishes and recipes), which has no
 * place, so they take effect only through assignments in a headquarters area.
 */
export interface PermissionSpec {
  area: string;
  data: "place" | "company";
  label: { es: string; en: string };
  sidebar?: { route: string; label: string; icon: string; order: number };
}

export const PERMISSIONS = {
  "users.view": {
    area: "users",
    data: "place",
    label: { es: "Ver usuarios", en: "View users" },
    sidebar: { route: "users.index", label: "nav.users", icon: "users", order: 80 },
  },
  "users.manage": { area: "users", data: "place", label: { es: "Gestionar usuarios", en: "Manage users" } },
  "areas.manage": { area: "users", data: "place", label: { es: "Gestionar áreas", en: "Manage areas" } },
  "roles.view": {
    area: "roles",
    data: "place",
    label: { es: "Ver roles", en: "View roles" },
    sidebar: { route: "roles.index", label: "nav.roles", icon: "shield", order: 85 },
  },
  "roles.manage": {
    area: "roles",
    data: "company",
    label: { es: "Gestionar roles y permisos", en: "Manage roles and permissions" },
  },
  "blacklist.view": {
    area: "blacklist",
    data: "place",
    label: { es: "Ver la lista negra", en: "View the blacklist" },
    sidebar: { route: "blacklist.index", label: "nav.blacklist", icon: "ban", order: 90 },
  },
  "blacklist.manage": {
    area: "blacklist",
    data: "place",
    label: { es: "Gestionar la lista negra", en: "Manage the blacklist" },
  },
  "services.view": {
    area: "services",
    data: "place",
    label: { es: "Ver servicios y precios", en: "View services and prices" },
    sidebar: { route: "services.index", label: "nav.services", icon: "utensils", order: 40 },
  },
  "services.manage": {
    area: "services",
    data: "company",
    label: { es: "Gestionar el catálogo de servicios", en: "Manage the services catalogue" },
  },
  "places.view": {
    area: "places",
    data: "place",
    label: { es: "Ver minas, unidades y comedores", en: "View mines, units and cafes" },
    sidebar: { route: "management.index", label: "nav.management", icon: "map-pin", order: 35 },
  },
  "places.manage": {
    area: "places",
    data: "place",
    label: { es: "Gestionar minas, unidades y comedores", en: "Manage mines, units and cafes" },
  },
  "prices.manage": {
    area: "places",
    data: "place",
    label: { es: "Cambiar precios de los comedores", en: "Change cafe prices" },
  },
  "businesses.view": {
    area: "businesses",
    data: "place",
    label: { es: "Ver empresas y sedes", en: "View businesses and headquarters" },
    sidebar: { route: "businesses.index", label: "nav.businesses", icon: "building", order: 45 },
  },
  "businesses.manage": {
    area: "businesses",
    data: "place",
    label: { es: "Gestionar empresas y sedes", en: "Manage businesses and headquarters" },
  },
  "properties.view": { area: "businesses", data: "place", label: { es: "Ver bienes", en: "View properties" } },
  "properties.manage": {
    area: "businesses",
    data: "place",
    label: { es: "Gestionar bienes", en: "Manage properties" },
  },
  "dealerships.view": {
    area: "dealerships",
    data: "place",
    label: { es: "Ver concesionarias", en: "View dealerships" },
    sidebar: { route: "dealerships.index", label: "nav.dealerships", icon: "handshake", order: 50 },
  },
  "dealerships.manage": {
    area: "dealerships",
    data: "company",
    label: { es: "Gestionar concesionarias y subconcesionarias", en: "Manage dealerships and subdealerships" },
  },
  "sales.create": {
    area: "sales",
    data: "place",
    label: { es: "Vender en el punto de venta", en: "Sell at the point of sale" },
    sidebar: { route: "dinners.index", label: "nav.dinners", icon: "shopping-cart", order: 10 },
  },
  "sales.view": {
    area: "sales",
    data: "place",
    label: { es: "Ver ventas", en: "View sales" },
    sidebar: { route: "sales.index", label: "sales.nav", icon: "receipt", order: 12 },
  },
  "sales.backdate": {
    area: "sales",
    data: "place",
    label: { es: "Vender con fecha anterior", en: "Sell for an earlier date" },
  },
  "sales.void_any": {
    area: "sales",
    data: "place",
    label: { es: "Anular cualquier venta", en: "Void any sale" },
  },
  "tills.manage": {
    area: "sales",
    data: "place",
    label: { es: "Gestionar las cajas de un comedor", en: "Manage a cafe's tills" },
  },
  "shifts.open": {
    area: "sales",
    data: "place",
    label: { es: "Abrir y cerrar su turno de caja", en: "Open and close one's cash shift" },
  },
  "shifts.close_any": {
    area: "sales",
    data: "place",
    label: { es: "Cerrar cualquier turno", en: "Close any shift" },
  },
  "shifts.reopen": {
    area: "sales",
    data: "place",
    label: { es: "Reabrir un turno cerrado", en: "Reopen a closed shift" },
  },
  "payment_methods.manage": {
    area: "sales",
    data: "company",
    label: { es: "Gestionar los medios de pago", en: "Manage payment methods" },
  },
  "sales.close_period": {
    area: "sales",
    data: "place",
    label: { es: "Cerrar un mes de ventas", en: "Close a month of sales" },
  },
  "sales.reopen_period": {
    area: "sales",
    data: "place",
    label: { es: "Reabrir un mes cerrado", en: "Reopen a closed month" },
  },
  "diners.view": { area: "diners", data: "place", label: { es: "Ver comensales", en: "View diners" } },
  "diners.manage": {
    area: "diners",
    data: "place",
    label: { es: "Registrar y editar comensales", en: "Register and edit diners" },
  },
  "diners.import": {
    area: "diners",
    data: "place",
    label: { es: "Importar comensales desde hojas de cálculo", en: "Import diners from spreadsheets" },
  },
  "food.view": {
    area: "food",
    data: "company",
    label: { es: "Ver platos, recetas e insumos", en: "View dishes, recipes and ingredients" },
    sidebar: { route: "food.index", label: "food.nav.food", icon: "utensils", order: 60 },
  },
  "food.manage": {
    area: "food",
    data: "company",
    label: {
      es: "Gestionar platos, recetas, insumos y sus categorías",
      en: "Manage dishes, recipes, ingredients and their categories",
    },
  },
  "logistics.view": {
    area: "logistics",
    data: "company",
    label: { es: "Ver proveedores, ofertas y centros logísticos", en: "View providers, offers and logistics centres" },
    sidebar: { route: "logistics.index", label: "food.nav.logistics", icon: "building", order: 65 },
  },
  "logistics.manage": {
    area: "logistics",
    data: "company",
    label: { es: "Gestionar proveedores, ofertas y ciudades", en: "Manage providers, offers and cities" },
  },
  "menu.view": {
    area: "menu",
    data: "place",
    label: { es: "Ver el menú de los comedores", en: "View the cafes' menus" },
    sidebar: { route: "menu.structures", label: "menu.nav", icon: "calendar", order: 55 },
  },
  "menu.manage": {
    area: "menu",
    data: "place",
    label: {
      es: "Gestionar estructuras y la programación del menú",
      en: "Manage menu structures and the meal schedule",
    },
  },
  "menu.publish": {
    area: "menu",
    data: "place",
    label: { es: "Publicar el menú de los comedores", en: "Publish the cafes' menus" },
  },
  "menu.display_links": {
    area: "menu",
    data: "place",
    label: {
      es: "Crear y revocar enlaces de pantalla del menú",
      en: "Create and revoke menu display links",
    },
  },
  "audit.view": {
    area: "audit",
    data: "place",
    label: { es: "Ver la auditoría", en: "View the audit trail" },
    sidebar: { route: "audit.index", label: "nav.audit", icon: "history", order: 95 },
  },
} as const satisfies Record<string, PermissionSpec>;

/** A permission of the catalogue. */
export type PermissionName = keyof typeof PERMISSIONS;

/** Every permission of the catalogue, in a stable order. */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS).sort() as PermissionName[];

/** Whether `name` is a permission of the catalogue (for names that arrive as data). */
export function isPermissionName(name: string): name is PermissionName {
  return Object.hasOwn(PERMISSIONS, name);
}

/** A permission's name for people in `locale` (its catalogue label); a name the catalogue does not know, as it is. */
export function permissionLabel(name: string, locale: "es" | "en"): string {
  return isPermissionName(name) ? PERMISSIONS[name].label[locale] : name;
}

/** Whether `permission` changes company-wide data, and so counts only when held in a headquarters area. */
export function isCompanyWide(permission: string): boolean {
  return isPermissionName(permission) && PERMISSIONS[permission].data === "company";
}
