/**
 * The audit as people read it: who (a person's name, "Command line"), what ("Subdealership created"), about what
 * (the subdealership's name, or the name recorded at the time once it is deleted), and the change as a list of
 * field labels with their values before and after, in the viewer's language. The names an entry refers to by id
 * (areas, roles, places, people…) are read for a whole page at once: one query per kind of thing, never one per row.
 */
import type { Db } from "../db";
import {
  intlLocale,
  translate,
  type Locale,
  translateDynamic,
  type TranslationKey,
  type TranslationParams,
} from "../shared/i18n";
import { roleLabel } from "../shared/access/built-in-roles";
import { permissionLabel } from "../shared/access/permissions";
import { formatMoney } from "../shared/money";
import type { AuditRow } from "./audit";
import type { AuditChange, AuditEntryView } from "../shared/audit";
export type { AuditChange, AuditEntryView } from "../shared/audit";

/** How values are written: the viewer's language and the money's currency. */
export interface AuditWords {
  locale: Locale;
  currency: string;
}

// ——— The words of the catalogue ———

/** Every action Mesa records, for finding entries by the action's words. */
export const AUDIT_ACTIONS = [
  "area.created",
  "area.updated",
  "area.deleted",
  "blacklist.added",
  "blacklist.removed",
  "business.created",
  "business.updated",
  "business.deleted",
  "business.services.updated",
  "cafe.created",
  "cafe.updated",
  "cafe.deleted",
  "cafe.prices.updated",
  "cafe.menu_settings.updated",
  "menu_structure.updated",
  "menu_structure.deleted",
  "dealership.created",
  "dealership.updated",
  "dealership.deleted",
  "headquarters.created",
  "headquarters.updated",
  "headquarters.deleted",
  "mine.created",
  "mine.updated",
  "mine.deleted",
  "unit.created",
  "unit.updated",
  "unit.deleted",
  "permission.updated",
  "permissions.synced",
  "place.services.updated",
  "place.services.removed_by_parent",
  "places.imported",
  "property.created",
  "property.updated",
  "property.deleted",
  "role.created",
  "role.updated",
  "role.deleted",
  "role.granted",
  "role.revoked",
  "roles.starting_grants",
  "service.created",
  "service.updated",
  "service.deleted",
  "subdealership.created",
  "subdealership.updated",
  "subdealership.deleted",
  "user.created",
  "user.updated",
  "user.deleted",
  "user.password_set",
  "user.profile_updated",
  "user.role_assigned",
  "user.role_removed",
  "user.deactivated",
  "user.reactivated",
  "diner.created",
  "diner.updated",
  "diner.deleted",
  "diner.deactivated",
  "diner.import",
  "sale.created",
  "sale.voided",
  "sale.reprinted",
  "cafe.pos_updated",
  "period.closed",
  "period.reopened",
  "city.created",
  "city.updated",
  "city.deleted",
  "ingredient_category.created",
  "ingredient_category.updated",
  "ingredient_category.deleted",
  "ingredient.created",
  "ingredient.updated",
  "ingredient.deleted",
  "provider.created",
  "provider.updated",
  "provider.deleted",
  "offer.created",
  "offer.updated",
  "offer.deleted",
  "dish.created",
  "dish.updated",
  "dish.deleted",
  "dish_category.created",
  "dish_category.updated",
  "dish_category.deleted",
  "dish_category.reordered",
  "level.created",
  "level.updated",
  "level.deleted",
  "level.reordered",
  "recipe.saved",
  "recipe.deleted",
  "menu.published",
  "menu.servings.updated",
  "menu.servings.imported",
  "display_link.created",
  "display_link.revoked",
  "menu_day.updated",
  "menu_day.copied",
  "till.created",
  "till.updated",
  "payment_method.created",
  "payment_method.updated",
  "cafe.payment_methods_set",
  "shift.opened",
  "shift.cash_moved",
  "shift.closed",
  "shift.reopened",
] as const;

/** Every kind of thing an entry is about. */
export const AUDIT_SUBJECTS = [
  "area",
  "blacklist",
  "business",
  "cafe",
  "dealership",
  "headquarters",
  "mine",
  "permission",
  "places",
  "property",
  "role",
  "service",
  "subdealership",
  "unit",
  "user",
  "diner",
  "sale",
  "city",
  "ingredient_category",
  "ingredient",
  "provider",
  "offer",
  "dish",
  "dish_category",
  "level",
  "menu_day",
  "display_link",
  "till",
  "payment_method",
  "shift",
] as const;

/**
 * A key's text when the dictionary has one, else the fallback (an action or field recorded in the audit trail that
 * Mesa has no words for yet): the trail's actions, subjects and fields come from the database.
 */
function words(locale: Locale, key: string, fallback: string, params?: TranslationParams): string {
  return translateDynamic(locale, key, fallback, params);
}

/** An action in words ("Subconcesionaria creada"); an unknown action as recorded. */
export function actionLabel(action: string, locale: Locale): string {
  return words(locale, `access.audit.actions.${action}`, action);
}

/** A kind of subject in words ("Subconcesionaria"). */
export function subjectLabel(subjectType: string, locale: Locale): string {
  return words(locale, `access.audit.subjects.${subjectType}`, subjectType);
}

/** The name shown for an entry's actor: the person's name, or what acted when nobody signed in did. */
export function actorShown(
  row: Pick<AuditRow, "actorId" | "actorLabel" | "actorName">,
  locale: Locale,
): AuditEntryView["actor"] {
  if (row.actorName !== null) return { name: row.actorName, kind: "user" };
  const kind = row.actorLabel === "cli" ? "cli" : row.actorLabel === "guest" ? "guest" : "deleted";
  return { name: translate(locale, `access.audit.actors.${kind}`), kind };
}

// ——— Names by id, a page at a time ———

/** The kinds of thing an entry names by id, each read with one query per page. */
type Kind =
  | "user"
  | "role"
  | "area"
  | "cafe"
  | "unit"
  | "mine"
  | "headquarters"
  | "business"
  | "dealership"
  | "subdealership"
  | "service"
  | "property"
  | "blacklist"
  | "permission"
  | "diner"
  | "sale"
  | "level"
  | "city"
  | "ingredient_category"
  | "dish_category"
  | "display_link"
  | "ingredient"
  | "provider"
  | "offer"
  | "dish";

const NAME_QUERIES: Record<Kind, string> = {
  user: "SELECT id, name FROM users",
  role: "SELECT id, name FROM roles",
  area: "SELECT a.id, a.name || ' · ' || COALESCE(c.name, h.name, '') AS name FROM areas a LEFT JOIN cafes c ON c.id = a.cafe_id LEFT JOIN headquarters h ON h.id = a.headquarters_id",
  cafe: "SELECT id, name FROM cafes",
  unit: "SELECT id, name FROM units",
  mine: "SELECT id, name FROM mines",
  headquarters: "SELECT id, name FROM headquarters",
  business: "SELECT id, name FROM businesses",
  dealership: "SELECT id, name FROM dealerships",
  subdealership: "SELECT id, name FROM subdealerships",
  service: "SELECT id, name FROM services",
  property: "SELECT id, code || ' · ' || name AS name FROM properties",
  blacklist: "SELECT id, name || ' · ' || upper(document_type) || ' ' || document_number AS name FROM blacklist",
  permission: "SELECT id, name FROM permissions",
  diner: "SELECT id, name || ' · ' || upper(document_type) || ' ' || document_number AS name FROM visible_diners",
  sale: "SELECT id, series || '-' || printf('%08d', number) || ' · ' || diner_name AS name FROM sales",
  level: "SELECT id, name FROM levels",
  city: "SELECT id, name FROM cities",
  ingredient_category: "SELECT id, name FROM ingredient_categories",
  dish_category: "SELECT id, name FROM dish_categories",
  // A display link by where its screen is (its label): never its token, which is not kept.
  display_link: "SELECT id, label AS name FROM display_links",
  ingredient: "SELECT id, name FROM ingredients",
  provider: "SELECT id, name FROM providers",
  dish: "SELECT id, name FROM dishes",
  // An offer by what it is: its ingredient, presentation, provider and city.
  offer:
    "SELECT id, name FROM (SELECT o.id AS id, i.name || ' · ' || o.presentation || ' · ' || p.name || ' · ' || c.name AS name FROM offers o JOIN ingredients i ON i.id = o.ingredient_id JOIN providers p ON p.id = o.provider_id JOIN cities c ON c.id = o.city_id)",
};

/** Fields holding the id of something, and what kind of thing. */
const ID_FIELDS: Record<string, Kind> = {
  areaId: "area",
  roleId: "role",
  roleIds: "role",
  cafeId: "cafe",
  headquartersId: "headquarters",
  businessId: "business",
  mineId: "mine",
  unitId: "unit",
  unitIds: "unit",
  dealershipId: "dealership",
  subdealershipId: "subdealership",
  levelId: "level",
  serviceId: "service",
  userId: "user",
  cityId: "city",
  categoryId: "ingredient_category",
  ingredientId: "ingredient",
  providerId: "provider",
  subDishId: "dish",
};

class Names {
  private wanted = new Map<Kind, Set<number>>();
  private found = new Map<Kind, Map<number, string>>();

  want(kind: Kind, id: unknown): void {
    if (typeof id !== "number" || !Number.isInteger(id)) return;
    let ids = this.wanted.get(kind);
    if (!ids) this.wanted.set(kind, (ids = new Set()));
    ids.add(id);
  }

  /** One query per kind asked for. */
  read(db: Db, locale: Locale): void {
    for (const [kind, ids] of this.wanted) {
      const rows = db.$client
        .query<{ id: number; name: string }, [string]>(
          `${NAME_QUERIES[kind]} WHERE ${kind === "area" ? "a." : ""}id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify([...ids]));
      const names = new Map<number, string>();
      for (const { id, name } of rows)
        names.set(
          id,
          kind === "role" ? roleLabel(name, locale) : kind === "permission" ? permissionLabel(name, locale) : name,
        );
      this.found.set(kind, names);
    }
  }

  get(kind: Kind, id: number): string | undefined {
    return this.found.get(kind)?.get(id);
  }
}

/** The service names of codes (a price change names its services by code). */
function serviceNamesByCode(db: Db, codes: Set<string>): Map<string, string> {
  if (codes.size === 0) return new Map();
  const rows = db.$client
    .query<{ code: string; name: string }, [string]>(
      "SELECT code, name FROM services WHERE code IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify([...codes]));
  return new Map(rows.map((r) => [r.code, r.name]));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A place named by kind and id (`{ kind: "mine", id: 3 }`), as the services removed with a parent record it. */
function placeRef(value: unknown): { kind: "mine" | "unit" | "cafe"; id: number } | null {
  if (!isRecord(value) || typeof value.id !== "number") return null;
  return value.kind === "mine" || value.kind === "unit" || value.kind === "cafe"
    ? { kind: value.kind, id: value.id }
    : null;
}

// ——— Describing entries ———

/** Field values compared as JSON: the same JSON is no change. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/** Fields shown even when unchanged, because they say where the change happened (the area of a role change). */
const CONTEXT_FIELDS = new Set(["areaId"]);

class Describer {
  private money: { format(soles: number): string };
  private date: Intl.DateTimeFormat;

  constructor(
    private readonly w: AuditWords,
    private readonly names: Names,
    private readonly services: Map<string, string>,
  ) {
    this.money = { format: (soles: number) => formatMoney(Math.round(soles * 100), w.locale, w.currency) };
    this.date = new Intl.DateTimeFormat(intlLocale[w.locale], { dateStyle: "medium", timeZone: "UTC" });
  }

  private t(key: TranslationKey, params?: TranslationParams): string {
    return translate(this.w.locale, key, params);
  }

  private fieldLabel(field: string): string {
    return words(this.w.locale, `access.audit.fields.${field}`, field);
  }

  /** A value for people: names for ids, labels for keys, money and dates by the language, lists joined. */
  value(row: AuditRow, field: string, value: unknown): string {
    const { locale } = this.w;
    if (value === null || value === undefined || value === "") return "—";
    if (typeof value === "boolean") return this.t(value ? "access.audit.yes" : "access.audit.no");
    const kind = ID_FIELDS[field];
    if (kind) {
      const ids = Array.isArray(value) ? value : [value];
      if (ids.length === 0) return this.t("access.audit.nothing");
      return ids
        .map((id) => this.names.get(kind, id as number) ?? `#${id} (${this.t("access.audit.gone")})`)
        .join(", ");
    }
    if (field === "parent") {
      const place = placeRef(value);
      if (place) return this.names.get(place.kind, place.id) ?? `#${place.id} (${this.t("access.audit.gone")})`;
    }
    if (field === "permissions" || (row.subjectType === "permission" && (field === "added" || field === "removed"))) {
      if (Array.isArray(value))
        return value.length
          ? value.map((name) => permissionLabel(String(name), locale)).join(", ")
          : this.t("access.audit.nothing");
    }
    if (field === "name" && row.subjectType === "role" && typeof value === "string") return roleLabel(value, locale);
    if (field === "status" && typeof value === "string")
      return row.subjectType === "property"
        ? words(locale, `properties.statuses.${value}`, value)
        : words(locale, `access.users.${value}`, value);
    if (field === "documentType" && typeof value === "string") return words(locale, `documents.${value}`, value);
    if (field === "language") return typeof value === "string" ? words(locale, `locale.${value}`, value) : "—";
    if (field === "type" && row.subjectType === "service" && typeof value === "string")
      return words(locale, `services.types.${value}`, value);
    if (field === "sidebarLabel" && typeof value === "string") return words(locale, value, value);
    if (
      [
        "totalCents",
        "priceCents",
        "amountCents",
        "openingFloatCents",
        "countedCents",
        "expectedCents",
        "differenceCents",
      ].includes(field) &&
      typeof value === "number"
    )
      return this.money.format(value / 100);
    // A sale's payments: "Efectivo S/ 15.00, Yape S/ 5.00".
    if (field === "payments" && Array.isArray(value))
      return value.length
        ? value
            .map((p) =>
              isRecord(p) ? `${String(p.method)} ${this.money.format(Number(p.amountCents) / 100)}` : String(p),
            )
            .join(", ")
        : this.t("access.audit.nothing");
    if (field === "reason" && row.subjectType === "shift" && typeof value === "string")
      return words(locale, `cash.move_reasons.${value}`, value);
    if (field === "kind" && row.subjectType === "shift" && (value === "in" || value === "out"))
      return this.t(value === "in" ? "cash.move_in" : "cash.move_out");
    if (field === "baseUnit" && typeof value === "string") return words(locale, `food.units.${value}`, value);
    if (field === "allergens" && Array.isArray(value))
      return value.length
        ? value.map((code) => words(locale, `food.allergens.${String(code)}`, String(code))).join(", ")
        : this.t("access.audit.nothing");
    if (field === "saleType" && typeof value === "string") return words(locale, `sales.types.${value}`, value);
    if (
      (field === "serviceDate" || field === "acquiredOn") &&
      typeof value === "string" &&
      /^\d{4}-\d{2}-\d{2}$/.test(value)
    )
      return this.date.format(new Date(`${value}T00:00:00Z`));
    if (field === "acquisitionValue" && (typeof value === "string" || typeof value === "number")) {
      const soles = Number(value);
      return Number.isFinite(soles) ? this.money.format(soles) : String(value);
    }
    if (isRecord(value) && ["created", "updated", "unchanged"].every((k) => typeof value[k] === "number"))
      return this.t("access.audit.tally", value as Record<string, number>);
    if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : this.t("access.audit.nothing");
    if (isRecord(value))
      return Object.entries(value)
        .map(([k, v]) => `${this.fieldLabel(k)}: ${this.value(row, k, v)}`)
        .join("; ");
    return String(value);
  }

  /** The changes of a price entry: one line per service, its price before and after. */
  private priceChanges(row: AuditRow): AuditChange[] {
    const before = isRecord(row.before) ? row.before : {};
    const after = isRecord(row.after) ? row.after : {};
    const price = (cents: unknown) =>
      typeof cents === "number" ? this.money.format(cents / 100) : this.t("access.audit.no_price");
    return [...new Set([...Object.keys(after), ...Object.keys(before)])].map((code) => ({
      field: this.t("access.audit.fields.price", { service: this.services.get(code) ?? code }),
      before: price(before[code]),
      after: price(after[code]),
    }));
  }

  /** Field by field: what changed (both sides), or what a creation set and a deletion removed (one side). */
  changes(row: AuditRow): AuditChange[] {
    if (row.action === "cafe.prices.updated") return this.priceChanges(row);
    const before = isRecord(row.before) ? row.before : null;
    const after = isRecord(row.after) ? row.after : null;
    if (row.action === "roles.starting_grants" && after)
      return Object.entries(after).map(([name, granted]) => ({
        field: roleLabel(name, this.w.locale),
        after: this.value(row, "permissions", granted),
      }));
    const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
    const out: AuditChange[] = [];
    for (const field of fields) {
      const was = before?.[field];
      const now = after?.[field];
      if (before && after) {
        if (same(was, now) && !CONTEXT_FIELDS.has(field)) continue;
        out.push({
          field: this.fieldLabel(field),
          before: this.value(row, field, was),
          after: this.value(row, field, now),
        });
      } else if (after) {
        if (!isEmpty(now)) out.push({ field: this.fieldLabel(field), after: this.value(row, field, now) });
      } else if (before) {
        if (!isEmpty(was)) out.push({ field: this.fieldLabel(field), before: this.value(row, field, was) });
      }
    }
    return out;
  }
}

/** The name an entry recorded for its subject, when it has one (for a subject deleted since). */
function recordedName(row: AuditRow, locale: Locale): string | null {
  for (const side of [row.after, row.before]) {
    if (!isRecord(side) || typeof side.name !== "string") continue;
    if (row.subjectType === "role") return roleLabel(side.name, locale);
    if (row.subjectType === "property" && typeof side.code === "string") return `${side.code} · ${side.name}`;
    return side.name;
  }
  return null;
}

/** Whether the subject type is one whose things are read by name (not "places", the import's summary). */
function subjectKind(subjectType: string): Kind | null {
  return Object.hasOwn(NAME_QUERIES, subjectType) ? (subjectType as Kind) : null;
}

/** A page of audit rows in words: the names they refer to are read once for the whole page. */
export function describeAuditRows(db: Db, rows: AuditRow[], w: AuditWords): AuditEntryView[] {
  const names = new Names();
  const codes = new Set<string>();
  for (const row of rows) {
    const kind = subjectKind(row.subjectType);
    if (kind) names.want(kind, row.subjectId);
    for (const side of [row.before, row.after]) {
      if (!isRecord(side)) continue;
      if (row.action === "cafe.prices.updated") for (const code of Object.keys(side)) codes.add(code);
      for (const [field, value] of Object.entries(side)) {
        const idKind = ID_FIELDS[field];
        if (idKind) for (const id of Array.isArray(value) ? value : [value]) names.want(idKind, id);
        const place = field === "parent" ? placeRef(value) : null;
        if (place) names.want(place.kind, place.id);
      }
    }
  }
  names.read(db, w.locale);
  const describer = new Describer(w, names, serviceNamesByCode(db, codes));
  return rows.map((row) => {
    const kind = subjectKind(row.subjectType);
    const current = kind && row.subjectId !== null ? names.get(kind, row.subjectId) : undefined;
    const deleted = kind !== null && row.subjectId !== null && current === undefined;
    return {
      id: row.id,
      createdAt: row.createdAt,
      action: row.action,
      actionLabel: actionLabel(row.action, w.locale),
      actor: actorShown(row, w.locale),
      subjectType: row.subjectType,
      subjectId: row.subjectId,
      subject: {
        type: subjectLabel(row.subjectType, w.locale),
        name: current ?? (deleted ? recordedName(row, w.locale) : null),
        deleted,
      },
      changes: describer.changes(row),
    };
  });
}
