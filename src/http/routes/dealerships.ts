/**
 * Dealerships and subdealerships live on one page: the Dealerships page, the expandable dealership → subdealership
 * tree (searched, sorted and paged on the server) with its Excel export and the dialogs that create, edit and delete
 * both. The Businesses area's former "Concesionarias" and "Subconcesionarias" tabs send people there. Dealerships are
 * company-wide; the units of a subdealership go through the actor's scope.
 */
import { can } from "../../domain/access/authorization";
import {
  createDealership,
  dealershipOptions,
  deleteDealership,
  updateDealership,
  type DealershipRow,
} from "../../domain/organisation/dealerships";
import {
  createSubdealership,
  dealershipTree,
  deleteSubdealership,
  unitChoices,
  updateSubdealership,
  type SubdealershipRow,
} from "../../domain/organisation/subdealerships";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { listParams, paginated, sortParams } from "../pagination";
import { recordWrites } from "../record-routes";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const settings = (ctx: RequestContext) => ({ rucLength: ctx.config.rucLength });

/** What the dialogs need: the dealerships to choose from and the units within the actor's scope. */
function dialogProps(ctx: RequestContext) {
  return {
    dealershipOptions: () => dealershipOptions(ctx.db),
    unitChoices: () => unitChoices(ctx.db, ctx.scope),
    rucLength: ctx.config.rucLength,
    can: { manage: can(ctx.access, "dealerships.manage") },
  };
}

/** Back to the page the dialog was on, the tree page otherwise. */
const back = (ctx: RequestContext) => ctx.urlFor("dealerships.index");

function dealershipColumns(ctx: RequestContext): ExportColumn<DealershipRow>[] {
  return [
    { header: ctx.t("dealerships.name"), value: (r) => r.name, width: 36 },
    { header: ctx.t("dealerships.ruc"), value: (r) => r.ruc, width: 14 },
    { header: ctx.t("dealerships.fiscal_address"), value: (r) => r.fiscalAddress, width: 40 },
    { header: ctx.t("dealerships.legal_address"), value: (r) => r.legalAddress, width: 40 },
    { header: ctx.t("dealerships.phone"), value: (r) => r.phone, width: 16 },
    { header: ctx.t("dealerships.email"), value: (r) => r.email, width: 30 },
    { header: ctx.t("dealerships.subdealership_count"), value: (r) => r.subdealershipCount },
  ];
}

function subdealershipColumns(ctx: RequestContext): ExportColumn<SubdealershipRow>[] {
  return [
    { header: ctx.t("dealerships.name"), value: (r) => r.name, width: 36 },
    { header: ctx.t("dealerships.ruc"), value: (r) => r.ruc, width: 14 },
    { header: ctx.t("dealerships.dealership"), value: (r) => r.dealershipName, width: 36 },
    {
      header: ctx.t("dealerships.units"),
      value: (r) => r.units.map((u) => `${u.mineName} / ${u.name}`).join(", "),
      width: 50,
    },
    { header: ctx.t("dealerships.fiscal_address"), value: (r) => r.fiscalAddress, width: 40 },
    { header: ctx.t("dealerships.legal_address"), value: (r) => r.legalAddress, width: 40 },
    { header: ctx.t("dealerships.phone"), value: (r) => r.phone, width: 16 },
    { header: ctx.t("dealerships.email"), value: (r) => r.email, width: 30 },
  ];
}

/** The tree page, with the search of the page that sent people here (the Businesses area's former tabs). */
function treePage(ctx: RequestContext): Response {
  const { search } = listParams(ctx.query);
  return ctx.redirect(ctx.urlFor("dealerships.index", search ? { search } : {}));
}

export const dealershipsRoutes = defineRoutes([
  {
    name: "dealerships.index",
    methods: ["GET"],
    uri: "/dealerships",
    access: access.can("dealerships.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query, "", 10);
      const sort = sortParams(ctx.query);
      return ctx.render("dealerships/index", {
        filters: { search: params.search, ...sort },
        tree: () => paginated(dealershipTree(ctx.db, ctx.scope, { search: params.search }, params, sort), params),
        ...dialogProps(ctx),
      });
    },
  },
  {
    name: "businesses.dealerships",
    methods: ["GET"],
    uri: "/businesses/dealerships",
    access: access.can("dealerships.view"),
    handle: treePage,
  },
  {
    name: "businesses.subdealerships",
    methods: ["GET"],
    uri: "/businesses/subdealerships",
    access: access.can("dealerships.view"),
    handle: treePage,
  },
  {
    name: "dealerships.export",
    methods: ["GET"],
    uri: "/dealerships/export",
    access: access.can("dealerships.view"),
    // What the tree shows, every page of it: the dealerships found (in the tree's order) and their subdealerships.
    handle: (ctx) => {
      const { search } = listParams(ctx.query);
      const { rows } = dealershipTree(ctx.db, ctx.scope, { search }, null, sortParams(ctx.query));
      return xlsxResponse(exportFileName("dealerships", ctx.config.timezone), [
        { name: ctx.t("dealerships.title"), columns: dealershipColumns(ctx), rows },
        {
          name: ctx.t("dealerships.subdealerships_title"),
          columns: subdealershipColumns(ctx),
          rows: rows.flatMap((row) => row.subdealerships),
        },
      ]);
    },
  },
  ...recordWrites("dealerships", "/dealerships/{dealership}", access.can("dealerships.manage"), {
    create: (ctx) => createDealership(ctx.db, ctx.actor, ctx.body, settings(ctx)),
    update: (ctx, id) => updateDealership(ctx.db, ctx.actor, id, ctx.body, settings(ctx)),
    destroy: (ctx, id) => deleteDealership(ctx.db, ctx.actor, id),
    saved: (ctx, dealership) => ctx.t("dealerships.saved", { name: dealership.name }),
    deleted: (ctx, dealership) => ctx.t("dealerships.deleted", { name: dealership.name }),
    back,
  }),
  ...recordWrites("subdealerships", "/subdealerships/{subdealership}", access.can("dealerships.manage"), {
    create: (ctx) => createSubdealership(ctx.db, ctx.actor, ctx.scope, ctx.body, settings(ctx)),
    update: (ctx, id) => updateSubdealership(ctx.db, ctx.actor, ctx.scope, id, ctx.body, settings(ctx)),
    destroy: (ctx, id) => deleteSubdealership(ctx.db, ctx.actor, ctx.scope, id),
    saved: (ctx, subdealership) => ctx.t("dealerships.subdealership_saved", { name: subdealership.name }),
    deleted: (ctx, subdealership) => ctx.t("dealerships.subdealership_deleted", { name: subdealership.name }),
    back,
  }),
]);
