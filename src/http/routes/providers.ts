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
import { foodDialogProps, offerColumns, offerSettings, priceAuthor } from "../food-pages";
import { groupedPageHead, idParam, listAtTheFold, listParams, pageHead, paginated, sortParams } from "../pagination";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const ID = "\\d+";
const TABS = ["offers", "providers"] as const;
type Tab = (typeof TABS)[number];

const tabOf = (value: unknown): Tab => (TABS.includes(value as Tab) ? (value as Tab) : "offers");

const settings = (ctx: RequestContext) => ({ rucLength: ctx.config.rucLength });

function filtersOf(ctx: RequestContext) {
  return {
    search: listParams(ctx.query).search,
    providerId: idParam(ctx.query, "provider"),
    cityId: idParam(ctx.query, "city"),
  };
}

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

const back = (ctx: RequestContext) => ctx.back(ctx.urlFor("providers.index"));

export const providersRoutes = defineRoutes([
  {
    name: "providers.index",
    methods: ["GET"],
    uri: "/providers",
    access: access.can("logistics.view"),
    handle: (ctx) => {
      const tab = tabOf(ctx.query.tab);
      const params = listParams(ctx.query, "", tab === "offers" ? 25 : 15);
      const sort = sortParams(ctx.query);
      const filters = filtersOf(ctx);
      return ctx.render("providers/index", {
        filters: {
          tab,
          search: filters.search,
          provider: filters.providerId ?? null,
          city: filters.cityId ?? null,
          ...sort,
        },
        // The tab's list, a page at a time (25 offers, 15 providers), cut at the fold on a full load (listAtTheFold).
        ...listAtTheFold(
          ctx,
          "offers",
          () => {
            if (tab !== "offers") return null;
            const found = offersByCity(ctx.db, filters, params, sort, offerSettings(ctx));
            return {
              ...paginated({ rows: found.groups, total: found.total, page: found.page }, params),
              groups: found.groupCount,
            };
          },
          groupedPageHead,
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
      const filters = filtersOf(ctx);
      const sort = sortParams(ctx.query);
      if (tabOf(ctx.query.tab) === "providers")
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
  {
    name: "providers.store",
    methods: ["POST"],
    uri: "/providers",
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const provider = createProvider(ctx.db, ctx.actor, ctx.body, settings(ctx));
      ctx.flash("success", ctx.t("food.providers.saved", { name: provider.name }));
      return back(ctx);
    },
  },
  {
    name: "providers.update",
    methods: ["PUT"],
    uri: "/providers/{provider}",
    wheres: { provider: ID },
    bindings: { provider: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const provider = updateProvider(ctx.db, ctx.actor, Number(ctx.params.provider), ctx.body, settings(ctx));
      ctx.flash("success", ctx.t("food.providers.saved", { name: provider.name }));
      return back(ctx);
    },
  },
  {
    name: "providers.destroy",
    methods: ["DELETE"],
    uri: "/providers/{provider}",
    wheres: { provider: ID },
    bindings: { provider: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const provider = deleteProvider(ctx.db, ctx.actor, Number(ctx.params.provider));
      ctx.flash("success", ctx.t("food.providers.deleted", { name: provider.name }));
      return back(ctx);
    },
  },
  {
    name: "offers.store",
    methods: ["POST"],
    uri: "/offers",
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const offer = createOffer(ctx.db, ctx.actor, priceAuthor(ctx), ctx.body);
      ctx.flash("success", ctx.t("food.offers.saved", { presentation: offer.presentation }));
      return back(ctx);
    },
  },
  {
    name: "offers.update",
    methods: ["PUT"],
    uri: "/offers/{offer}",
    wheres: { offer: ID },
    bindings: { offer: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const offer = updateOffer(ctx.db, ctx.actor, priceAuthor(ctx), Number(ctx.params.offer), ctx.body);
      ctx.flash("success", ctx.t("food.offers.saved", { presentation: offer.presentation }));
      return back(ctx);
    },
  },
  {
    name: "offers.destroy",
    methods: ["DELETE"],
    uri: "/offers/{offer}",
    wheres: { offer: ID },
    bindings: { offer: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const offer = deleteOffer(ctx.db, ctx.actor, Number(ctx.params.offer));
      ctx.flash("success", ctx.t("food.offers.deleted", { presentation: offer.presentation }));
      return back(ctx);
    },
  },
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
  {
    name: "cities.store",
    methods: ["POST"],
    uri: "/cities",
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const city = createCity(ctx.db, ctx.actor, ctx.body);
      ctx.flash("success", ctx.t("food.cities.saved", { name: city.name }));
      return back(ctx);
    },
  },
  {
    name: "cities.update",
    methods: ["PUT"],
    uri: "/cities/{city}",
    wheres: { city: ID },
    bindings: { city: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const city = updateCity(ctx.db, ctx.actor, Number(ctx.params.city), ctx.body);
      ctx.flash("success", ctx.t("food.cities.saved", { name: city.name }));
      return back(ctx);
    },
  },
  {
    name: "cities.destroy",
    methods: ["DELETE"],
    uri: "/cities/{city}",
    wheres: { city: ID },
    bindings: { city: "id" },
    access: access.can("logistics.manage"),
    handle: (ctx) => {
      const city = deleteCity(ctx.db, ctx.actor, Number(ctx.params.city));
      ctx.flash("success", ctx.t("food.cities.deleted", { name: city.name }));
      return back(ctx);
    },
  },
]);
