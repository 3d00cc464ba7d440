/**
 * The lists of offers: grouped by provider (the Ingredients page) or by city (the Providers page), a page of offers
 * at a time in the order of their groups, searched (ingredient, provider, presentation, city; case and accents
 * ignored, the user's % and _ literal), filtered by provider and city, and sorted within each group by the column
 * asked for; and the same offers as one list for the export.
 *
 * Each shape of the SQL (grouping, search or not, filters, sort) is prepared once per connection and bound with
 * values; the cost per kilogram, litre or unit is computed by SQLite with the IGV rate bound, so the list sorts by it.
 */
import type { Db } from "../../db";
import { FOLD_FUNCTION, idList, pageWindow, searchPattern, type PageRequest, type SortRequest } from "../search";
import { preparedQuery } from "../../db";
import { offerCosts, type OfferSettings } from "./offers";
import type { CityGroup, GroupPage, OfferRow, ProviderGroup } from "../../shared/food/types";
export type { CityGroup, GroupPage, OfferRow, ProviderGroup } from "../../shared/food/types";

export interface OfferFilter {
  search?: string;
  providerId?: number;
  cityId?: number;
}

type GroupBy = "provider" | "city";

/** Text as a search compares it (search.ts's folding, in SQL). */
/** Named values bound to a statement (the connection is strict: names without their $). */
type Bindings = Record<string, string | number | boolean | null>;

const folded = (column: string) =>
  `(CASE WHEN length(${column}) = octet_length(${column}) THEN ${column} ELSE ${FOLD_FUNCTION}(${column}) END)`;

const SEARCHED = ["i.name", "p.name", "o.presentation", "c.name"];

/** The cost of a kilogram, litre or unit, net of IGV (`$rate` in basis points), in cents. */
export const COST_PER_REFERENCE = `(o.price_cents * (CASE WHEN o.price_includes_igv THEN 10000.0 / (10000 + ($rate + 0)) ELSE 1.0 END) / o.quantity * (CASE i.base_unit WHEN 'unit' THEN 1 ELSE 1000 END))`;

const SORTS: Record<string, string> = {
  ingredient: "i.name",
  provider: "p.name",
  city: "c.name",
  presentation: "o.presentation",
  quantity: "o.quantity",
  price: "o.price_cents",
  cost: COST_PER_REFERENCE,
  updated: "o.price_changed_at",
};

const FROM = `FROM offers o
  JOIN providers p ON p.id = o.provider_id
  JOIN ingredients i ON i.id = o.ingredient_id
  JOIN cities c ON c.id = o.city_id`;

function where(searched: boolean, byProvider: boolean, byCity: boolean, extra: string[] = []): string {
  const conditions = [
    ...(searched ? [`(${SEARCHED.map((c) => `${folded(c)} LIKE ($search || '') ESCAPE '\\'`).join(" OR ")})`] : []),
    ...(byProvider ? ["o.provider_id = ($provider + 0)"] : []),
    ...(byCity ? ["o.city_id = ($city + 0)"] : []),
    ...extra,
  ];
  return conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
}

const GROUP = {
  provider: {
    key: "o.provider_id",
    order: "p.name, p.id",
    columns: "p.id, p.name, p.ruc, p.contact, p.phone, p.email",
  },
  city: { key: "o.city_id", order: "c.name, c.id", columns: "c.id, c.name, c.region" },
};

const OFFER_COLUMNS = `o.id, o.provider_id AS providerId, p.name AS providerName, o.ingredient_id AS ingredientId,
  i.name AS ingredientName, i.base_unit AS baseUnit, o.city_id AS cityId, c.name AS cityName, o.presentation,
  o.quantity, o.price_cents AS priceCents, o.price_includes_igv AS priceIncludesIgv, o.active,
  o.price_changed_at AS priceChangedAt`;

type Shape = [searched: boolean, byProvider: boolean, byCity: boolean];

const countOffers = preparedQuery((db, by: GroupBy, ...shape: Shape) =>
  db.$client.prepare<{ groups: number; offers: number }, Bindings>(
    `SELECT COUNT(DISTINCT ${GROUP[by].key}) AS groups, COUNT(*) AS offers ${FROM} ${where(...shape)}`,
  ),
);

/** The groups of a page's offers, with how many offers each has in all (not only on the page). */
const groupsOf = preparedQuery((db, by: GroupBy, ...shape: Shape) =>
  db.$client.prepare<Record<string, unknown>, Bindings>(
    `SELECT ${GROUP[by].columns}, COUNT(*) AS offers ${FROM}
     ${where(...shape, [`${GROUP[by].key} IN (SELECT value FROM json_each($groups))`])}
     GROUP BY ${GROUP[by].key}`,
  ),
);

/** The sort as one of the few orders the statements are prepared with: an allowed column and a direction. */
function orderOf(sort: SortRequest | undefined): [string, "asc" | "desc"] {
  const name = sort?.sort && Object.hasOwn(SORTS, sort.sort) ? sort.sort : "";
  return [name, name && sort?.direction === "desc" ? "desc" : "asc"];
}

function orderClause(first: string, [name, direction]: [string, "asc" | "desc"]): string {
  const chosen = name ? `${SORTS[name]} ${direction === "desc" ? "DESC" : "ASC"}, ` : "";
  return `ORDER BY ${first ? `${first}, ` : ""}${chosen}i.name, c.name, p.name, o.presentation, o.id`;
}

const offersPage = preparedQuery(
  (db, by: GroupBy, searched: boolean, byProvider: boolean, byCity: boolean, sort: string, direction: string) =>
    db.$client.prepare<RawOffer, Bindings>(
      `SELECT ${OFFER_COLUMNS} ${FROM} ${where(searched, byProvider, byCity)}
       ${orderClause(GROUP[by].order, [sort, direction as "asc" | "desc"])}
       LIMIT ($limit + 0) OFFSET ($offset + 0)`,
    ),
);

const everyOffer = preparedQuery(
  (db, by: GroupBy, searched: boolean, byProvider: boolean, byCity: boolean, sort: string, direction: string) =>
    db.$client.prepare<RawOffer, Bindings>(
      `SELECT ${OFFER_COLUMNS} ${FROM} ${where(searched, byProvider, byCity)}
       ${orderClause(GROUP[by].order, [sort, direction as "asc" | "desc"])}`,
    ),
);

export interface RawOffer {
  id: number;
  providerId: number;
  providerName: string;
  ingredientId: number;
  ingredientName: string;
  baseUnit: "g" | "ml" | "unit";
  cityId: number;
  cityName: string;
  presentation: string;
  quantity: number;
  priceCents: number;
  priceIncludesIgv: number;
  active: number;
  priceChangedAt: number;
}

export function offerRowOf(raw: RawOffer, settings: OfferSettings): OfferRow {
  const offer = { ...raw, priceIncludesIgv: raw.priceIncludesIgv === 1, active: raw.active === 1 };
  return {
    ...offer,
    priceChangedAt: new Date(raw.priceChangedAt).toISOString(),
    ...offerCosts(offer, raw.baseUnit, settings),
  };
}

function valuesOf(filter: OfferFilter, settings: OfferSettings) {
  const search = searchPattern(filter.search);
  const shape: Shape = [search !== null, filter.providerId !== undefined, filter.cityId !== undefined];
  const values: Bindings = { rate: settings.igvRate };
  if (search !== null) values.search = search;
  if (filter.providerId !== undefined) values.provider = filter.providerId;
  if (filter.cityId !== undefined) values.city = filter.cityId;
  return { shape, values };
}

/**
 * A page of offers in the order of their groups (providers or cities, by name), then the sort asked for, with the
 * groups they belong to: a group may run over from one page to the next, and says how many offers it has in all.
 */
function offerGroups(
  db: Db,
  by: GroupBy,
  filter: OfferFilter,
  page: PageRequest,
  sort: SortRequest | undefined,
  settings: OfferSettings,
): {
  groups: (Record<string, unknown> & { offers: OfferRow[]; count: number })[];
  total: number;
  groupCount: number;
  page: number;
} {
  const { shape, values } = valuesOf(filter, settings);
  const counted = countOffers(db, by, ...shape).get(values) ?? { groups: 0, offers: 0 };
  const window = pageWindow(counted.offers, page);
  const rows = offersPage(db, by, ...shape, ...orderOf(sort))
    .all({ ...values, limit: window.limit, offset: window.offset })
    .map((r) => offerRowOf(r, settings));
  const keyOf = (o: OfferRow) => (by === "provider" ? o.providerId : o.cityId);
  const ids = [...new Set(rows.map(keyOf))];
  const details = new Map(
    (ids.length ? groupsOf(db, by, ...shape).all({ ...values, groups: idList(ids) }) : []).map((g) => [
      g.id as number,
      g,
    ]),
  );
  const groups = ids.map((id) => {
    const { offers: count, ...group } = details.get(id)!;
    return { ...group, count: count as number, offers: rows.filter((o) => keyOf(o) === id) };
  });
  return { groups, total: counted.offers, groupCount: counted.groups, page: window.page };
}

/** Offers grouped by provider (the Ingredients page): a page of providers, by name, each with its offers found. */
export function offersByProvider(
  db: Db,
  filter: OfferFilter,
  page: PageRequest,
  sort: SortRequest | undefined,
  settings: OfferSettings,
): GroupPage<ProviderGroup> {
  const found = offerGroups(db, "provider", filter, page, sort, settings);
  return {
    total: found.total,
    groupCount: found.groupCount,
    page: found.page,
    groups: found.groups.map((g) => ({
      id: g.id as number,
      name: g.name as string,
      ruc: g.ruc as string,
      contact: g.contact as string,
      phone: g.phone as string,
      email: g.email as string,
      count: g.count,
      offers: g.offers,
    })),
  };
}

/** Offers grouped by city (the Providers page): a page of cities, by name, each with its offers found. */
export function offersByCity(
  db: Db,
  filter: OfferFilter,
  page: PageRequest,
  sort: SortRequest | undefined,
  settings: OfferSettings,
): GroupPage<CityGroup> {
  const found = offerGroups(db, "city", filter, page, sort, settings);
  return {
    total: found.total,
    groupCount: found.groupCount,
    page: found.page,
    groups: found.groups.map((g) => ({
      id: g.id as number,
      name: g.name as string,
      region: g.region as string,
      count: g.count,
      offers: g.offers,
    })),
  };
}

/** Every offer the filter finds, in the order of the page grouped by `by` (the exports). */
export function allOffers(
  db: Db,
  by: GroupBy,
  filter: OfferFilter,
  sort: SortRequest | undefined,
  settings: OfferSettings,
): OfferRow[] {
  const { shape, values } = valuesOf(filter, settings);
  return everyOffer(db, by, ...shape, ...orderOf(sort))
    .all(values)
    .map((r) => offerRowOf(r, settings));
}
