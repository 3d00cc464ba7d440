/**
 * The built-in roles: the super-administrator and the roles a catering company starts with (starting-roles.ts
 * creates them). Each is stored under a fixed English name, which the command line and the seeds use; people see
 * its label and description in their own language. A role an administrator created, or a built-in role they
 * renamed, shows its own name. Free of database and server imports, so the browser shares it.
 */
import type { Locale } from "../i18n";
import type { PermissionName } from "./permissions";

/** A text in both of Mesa's languages. */
export interface Words {
  es: string;
  en: string;
}

export interface StartingRole {
  /** The stored name (what `./mesa user:assign --role` takes). */
  name: string;
  /** The name people see, in their language. */
  label: Words;
  /** The description stored with the role: the English one. */
  description: string;
  /** The description people see while the stored one is still Mesa's. */
  about: Words;
  permissions: PermissionName[];
}

function role(name: string, label: Words, about: Words, permissions: PermissionName[]): StartingRole {
  return { name, label, description: about.en, about, permissions };
}

/** The stored name of the super-administrator role (roles.ts creates it). */
export const SUPER_ROLE_NAME = "super-administrator";

const SUPER_ROLE_WORDS = {
  label: { es: "Superadministrador", en: "Super-administrator" },
  about: { es: "Todos los permisos, en todos los lugares.", en: "Every permission, everywhere." },
};

export const STARTING_ROLES: StartingRole[] = [
  role(
    "administrator",
    { es: "Administrador", en: "Administrator" },
    {
      es: "Usuarios, áreas, roles y la lista negra de los lugares a su cargo.",
      en: "Users, areas, roles and the blacklist of the places in their scope.",
    },
    [
      "users.view",
      "users.manage",
      "areas.manage",
      "roles.view",
      "roles.manage",
      "blacklist.view",
      "blacklist.manage",
      "audit.view",
      "services.view",
      "services.manage",
      "places.view",
      "places.manage",
      "prices.manage",
      "businesses.view",
      "businesses.manage",
      "properties.view",
      "properties.manage",
      "dealerships.view",
      "dealerships.manage",
      "sales.view",
      "sales.create",
      "sales.backdate",
      "sales.void_any",
      "sales.close_period",
      "sales.reopen_period",
      "tills.manage",
      "payment_methods.manage",
      "shifts.open",
      "shifts.close_any",
      "shifts.reopen",
      "diners.view",
      "diners.manage",
      "diners.import",
      "menu.view",
      "menu.manage",
      "menu.publish",
      "menu.display_links",
    ],
  ),
  role(
    "operations manager",
    { es: "Jefe de operaciones", en: "Operations manager" },
    {
      es: "Minas, unidades, comedores, servicios y precios; las empresas, sus bienes y las empresas clientes.",
      en: "Mines, units, cafes, services and prices; the businesses, their properties and the client companies.",
    },
    [
      "services.view",
      "services.manage",
      "places.view",
      "places.manage",
      "prices.manage",
      "businesses.view",
      "businesses.manage",
      "properties.view",
      "properties.manage",
      "dealerships.view",
      "dealerships.manage",
      "menu.view",
    ],
  ),
  role(
    "cafe manager",
    { es: "Jefe de comedor", en: "Cafe manager" },
    {
      es: "Dirige un comedor: su personal, comensales, precios y reportes.",
      en: "Runs a cafe: its people, diners, prices and reports.",
    },
    [
      "users.view",
      "blacklist.view",
      "services.view",
      "places.view",
      "prices.manage",
      "properties.view",
      "dealerships.view",
      "sales.view",
      "sales.create",
      "sales.backdate",
      "sales.void_any",
      "tills.manage",
      "shifts.open",
      "shifts.close_any",
      "shifts.reopen",
      "diners.view",
      "diners.manage",
      "diners.import",
      "menu.view",
      "menu.display_links",
    ],
  ),
  role(
    "cashier",
    { es: "Cajero", en: "Cashier" },
    {
      es: "Vende comidas a comensales registrados en el punto de venta.",
      en: "Sells meals to registered diners at the point of sale.",
    },
    ["blacklist.view", "sales.view", "sales.create", "shifts.open", "diners.view", "diners.manage"],
  ),
  role(
    "nutritionist",
    { es: "Nutricionista", en: "Nutritionist" },
    {
      es: "Insumos, recetas, su costo y calorías, y el menú.",
      en: "Ingredients, recipes, their cost and calories, and the menu.",
    },
    ["food.view", "food.manage", "logistics.view", "menu.view", "menu.manage", "menu.publish"],
  ),
  role(
    "buyer",
    { es: "Comprador", en: "Buyer" },
    { es: "Proveedores, ciudades y precios de insumos.", en: "Providers, cities and ingredient prices." },
    // menu.view: what to buy for the published menu (page and workbook); changing a menu stays menu.manage's.
    ["logistics.view", "logistics.manage", "food.view", "menu.view"],
  ),
];

const BUILT_IN: ReadonlyMap<string, { label: Words; about: Words }> = new Map([
  [SUPER_ROLE_NAME, SUPER_ROLE_WORDS],
  ...STARTING_ROLES.map((r) => [r.name, { label: r.label, about: r.about }] as const),
]);

/** Whether a stored role name is a built-in role's, so it is shown by its label. */
export function isBuiltInRoleName(name: string): boolean {
  return BUILT_IN.has(name);
}

/** The name people see for a role: a built-in role's label in their language, otherwise the name it was given. */
export function roleLabel(name: string, locale: Locale): string {
  return BUILT_IN.get(name)?.label[locale] ?? name;
}

/** A role's description in the viewer's language while it is the one Mesa wrote; an edited description as written. */
export function roleDescription(name: string, description: string, locale: Locale): string {
  const words = BUILT_IN.get(name)?.about;
  return words && description === words.en ? words[locale] : description;
}
