/**
 * What the Ingredients, Providers and Logistics pages share: the tab bar between them, the choices their dialogs
 * need (categories, providers, cities, ingredients), what the viewer may change, an offer's price history on demand
 * (`?history=<offer id>`), the offers' export columns, and who a price change is recorded as.
 */
import { can } from "../domain/access/authorization";
import type { PermissionName } from "../shared/access/permissions";
import { listCategories } from "../domain/food/categories";
import { cityOptions } from "../domain/food/cities";
import { ingredientOptions } from "../domain/food/ingredients";
import type { OfferRow } from "../domain/food/offer-lists";
import { offerHistory, requireOffer, type OfferSettings, type PriceAuthor } from "../domain/food/offers";
import { providerOptions } from "../domain/food/providers";
import { NotFound } from "../domain/errors";
import type { ExportColumn } from "../domain/spreadsheets/write";
import type { RequestContext } from "./context";
import { optional } from "./page-protocol/props";
import { idParam } from "./pagination";
import type { FoodTab } from "../shared/food/types";
import { dateIn, daysBetween, EXCEL_DAY_ZERO } from "../shared/calendar";
import { SOLES_FORMAT, solesAmount } from "../shared/money";
export type { FoodTab } from "../shared/food/types";

const TABS: (FoodTab & { permission: PermissionName })[] = [
  { id: "food", route: "food.index", label: "food.tabs.food", permission: "food.view" },
  { id: "ingredients", route: "ingredients.index", label: "food.tabs.ingredients", permission: "food.view" },
  { id: "providers", route: "providers.index", label: "food.tabs.providers", permission: "logistics.view" },
  { id: "logistics", route: "logistics.index", label: "food.tabs.logistics", permission: "logistics.view" },
];

/** The pages of the area the viewer may open, in order. */
export function foodTabs(ctx: RequestContext): FoodTab[] {
  return TABS.filter((tab) => can(ctx.access, tab.permission)).map(({ id, route, label }) => ({ id, route, label }));
}

/** The IGV rate costs are net of (the IGV_RATE setting). */
export const offerSettings = (ctx: RequestContext): OfferSettings => ({ igvRate: ctx.config.igvRateBasisPoints });

/** Who a price is recorded as: the signed-in person by id and name. */
export const priceAuthor = (ctx: RequestContext): PriceAuthor => ({
  userId: ctx.user?.id ?? null,
  name: ctx.user?.name ?? "",
});

/** What the viewer may change here. */
export function foodAbilities(ctx: RequestContext) {
  return { manageFood: can(ctx.access, "food.manage"), manageLogistics: can(ctx.access, "logistics.manage") };
}

/**
 * The props of the area's dialogs (the new-ingredient, ingredient, category, provider, offer, city and import
 * dialogs), each read only when sent, and an offer's price history when a partial reload asks for `history`.
 */
export function foodDialogProps(ctx: RequestContext) {
  return {
    categories: () => listCategories(ctx.db),
    providerOptions: () => providerOptions(ctx.db),
    cityOptions: () => cityOptions(ctx.db),
    ingredientOptions: optional(() => ingredientOptions(ctx.db)),
    foodSettings: { rucLength: ctx.config.rucLength, igvRate: ctx.config.igvRateBasisPoints },
    can: foodAbilities(ctx),
    tabs: foodTabs(ctx),
    // An offer's price history: ?history=<offer id>, asked for by the history dialog.
    history: optional(() => {
      const id = idParam(ctx.query, "history");
      if (!id) return null;
      try {
        const offer = requireOffer(ctx.db, id);
        return {
          offerId: offer.id,
          presentation: offer.presentation,
          rows: offerHistory(ctx.db, id, offerSettings(ctx)),
        };
      } catch (error) {
        if (error instanceof NotFound) return null;
        throw error;
      }
    }),
  };
}

/** A moment as the Excel date of its day in `timeZone` (days since 1899-12-30), shown with a date format. */
export function excelDay(iso: string, timeZone: string): number {
  return daysBetween(EXCEL_DAY_ZERO, dateIn(timeZone, new Date(iso)));
}

/** The columns of an offers sheet (the Ingredients and Providers exports). */
export function offerColumns(ctx: RequestContext): ExportColumn<OfferRow>[] {
  const unit = (r: OfferRow) => ctx.t(`food.units_short.${r.baseUnit}`);
  return [
    { header: ctx.t("food.offers.provider"), value: (r) => r.providerName, width: 32 },
    { header: ctx.t("food.offers.ingredient"), value: (r) => r.ingredientName, width: 28 },
    { header: ctx.t("food.city"), value: (r) => r.cityName, width: 16 },
    { header: ctx.t("food.offers.presentation"), value: (r) => r.presentation, width: 22 },
    { header: ctx.t("food.offers.quantity"), value: (r) => r.quantity, format: "#,##0.###", width: 12 },
    { header: ctx.t("food.offers.base_unit"), value: unit, width: 8 },
    { header: ctx.t("food.offers.price"), value: (r) => solesAmount(r.priceCents), format: SOLES_FORMAT, width: 12 },
    {
      header: ctx.t("food.offers.includes_igv"),
      value: (r) => ctx.t(r.priceIncludesIgv ? "food.yes" : "food.no"),
      width: 10,
    },
    {
      header: ctx.t("food.offers.net_price"),
      value: (r) => solesAmount(r.netPriceCents),
      format: SOLES_FORMAT,
      width: 12,
    },
    {
      header: ctx.t("food.offers.cost_per_reference_header"),
      value: (r) => solesAmount(r.costPerReferenceCents),
      format: SOLES_FORMAT,
      width: 14,
    },
    { header: ctx.t("food.offers.per"), value: (r) => ctx.t(`food.per_reference.${r.baseUnit}`), width: 12 },
    {
      header: ctx.t("food.offers.status"),
      value: (r) => ctx.t(r.active ? "food.offers.current" : "food.offers.withdrawn"),
      width: 12,
    },
    {
      header: ctx.t("food.offers.updated"),
      value: (r) => excelDay(r.priceChangedAt, ctx.config.timezone),
      format: "yyyy-mm-dd",
      width: 12,
    },
  ];
}
