/**
 * What to buy for a cafe's published menu over a date range (at most MAX_RANGE_DAYS):
 *
 * 1. each published slot of each day (`published_menu_slots` of the days published) is a dish served at a meal
 *    service; its servings are the day's expected servings of that service (expected-servings.ts: set, or the
 *    four-week average);
 * 2. each dish's recipe is the one of the cafe's default level (else the first level by sort order), else the dish's
 *    first recipe by level order; a dish without any recipe is listed apart and adds nothing;
 * 3. the recipes' ingredient needs per serving (`ingredientNeeds`, src/domain/food/recipe-cost.ts: gross quantities
 *    in the ingredient's base unit, sub-recipes flattened by quantity ÷ yield, each need with the offer it is costed
 *    at in the cafe's city: the line's pinned offer when current there, else the cheapest current one) are
 *    multiplied by the servings and added up per ingredient and offer;
 * 4. the provider is the one of that offer; each ingredient's total per provider is bought in the cheapest mix of whole
 *    presentations among the provider's current offers of it in the city (requirements-packs.ts: 2 kg of sugar is
 *    two 1 kg bags, not a 50 kg sack), and a larger presentation of theirs that is cheaper per unit than what is
 *    bought is noted beside it; each presentation bought costs its count × its price net of IGV, rounded to whole
 *    cents once; a line adds its presentations, a provider's total its lines, the grand total the providers;
 * 5. ingredients without an offer in the city are listed apart with what is needed (never costed at zero).
 *
 * Quantities are kept unrounded until the presentations are counted; a quantity a hair above a whole number of
 * presentations because of floating point (1e-9 of one) does not buy one more.
 */
import type { Db } from "../../db";
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { Scope } from "../access/scope";
import { netPriceCents, type BasisPoints } from "../../shared/food/cost";
import { ingredientNeeds } from "../food/recipe-cost";
import { cafeInScope, expectedServings, servingsLookup } from "./expected-servings";
import { cheapestCover, largerPackNote, type Pack } from "./requirements-packs";
import type {
  BaseUnit,
  DishWithoutRecipe,
  MissingOffer,
  ProviderRequirements,
  Requirements,
} from "../../shared/menu/types";
export type {
  BaseUnit,
  DishWithoutRecipe,
  MissingOffer,
  ProviderRequirements,
  RequirementLine,
  RequirementPack,
  Requirements,
} from "../../shared/menu/types";

export { presentationsFor } from "./requirements-packs";

export interface RequirementOptions {
  /** The IGV rate prices are netted with, in basis points (the IGV_RATE setting). */
  igvRate: BasisPoints;
}

type Bindings = Record<string, string | number>;

/** The level a cafe's menu is costed at: its default level, else the first by sort order. */
function levelOf(db: Db, defaultLevelId: number | null): { id: number; name: string } {
  const level =
    (defaultLevelId !== null
      ? db.$client
          .query<{ id: number; name: string }, [number]>(`SELECT id, name FROM levels WHERE id = ?`)
          .get(defaultLevelId)
      : null) ??
    db.$client
      .query<{ id: number; name: string }, []>(`SELECT id, name FROM levels ORDER BY sort_order, id LIMIT 1`)
      .get();
  if (!level) throw new ValidationFailed({ cafe: message("menuRequirements.errors.no_level") });
  return level;
}

/** The published slots of a cafe's range: date, service and dish, of the days that were published. */
function publishedSlots(db: Db, cafeId: number, from: string, to: string) {
  return db.$client
    .query<{ date: string; serviceId: number; dishId: number }, Bindings>(
      `SELECT d.date, p.service_id AS serviceId, p.dish_id AS dishId
       FROM menu_days d JOIN published_menu_slots p ON p.day_id = d.id
       WHERE d.cafe_id = $cafe AND d.date BETWEEN $from AND $to AND d.published_version IS NOT NULL
       ORDER BY d.date, p.service_id, p.dish_category_id, p.position`,
    )
    .all({ cafe: cafeId, from, to });
}

/** Each dish's recipe at a level: that level's, else the dish's first by level order. Dishes without one are left out. */
function recipesOf(db: Db, dishIds: number[], levelId: number): Map<number, number> {
  const rows = db.$client
    .query<{ dishId: number; recipeId: number }, Bindings>(
      `SELECT r.dish_id AS dishId, r.id AS recipeId FROM recipes r JOIN levels l ON l.id = r.level_id
       WHERE r.dish_id IN (SELECT value FROM json_each($dishes))
       ORDER BY r.dish_id, CASE WHEN r.level_id = $level THEN 0 ELSE 1 END, l.sort_order, l.id`,
    )
    .all({ dishes: JSON.stringify(dishIds), level: levelId });
  const out = new Map<number, number>();
  for (const row of rows) if (!out.has(row.dishId)) out.set(row.dishId, row.recipeId);
  return out;
}

/**
 * The requirements of a cafe within `scope` (others are NotFound) for a range checked by the caller (checkRange):
 * see the top of this file. A cafe without a city has no offers to buy from: refused on `cafe`.
 */
export function menuRequirements(
  db: Db,
  scope: Scope,
  cafeId: number,
  from: string,
  to: string,
  options: RequirementOptions,
): Requirements {
  const cafe = cafeInScope(db, scope, cafeId);
  if (cafe.cityId === null || cafe.cityName === null)
    throw new ValidationFailed({ cafe: message("menuRequirements.errors.no_city") });
  const level = levelOf(db, cafe.defaultLevelId);
  const servings = expectedServings(db, cafeId, from, to);
  const lookup = servingsLookup(servings);

  // Servings of each dish over the range.
  const slots = publishedSlots(db, cafeId, from, to);
  const perDish = new Map<number, number>();
  const days = new Set<string>();
  for (const slot of slots) {
    days.add(slot.date);
    const n = lookup.get(slot.date)?.get(slot.serviceId) ?? 0;
    perDish.set(slot.dishId, (perDish.get(slot.dishId) ?? 0) + n);
  }
  const dishIds = [...perDish.keys()];
  const dishNames = new Map(
    db.$client
      .query<{ id: number; name: string }, Bindings>(
        `SELECT id, name FROM dishes WHERE id IN (SELECT value FROM json_each($dishes))`,
      )
      .all({ dishes: JSON.stringify(dishIds) })
      .map((d) => [d.id, d.name]),
  );
  const recipeOfDish = recipesOf(db, dishIds, level.id);
  const needs = ingredientNeeds(db, [...new Set(recipeOfDish.values())], {
    cityId: cafe.cityId,
    igvRate: options.igvRate,
  });

  // Needed quantity per ingredient and offer (offer null: none in the city), with the dishes that need it.
  const totals = new Map<
    string,
    { ingredientId: number; offerId: number | null; quantity: number; dishes: Set<number> }
  >();
  const dishesWithoutRecipe: DishWithoutRecipe[] = [];
  for (const [dishId, dishServings] of perDish) {
    const recipeId = recipeOfDish.get(dishId);
    if (recipeId === undefined) {
      dishesWithoutRecipe.push({ dishId, dishName: dishNames.get(dishId) ?? "", servings: dishServings });
      continue;
    }
    if (dishServings === 0) continue;
    for (const need of needs.get(recipeId) ?? []) {
      const key = `${need.ingredientId}:${need.offerId ?? ""}`;
      let total = totals.get(key);
      if (!total)
        totals.set(
          key,
          (total = { ingredientId: need.ingredientId, offerId: need.offerId, quantity: 0, dishes: new Set() }),
        );
      total.quantity += need.grossQuantity * dishServings;
      total.dishes.add(dishId);
    }
  }

  const all = [...totals.values()].filter((t) => t.quantity > 0);
  const ingredientInfo = new Map(
    db.$client
      .query<{ id: number; name: string; categoryName: string; baseUnit: BaseUnit }, Bindings>(
        `SELECT i.id, i.name, k.name AS categoryName, i.base_unit AS baseUnit
         FROM ingredients i JOIN ingredient_categories k ON k.id = i.category_id
         WHERE i.id IN (SELECT value FROM json_each($ids))`,
      )
      .all({ ids: JSON.stringify([...new Set(all.map((t) => t.ingredientId))]) })
      .map((i) => [i.id, i]),
  );
  // The current offers of those ingredients in the cafe's city, with their providers: a provider's offers of an
  // ingredient are the presentations it can be bought in.
  const offerRows = db.$client
    .query<
      {
        id: number;
        ingredientId: number;
        providerId: number;
        providerName: string;
        ruc: string;
        contact: string;
        phone: string;
        email: string;
        presentation: string;
        quantity: number;
        priceCents: number;
        priceIncludesIgv: number;
      },
      Bindings
    >(
      `SELECT o.id, o.ingredient_id AS ingredientId, o.provider_id AS providerId, p.name AS providerName, p.ruc,
         p.contact, p.phone, p.email, o.presentation, o.quantity, o.price_cents AS priceCents,
         o.price_includes_igv AS priceIncludesIgv
       FROM offers o JOIN providers p ON p.id = o.provider_id
       WHERE o.city_id = $city AND o.active AND o.ingredient_id IN (SELECT value FROM json_each($ids))
       ORDER BY o.id`,
    )
    .all({ city: cafe.cityId, ids: JSON.stringify([...ingredientInfo.keys()]) });
  const offerInfo = new Map(offerRows.map((o) => [o.id, o]));
  const packsOf = new Map<string, Pack[]>();
  for (const o of offerRows) {
    const key = `${o.ingredientId}:${o.providerId}`;
    const pack: Pack = {
      offerId: o.id,
      presentation: o.presentation,
      quantity: o.quantity,
      netCents: netPriceCents(o.priceCents, o.priceIncludesIgv === 1, options.igvRate),
    };
    const list = packsOf.get(key);
    if (list) list.push(pack);
    else packsOf.set(key, [pack]);
  }

  // Needed quantity per ingredient and provider (the provider of the offer each need is costed at).
  const perProvider = new Map<string, { ingredientId: number; providerId: number; quantity: number }>();
  const providers = new Map<number, ProviderRequirements>();
  const missing = new Map<number, MissingOffer>();
  for (const total of all) {
    const ingredient = ingredientInfo.get(total.ingredientId)!;
    const offer = total.offerId === null ? undefined : offerInfo.get(total.offerId);
    if (!offer) {
      let gap = missing.get(total.ingredientId);
      if (!gap)
        missing.set(
          total.ingredientId,
          (gap = {
            ingredientId: ingredient.id,
            ingredientName: ingredient.name,
            categoryName: ingredient.categoryName,
            baseUnit: ingredient.baseUnit,
            neededQuantity: 0,
            dishes: [],
          }),
        );
      gap.neededQuantity += total.quantity;
      for (const dishId of total.dishes) {
        const name = dishNames.get(dishId) ?? "";
        if (!gap.dishes.includes(name)) gap.dishes.push(name);
      }
      continue;
    }
    if (!providers.has(offer.providerId))
      providers.set(offer.providerId, {
        providerId: offer.providerId,
        providerName: offer.providerName,
        ruc: offer.ruc,
        contact: offer.contact,
        phone: offer.phone,
        email: offer.email,
        lines: [],
        totalCents: 0,
      });
    const key = `${total.ingredientId}:${offer.providerId}`;
    const need = perProvider.get(key);
    if (need) need.quantity += total.quantity;
    else
      perProvider.set(key, {
        ingredientId: total.ingredientId,
        providerId: offer.providerId,
        quantity: total.quantity,
      });
  }
  for (const [key, need] of perProvider) {
    const ingredient = ingredientInfo.get(need.ingredientId)!;
    const provider = providers.get(need.providerId)!;
    const offered = packsOf.get(key) ?? [];
    const cover = cheapestCover(need.quantity, offered);
    const packs = cover.packs.map((p) => ({
      offerId: p.offerId,
      presentation: p.presentation,
      presentationQuantity: p.quantity,
      presentations: p.count,
      presentationNetCents: p.netCents,
      costCents: Math.round(p.count * p.netCents),
    }));
    const costCents = packs.reduce((sum, p) => sum + p.costCents, 0);
    provider.lines.push({
      ingredientId: ingredient.id,
      ingredientName: ingredient.name,
      categoryName: ingredient.categoryName,
      baseUnit: ingredient.baseUnit,
      neededQuantity: need.quantity,
      packs,
      boughtQuantity: cover.boughtQuantity,
      costCents,
      unitNetCents: cover.boughtQuantity > 0 ? cover.netCents / cover.boughtQuantity : 0,
      largerPack: largerPackNote(need.quantity, cover, offered),
    });
    provider.totalCents += costCents;
  }
  const byName = (a: string, b: string) => a.localeCompare(b, "es");
  const sortedProviders = [...providers.values()].sort((a, b) => byName(a.providerName, b.providerName));
  for (const provider of sortedProviders)
    provider.lines.sort((a, b) => byName(a.categoryName, b.categoryName) || byName(a.ingredientName, b.ingredientName));
  for (const gap of missing.values()) gap.dishes.sort(byName);
  dishesWithoutRecipe.sort((a, b) => byName(a.dishName, b.dishName));

  return {
    cafe: { id: cafe.id, name: cafe.name, cityId: cafe.cityId, cityName: cafe.cityName },
    from,
    to,
    level,
    publishedDays: days.size,
    dishServings: [...perDish.values()].reduce((a, b) => a + b, 0),
    servings,
    providers: sortedProviders,
    missing: [...missing.values()].sort(
      (a, b) => byName(a.categoryName, b.categoryName) || byName(a.ingredientName, b.ingredientName),
    ),
    dishesWithoutRecipe,
    totalCents: sortedProviders.reduce((sum, p) => sum + p.totalCents, 0),
  };
}
