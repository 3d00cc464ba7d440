/**
 * The Providers page: the offers grouped by city (searched, filtered by city and provider, sorted within each city,
 * paged by city) and the providers themselves, each exported as it is shown; the New-provider and provider dialogs,
 * the offer dialog (a new offer, or a change of price, presentation or status, each price kept with its date), an
 * offer's price history, and the cities dialog. Providers, offers and cities are company-wide data the buyer keeps
 * (logistics.view, logistics.manage).
 */
import { createCity, deleteCity, listCities, updateCity, type CityRow } from "../../domain/food/cities";
import { allOffers, offersByCity } from "../../domain/food/offer-lists";
import { createOffer, deleteOffer, updateOffer } from "../../domain/food/offers";
import {
  createProvider,
  deleteProvider,
  listProviders,
  updateProvider,
  type ProviderRow,
} from "../../domain/food/providers";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { recordWrites } from "../record-routes";
import { foodDialogProps, offerColumns, offerSettings, priceAuthor } from "../food-pages";
import { offerGroupsAtTheFold, offerPageQuery } from "../offer-pages";
import { listAtTheFold, pageHead, paginated } from "../pagination";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const settings = (ctx: RequestContext) => ({ rucLength: ctx.config.rucLength });

function providerColumns(ctx: RequestContext): ExportColumn<ProviderRow>[] {
  return [
    { header: ctx.t("food.providers.name"), value: (r) => r.name, width: 36 },
    { header: ctx.t("food.providers.ruc"), value: (r) => r.ruc, width: 14 },
    { header: ctx.t("food.providers.contact"), value: (r) => r.contact, width: 24 },
    { header: ctx.t("food.providers.phone"), value: (r) => r.phone, width: 16 },
    { header: ctx.t("food.providers.email"), value: (r) => r.email, width: 30 },
    { header: ctx.t("food.providers.offers"), value: (r) => r.offers },
    { header: ctx.t("food.providers.cities"), value: (r) => r.cities },
  ];
}

/** Back to the page the dialog was on, the Providers page otherwise. */
const back = (ctx: RequestContext) => ctx.urlFor("providers.index");

export const providersRoutes = defineRoutes([
  {
    name: "providers.index",
    methods: ["GET"],
    uri: "/providers",
    access: access.can("logistics.view"),
    handle: (ctx) => {
      const { tab, params, sort, filters } = offerPageQuery(ctx, "providers");
      return ctx.render("providers/index", {
        filters: {
          tab,
          search: filters.search,
          provider: filters.providerId ?? null,
          city: filters.cityId ?? null,
          ...sort,
        },
        // The tab's list, a page at a time (25 offers, 15 providers), cut at the fold on a full load (listAtTheFold).
        ...offerGroupsAtTheFold(ctx, tab === "offers", params, () =>
          offersByCity(ctx.db, filters, params, sort, offerSettings(ctx)),
        ),
        ...listAtTheFold(
          ctx,
          "providers",
          () =>
            tab === "providers"
              ? paginated(listProviders(ctx.db, { search: filters.search }, params, sort), params)
              : null,
          pageHead,
        ),
        // The cities dialog: every city with what is in it (a company has a few dozen).
        cities: () => listCities(ctx.db),
        ...foodDialogProps(ctx),
      });
    },
  },
  {
    name: "providers.export",
    methods: ["GET"],
    uri: "/providers/export",
    access: access.can("logistics.view"),
    // What the tab shows, every page of it: the offers by city, or the providers.
    handle: (ctx) => {
      const { tab, sort, filters } = offerPageQuery(ctx, "providers");
      if (tab === "providers")
        return xlsxResponse(exportFileName(ctx.locale === "es" ? "proveedores" : "providers", ctx.config.timezone), [
          {
            name: ctx.t("food.providers.title"),
            columns: providerColumns(ctx),
            rows: listProviders(ctx.db, { search: filters.search }, null, sort).rows,
          },
        ]);
      const rows = allOffers(ctx.db, "city", filters, sort, offerSettings(ctx));
      return xlsxResponse(
        exportFileName(ctx.locale === "es" ? "ofertas-por-ciudad" : "offers-by-city", ctx.config.timezone),
        [{ name: ctx.t("food.offers.by_city"), columns: offerColumns(ctx), rows }],
      );
    },
  },
  ...recordWrites("providers", "/providers/{provider}", access.can("logistics.manage"), {
    create: (ctx) => createProvider(ctx.db, ctx.actor, ctx.body, settings(ctx)),
    update: (ctx, id) => updateProvider(ctx.db, ctx.actor, id, ctx.body, settings(ctx)),
    destroy: (ctx, id) => deleteProvider(ctx.db, ctx.actor, id),
    saved: (ctx, provider) => ctx.t("food.providers.saved", { name: provider.name }),
    deleted: (ctx, provider) => ctx.t("food.providers.deleted", { name: provider.name }),
    back,
  }),
  ...recordWrites("offers", "/offers/{offer}", access.can("logistics.manage"), {
    create: (ctx) => createOffer(ctx.db, ctx.actor, priceAuthor(ctx), ctx.body),
    update: (ctx, id) => updateOffer(ctx.db, ctx.actor, priceAuthor(ctx), id, ctx.body),
    destroy: (ctx, id) => deleteOffer(ctx.db, ctx.actor, id),
    saved: (ctx, offer) => ctx.t("food.offers.saved", { presentation: offer.presentation }),
    deleted: (ctx, offer) => ctx.t("food.offers.deleted", { presentation: offer.presentation }),
    back,
  }),
  {
    name: "cities.export",
    methods: ["GET"],
    uri: "/cities/export",
    access: access.can("logistics.view"),
    handle: (ctx) =>
      xlsxResponse(exportFileName(ctx.t("food.export_columns.cities_file"), ctx.config.timezone), [
        {
          name: ctx.t("food.cities.title"),
          columns: [
            { header: ctx.t("food.cities.name"), value: (r: CityRow) => r.name, width: 24 },
            { header: ctx.t("food.cities.region"), value: (r: CityRow) => r.region, width: 20 },
            { header: ctx.t("food.export_columns.cafes"), value: (r: CityRow) => r.cafes, width: 12 },
            { header: ctx.t("food.export_columns.headquarters"), value: (r: CityRow) => r.headquarters, width: 12 },
            { header: ctx.t("food.export_columns.offers"), value: (r: CityRow) => r.offers, width: 12 },
          ],
          rows: listCities(ctx.db),
        },
      ]),
  },
  ...recordWrites("cities", "/cities/{city}", access.can("logistics.manage"), {
    create: (ctx) => createCity(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateCity(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteCity(ctx.db, ctx.actor, id),
    saved: (ctx, city) => ctx.t("food.cities.saved", { name: city.name }),
    deleted: (ctx, city) => ctx.t("food.cities.deleted", { name: city.name }),
    back,
  }),
]);
