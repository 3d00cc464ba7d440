/**
 * The Logistics page: each headquarters within the viewer's scope as the logistics centre of its city, one at a
 * time (`?centre=<id>`, the first by default), with the cheapest current offer of each ingredient in that city
 * (searched, paged, exported); and, as the seed has them here, the New-ingredient and New-provider dialogs.
 */
import { NotFound } from "../../domain/errors";
import { cheapestOffers, logisticsCentres, type StockedIngredient } from "../../domain/food/logistics";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { foodDialogProps, offerColumns, offerSettings } from "../food-pages";
import { idParam, listParams, paginated } from "../pagination";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

/** The centres within the scope and the one asked for (the first when none is; NotFound for one outside). */
function chosenCentre(ctx: RequestContext) {
  const centres = logisticsCentres(ctx.db, ctx.scope);
  const asked = idParam(ctx.query, "centre");
  const centre = asked === undefined ? (centres[0] ?? null) : (centres.find((c) => c.id === asked) ?? null);
  if (asked !== undefined && centre === null) throw new NotFound();
  return { centres, centre };
}

function stockColumns(ctx: RequestContext): ExportColumn<StockedIngredient>[] {
  const offer = offerColumns(ctx);
  return [
    { header: ctx.t("food.logistics.category"), value: (r) => r.categoryName, width: 24 },
    ...offer.map((column) => ({ ...column, value: (r: StockedIngredient) => column.value(r.offer) })),
    { header: ctx.t("food.logistics.offers_in_city"), value: (r) => r.offersInCity },
  ];
}

export const logisticsRoutes = defineRoutes([
  {
    name: "logistics.index",
    methods: ["GET"],
    uri: "/logistics",
    access: access.can("logistics.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query, "", 20);
      const { centres, centre } = chosenCentre(ctx);
      return ctx.render("logistics/index", {
        filters: { centre: centre?.id ?? null, search: params.search },
        centres,
        stock: () =>
          centre?.cityId
            ? paginated(
                cheapestOffers(ctx.db, centre.cityId, { search: params.search }, params, offerSettings(ctx)),
                params,
              )
            : null,
        ...foodDialogProps(ctx),
      });
    },
  },
  {
    name: "logistics.export",
    methods: ["GET"],
    uri: "/logistics/export",
    access: access.can("logistics.view"),
    handle: (ctx) => {
      const { centre } = chosenCentre(ctx);
      const rows = centre?.cityId
        ? cheapestOffers(ctx.db, centre.cityId, { search: listParams(ctx.query).search }, null, offerSettings(ctx)).rows
        : [];
      const name = centre ? centre.name : ctx.t("food.logistics.title");
      return xlsxResponse(
        exportFileName(ctx.locale === "es" ? "centro-logistico" : "logistics-centre", ctx.config.timezone),
        [{ name: name.replace(/[:\\/?*[\]]/g, " ").slice(0, 31), columns: stockColumns(ctx), rows }],
      );
    },
  },
]);
