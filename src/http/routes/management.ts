/**
 * Management: the mines, units and cafes tables (sorted and paged on the server; edit, delete, the services popover
 * of each row, a cafe's prices) — the one place where a place's services and prices are edited — the management
 * modal that creates mine → unit → cafe and makes the new cafe sellable (its services and prices) in one flow, and
 * each table's Excel export. Every list and write goes through src/domain/places with the actor's scope.
 */
import { can } from "../../domain/access/authorization";
import { cityOptions } from "../../domain/food/cities";
import { businessOptions } from "../../domain/organisation/businesses";
import { createSellableCafe } from "../../domain/places/new-cafe";
import {
  deleteCafe,
  deleteMine,
  deleteUnit,
  listCafes,
  listMines,
  listUnits,
  searchMines,
  searchUnits,
  updateCafe,
  updateMine,
  updateUnit,
} from "../../domain/places/places";
import { placesExport } from "../../domain/places/export";
import { cafePrices } from "../../domain/places/prices";
import { serviceOptions } from "../../domain/places/services";
import { optional } from "../page-protocol/props";
import { idParam, listParams, paginated, sortParams } from "../pagination";
import { access, defineRoutes } from "../routing";
import { importJobView } from "./places-import";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const ID = "\\d+";
const TABS = ["mines", "units", "cafes"] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: unknown): Tab {
  return TABS.includes(value as Tab) ? (value as Tab) : "cafes";
}

/** The time zones of the Americas the runtime knows, listed once (asking Intl costs a tenth of a millisecond). */
let americanZones: string[] | null = null;

/** The time zones offered for a cafe: the Americas, UTC, and the default setting. */
function timeZones(defaultZone: string): string[] {
  americanZones ??= Intl.supportedValuesOf("timeZone").filter((zone) => zone.startsWith("America/"));
  return [...new Set([defaultZone, ...americanZones, "UTC"])];
}

export const managementRoutes = defineRoutes([
  {
    name: "management.index",
    methods: ["GET"],
    uri: "/management",
    access: access.can("places.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query);
      const sort = sortParams(ctx.query);
      const tab = tabOf(ctx.query.tab);
      const profile = ctx.access;
      return ctx.render("management/index", {
        filters: { tab, search: params.search, ...sort },
        mines: () =>
          tab === "mines" ? paginated(listMines(ctx.db, ctx.scope, params.search, params, sort), params) : null,
        units: () =>
          tab === "units" ? paginated(listUnits(ctx.db, ctx.scope, params.search, params, sort), params) : null,
        cafes: () =>
          tab === "cafes" ? paginated(listCafes(ctx.db, ctx.scope, params.search, params, sort), params) : null,
        serviceOptions: () => serviceOptions(ctx.db),
        businesses: () => businessOptions(ctx.db, ctx.scope),
        timeZones: () => timeZones(ctx.config.timezone),
        defaultTimeZone: ctx.config.timezone,
        cities: () => cityOptions(ctx.db),
        // The management modal's searches: ?mine_search=… and, once a mine is chosen, ?mine=<id>&unit_search=….
        placeSearch: optional(() => {
          const mineId = idParam(ctx.query, "mine");
          const text = (name: string) =>
            typeof ctx.query[name] === "string" ? String(ctx.query[name]).slice(0, 80) : "";
          return {
            mines: searchMines(ctx.db, ctx.scope, text("mine_search")),
            units: mineId ? searchUnits(ctx.db, ctx.scope, mineId, text("unit_search")) : [],
          };
        }),
        // A cafe's prices dialog: ?prices=<cafe id>.
        cafePrices: optional(() => {
          const cafeId = idParam(ctx.query, "prices");
          return cafeId ? cafePrices(ctx.db, ctx.scope, cafeId) : null;
        }),
        // The person's latest workbook import (src/http/routes/places-import.ts), until they close it.
        importJob: () => importJobView(ctx),
        can: {
          manage: can(profile, "places.manage"),
          managePrices: can(profile, "prices.manage"),
          allPlaces: ctx.scope.all,
        },
      });
    },
  },
  {
    name: "management.export",
    methods: ["GET"],
    uri: "/management/export/{table}",
    wheres: { table: "mines|units|cafes" },
    access: access.can("places.view"),
    // The places workbook the import reads (src/domain/places/export.ts), so an export imports back.
    handle: (ctx) => {
      const table = tabOf(ctx.params.table);
      const sheets = placesExport(ctx.db, ctx.scope, ctx.locale, table, listParams(ctx.query).search);
      return xlsxResponse(exportFileName(table, ctx.config.timezone), sheets);
    },
  },
  {
    name: "management.store",
    methods: ["POST"],
    uri: "/management/places",
    access: access.can("places.manage"),
    handle: (ctx) => {
      const created = createSellableCafe(ctx.db, ctx.actor, ctx.scope, ctx.body, {
        timeZone: ctx.config.timezone,
        canSetPrices: can(ctx.access, "prices.manage"),
      });
      const path = [created.mine.name, created.unit?.name, created.cafe?.name].filter(Boolean).join(" › ");
      const offered = created.services.offered;
      ctx.flash(
        "success",
        offered
          ? ctx.t("management.created_sellable", { path, count: offered, priced: created.services.priced })
          : ctx.t("management.created", { path }),
      );
      const tab = created.cafe ? "cafes" : created.unit ? "units" : "mines";
      return ctx.redirect(ctx.urlFor("management.index", { tab }));
    },
  },
  {
    name: "mines.update",
    methods: ["PUT"],
    uri: "/mines/{mine}",
    wheres: { mine: ID },
    bindings: { mine: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const mine = updateMine(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.mine), ctx.body);
      ctx.flash("success", ctx.t("management.saved", { name: mine.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "mines" }));
    },
  },
  {
    name: "mines.destroy",
    methods: ["DELETE"],
    uri: "/mines/{mine}",
    wheres: { mine: ID },
    bindings: { mine: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const mine = deleteMine(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.mine));
      ctx.flash("success", ctx.t("management.deleted", { name: mine.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "mines" }));
    },
  },
  {
    name: "units.update",
    methods: ["PUT"],
    uri: "/units/{unit}",
    wheres: { unit: ID },
    bindings: { unit: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const unit = updateUnit(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.unit), ctx.body);
      ctx.flash("success", ctx.t("management.saved", { name: unit.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "units" }));
    },
  },
  {
    name: "units.destroy",
    methods: ["DELETE"],
    uri: "/units/{unit}",
    wheres: { unit: ID },
    bindings: { unit: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const unit = deleteUnit(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.unit));
      ctx.flash("success", ctx.t("management.deleted", { name: unit.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "units" }));
    },
  },
  {
    name: "cafes.update",
    methods: ["PUT"],
    uri: "/cafes/{cafe}",
    wheres: { cafe: ID },
    bindings: { cafe: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const cafe = updateCafe(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.cafe), ctx.body, {
        timeZone: ctx.config.timezone,
      });
      ctx.flash("success", ctx.t("management.saved", { name: cafe.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "cafes" }));
    },
  },
  {
    name: "cafes.destroy",
    methods: ["DELETE"],
    uri: "/cafes/{cafe}",
    wheres: { cafe: ID },
    bindings: { cafe: "id" },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const cafe = deleteCafe(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.cafe));
      ctx.flash("success", ctx.t("management.deleted", { name: cafe.name }));
      return ctx.back(ctx.urlFor("management.index", { tab: "cafes" }));
    },
  },
]);
