/**
 * The Logistics page: each headquarters acts as the logistics centre of its city, stocking every ingredient from the
 * cheapest current offer there (the lowest cost per base unit net of IGV; equal costs go to the offer whose price is
 * the most recent, then the oldest offer). A headquarters without a city stocks nothing until it gets one. The
 * headquarters listed are those within the viewer's scope; the offers are company-wide.
 */
import type { Db } from "../../db";
import type { Scope } from "../access/scope";
import { FOLD_FUNCTION, idList, readList, searchPattern, type ListResult, type PageRequest } from "../search";
import { preparedQuery } from "../../db";
import { COST_PER_REFERENCE, offerRowOf, type RawOffer } from "./offer-lists";
import type { OfferSettings } from "./offers";
import type { LogisticsCentre, StockedIngredient } from "../../shared/food/types";
export type { LogisticsCentre, StockedIngredient } from "../../shared/food/types";

/** Named values bound to a statement (the connection is strict: names without their $). */
type Bindings = Record<string, string | number | boolean | null>;

const centres = preparedQuery((db, all: boolean) =>
  db.$client.prepare<Omit<LogisticsCentre, "stocked"> & { stocked: number }, Bindings>(
    `SELECT h.id, h.name, b.name AS businessName, h.address, h.city_id AS cityId, c.name AS cityName,
       (SELECT COUNT(DISTINCT o.ingredient_id) FROM offers o WHERE o.city_id = h.city_id AND o.active) AS stocked
     FROM headquarters h JOIN businesses b ON b.id = h.business_id LEFT JOIN cities c ON c.id = h.city_id
     ${all ? "" : "WHERE h.id IN (SELECT value FROM json_each($headquarters))"}
     ORDER BY b.name, h.name, h.id`,
  ),
);

/** The headquarters within the scope, by business and name, each as a logistics centre with its city. */
export function logisticsCentres(db: Db, scope: Scope): LogisticsCentre[] {
  return centres(db, scope.all).all(scope.all ? {} : { headquarters: idList(scope.headquartersIds) });
}

const folded = (column: string) =>
  `(CASE WHEN length(${column}) = octet_length(${column}) THEN ${column} ELSE ${FOLD_FUNCTION}(${column}) END)`;

/** The current offers of a city ranked per ingredient, cheapest first. */
// Equal costs reached through different prices and quantities (S/ 10.01 a kilo, S/ 30.03 for 3 kg) may differ in the
// last bit of a float: rounded, they tie, and the most recent price decides, as recipe costing decides.
const RANKED = `SELECT o.*, ROW_NUMBER() OVER (
      PARTITION BY o.ingredient_id
      ORDER BY ROUND(${COST_PER_REFERENCE.replaceAll("i.base_unit", "1")}, 9) ASC, o.price_changed_at DESC, o.id ASC
    ) AS rank, COUNT(*) OVER (PARTITION BY o.ingredient_id) AS offersInCity
  FROM offers o WHERE o.city_id = ($city + 0) AND o.active`;

const stockWhere = (searched: boolean) =>
  `WHERE o.rank = 1${searched ? ` AND (${folded("i.name")} LIKE ($search || '') ESCAPE '\\' OR ${folded("k.name")} LIKE ($search || '') ESCAPE '\\' OR ${folded("p.name")} LIKE ($search || '') ESCAPE '\\')` : ""}`;

const STOCK_FROM = `FROM (${RANKED}) o
  JOIN ingredients i ON i.id = o.ingredient_id
  JOIN ingredient_categories k ON k.id = i.category_id
  JOIN providers p ON p.id = o.provider_id
  JOIN cities c ON c.id = o.city_id`;

const countStock = preparedQuery((db, searched: boolean) =>
  db.$client.prepare<{ n: number }, Bindings>(`SELECT COUNT(*) AS n ${STOCK_FROM} ${stockWhere(searched)}`),
);

const stockPage = preparedQuery((db, searched: boolean) =>
  db.$client.prepare<Record<string, unknown>, Bindings>(
    `SELECT o.id, o.provider_id AS providerId, p.name AS providerName, o.ingredient_id AS ingredientId,
       i.name AS ingredientName, i.base_unit AS baseUnit, o.city_id AS cityId, c.name AS cityName, o.presentation,
       o.quantity, o.price_cents AS priceCents, o.price_includes_igv AS priceIncludesIgv, o.active,
       o.price_changed_at AS priceChangedAt, k.name AS categoryName, o.offersInCity
     ${STOCK_FROM} ${stockWhere(searched)}
     ORDER BY k.name, i.name, i.id LIMIT ($limit + 0) OFFSET ($offset + 0)`,
  ),
);

/**
 * What a logistics centre in `cityId` stocks: each ingredient with a current offer there and the cheapest of those
 * offers, by category and name, searched by ingredient, category or provider; every row when `page` is null.
 */
export function cheapestOffers(
  db: Db,
  cityId: number,
  filter: { search?: string },
  page: PageRequest | null,
  settings: OfferSettings,
): ListResult<StockedIngredient> {
  const search = searchPattern(filter.search);
  const searched = search !== null;
  const values: Bindings = { city: cityId, rate: settings.igvRate };
  if (searched) values.search = search;
  return readList(
    page,
    () => countStock(db, searched).get(values)?.n ?? 0,
    (window) =>
      stockPage(db, searched)
        .all({ ...values, ...window })
        .map((raw) => ({
          ingredientId: raw.ingredientId as number,
          ingredientName: raw.ingredientName as string,
          categoryName: raw.categoryName as string,
          offersInCity: raw.offersInCity as number,
          offer: offerRowOf(raw as unknown as RawOffer, settings),
        })),
  );
}
