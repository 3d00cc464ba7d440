/**
 * Businesses area: businesses with the services they offer and the cafes they operate, their headquarters, and
 * properties with their page and printable QR label. Every table is sorted and paged on the server and exports to
 * Excel with the current search and order, within the user's scope. Every list and write goes through the domain with the actor and their scope.
 */
import { cityOptions } from "../../domain/food/cities";
import QRCode from "qrcode";
import { can } from "../../domain/access/authorization";
import {
  businessOptions,
  createBusiness,
  deleteBusiness,
  listBusinesses,
  setBusinessServices,
  updateBusiness,
  type BusinessRow,
} from "../../domain/organisation/businesses";
import {
  createHeadquarters,
  deleteHeadquarters,
  listHeadquarters,
  updateHeadquarters,
  type HeadquartersRow,
} from "../../domain/organisation/headquarters";
import {
  createProperty,
  deleteProperty,
  findProperty,
  listProperties,
  locationOptions,
  propertyCategories,
  PROPERTY_STATUSES,
  updateProperty,
  type PropertyRow,
  type PropertyStatus,
} from "../../domain/organisation/properties";
import { serviceOptions } from "../../domain/places/services";
import type { ExportColumn } from "../../domain/spreadsheets/write";
import type { RequestContext } from "../context";
import { organisationTabs } from "../organisation-tabs";
import { listParams, paginated, sortParams } from "../pagination";
import { recordWrites } from "../record-routes";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";
import { dateIn } from "../../shared/calendar";
import { solesAmount } from "../../shared/money";

const ID = "\\d+";

function statusFilter(ctx: RequestContext): PropertyStatus | undefined {
  return PROPERTY_STATUSES.includes(ctx.query.status as PropertyStatus)
    ? (ctx.query.status as PropertyStatus)
    : undefined;
}

/** The absolute address of a property's page: what its QR label opens. */
function propertyUrl(ctx: RequestContext, id: number): string {
  return new URL(ctx.urlFor("properties.show", { property: id }), ctx.config.appUrl).toString();
}

function businessColumns(ctx: RequestContext): ExportColumn<BusinessRow>[] {
  return [
    { header: ctx.t("businesses.name"), value: (r) => r.name, width: 32 },
    { header: ctx.t("businesses.ruc"), value: (r) => r.ruc, width: 14 },
    { header: ctx.t("businesses.fiscal_address"), value: (r) => r.fiscalAddress, width: 40 },
    { header: ctx.t("businesses.legal_address"), value: (r) => r.legalAddress, width: 40 },
    { header: ctx.t("businesses.email"), value: (r) => r.email, width: 28 },
    { header: ctx.t("businesses.phone"), value: (r) => r.phone, width: 16 },
    { header: ctx.t("businesses.headquarters_count"), value: (r) => r.headquarters },
    { header: ctx.t("businesses.cafes_count"), value: (r) => r.cafes },
  ];
}

function headquartersColumns(ctx: RequestContext): ExportColumn<HeadquartersRow>[] {
  return [
    { header: ctx.t("headquarters.business"), value: (r) => r.businessName, width: 32 },
    { header: ctx.t("headquarters.name"), value: (r) => r.name, width: 24 },
    { header: ctx.t("headquarters.address"), value: (r) => r.address, width: 40 },
    { header: ctx.t("headquarters.phone"), value: (r) => r.phone, width: 16 },
    { header: ctx.t("headquarters.areas"), value: (r) => r.areas },
    { header: ctx.t("headquarters.properties"), value: (r) => r.properties },
  ];
}

function propertyColumns(ctx: RequestContext): ExportColumn<PropertyRow>[] {
  return [
    { header: ctx.t("properties.code"), value: (r) => r.code, width: 14 },
    { header: ctx.t("properties.name"), value: (r) => r.name, width: 32 },
    { header: ctx.t("properties.category"), value: (r) => r.category, width: 20 },
    { header: ctx.t("properties.serial"), value: (r) => r.serial, width: 18 },
    { header: ctx.t("properties.location"), value: (r) => `${r.location.name} (${r.location.detail})`, width: 40 },
    { header: ctx.t("properties.business"), value: (r) => r.businessName, width: 28 },
    { header: ctx.t("properties.status"), value: (r) => ctx.t(`properties.statuses.${r.status}`), width: 16 },
    { header: ctx.t("properties.acquired_on"), value: (r) => r.acquiredOn, width: 14 },
    {
      header: ctx.t("properties.acquisition_value"),
      value: (r) => (r.acquisitionValueCents === null ? null : solesAmount(r.acquisitionValueCents)),
      format: "0.00",
      width: 16,
    },
    { header: ctx.t("properties.notes"), value: (r) => r.notes, width: 40 },
  ];
}

export const businessesRoutes = defineRoutes([
  // Businesses
  {
    name: "businesses.index",
    methods: ["GET"],
    uri: "/businesses",
    access: access.can("businesses.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query);
      const sort = sortParams(ctx.query);
      return ctx.render("businesses/index", {
        tabs: organisationTabs(ctx),
        filters: { search: params.search, ...sort },
        businesses: () => paginated(listBusinesses(ctx.db, ctx.scope, { search: params.search }, params, sort), params),
        serviceOptions: () => serviceOptions(ctx.db),
        rucLength: ctx.config.rucLength,
        can: {
          manage: can(ctx.access, "businesses.manage"),
          createAndDelete: can(ctx.access, "businesses.manage") && ctx.scope.all,
        },
      });
    },
  },
  {
    name: "businesses.export",
    methods: ["GET"],
    uri: "/businesses/export",
    access: access.can("businesses.view"),
    handle: (ctx) => {
      const { rows } = listBusinesses(
        ctx.db,
        ctx.scope,
        { search: listParams(ctx.query).search },
        undefined,
        sortParams(ctx.query),
      );
      return xlsxResponse(exportFileName("businesses", ctx.config.timezone), [
        { name: ctx.t("businesses.title"), columns: businessColumns(ctx), rows },
      ]);
    },
  },
  ...recordWrites("businesses", "/businesses/{business}", access.can("businesses.manage"), {
    create: (ctx) => createBusiness(ctx.db, ctx.actor, ctx.scope, ctx.body, ctx.config.rucLength),
    update: (ctx, id) => updateBusiness(ctx.db, ctx.actor, ctx.scope, id, ctx.body, ctx.config.rucLength),
    destroy: (ctx, id) => deleteBusiness(ctx.db, ctx.actor, ctx.scope, id),
    saved: (ctx, business) => ctx.t("businesses.saved", { name: business.name }),
    deleted: (ctx, business) => ctx.t("businesses.deleted", { name: business.name }),
    back: (ctx) => ctx.urlFor("businesses.index"),
  }),
  {
    name: "businesses.services.update",
    methods: ["PUT"],
    uri: "/businesses/{business}/services",
    wheres: { business: ID },
    bindings: { business: "id" },
    access: access.can("businesses.manage"),
    handle: (ctx) => {
      const { business, count } = setBusinessServices(
        ctx.db,
        ctx.actor,
        ctx.scope,
        Number(ctx.params.business),
        ctx.body,
      );
      ctx.flash("success", ctx.t("businesses.services_saved", { name: business.name, count }));
      return ctx.back(ctx.urlFor("businesses.index"));
    },
  },

  // Headquarters
  {
    name: "headquarters.index",
    methods: ["GET"],
    uri: "/businesses/headquarters",
    access: access.can("businesses.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query);
      const sort = sortParams(ctx.query);
      return ctx.render("businesses/headquarters", {
        tabs: organisationTabs(ctx),
        filters: { search: params.search, ...sort },
        headquarters: () =>
          paginated(listHeadquarters(ctx.db, ctx.scope, { search: params.search }, params, sort), params),
        businesses: () => businessOptions(ctx.db, ctx.scope),
        cities: () => cityOptions(ctx.db),
        can: { manage: can(ctx.access, "businesses.manage") },
      });
    },
  },
  {
    name: "headquarters.export",
    methods: ["GET"],
    uri: "/businesses/headquarters/export",
    access: access.can("businesses.view"),
    handle: (ctx) => {
      const { rows } = listHeadquarters(
        ctx.db,
        ctx.scope,
        { search: listParams(ctx.query).search },
        undefined,
        sortParams(ctx.query),
      );
      return xlsxResponse(exportFileName("headquarters", ctx.config.timezone), [
        { name: ctx.t("headquarters.title"), columns: headquartersColumns(ctx), rows },
      ]);
    },
  },
  ...recordWrites("headquarters", "/headquarters/{headquarters}", access.can("businesses.manage"), {
    create: (ctx) => createHeadquarters(ctx.db, ctx.actor, ctx.scope, ctx.body),
    update: (ctx, id) => updateHeadquarters(ctx.db, ctx.actor, ctx.scope, id, ctx.body),
    destroy: (ctx, id) => deleteHeadquarters(ctx.db, ctx.actor, ctx.scope, id),
    saved: (ctx, hq) => ctx.t("headquarters.saved", { name: hq.name }),
    deleted: (ctx, hq) => ctx.t("headquarters.deleted", { name: hq.name }),
    back: (ctx) => ctx.urlFor("headquarters.index"),
  }),

  // Properties
  {
    name: "properties.index",
    methods: ["GET"],
    uri: "/businesses/properties",
    access: access.can("properties.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query);
      const sort = sortParams(ctx.query);
      const status = statusFilter(ctx);
      return ctx.render("businesses/properties", {
        tabs: organisationTabs(ctx),
        filters: { search: params.search, status: status ?? null, ...sort },
        statuses: [...PROPERTY_STATUSES],
        properties: () =>
          paginated(listProperties(ctx.db, ctx.scope, { search: params.search, status }, params, sort), params),
        locations: () => locationOptions(ctx.db, ctx.scope),
        categories: () => propertyCategories(ctx.db),
        today: dateIn(ctx.config.timezone),
        can: { manage: can(ctx.access, "properties.manage") },
      });
    },
  },
  {
    name: "properties.export",
    methods: ["GET"],
    uri: "/businesses/properties/export",
    access: access.can("properties.view"),
    handle: (ctx) => {
      const { rows } = listProperties(
        ctx.db,
        ctx.scope,
        { search: listParams(ctx.query).search, status: statusFilter(ctx) },
        undefined,
        sortParams(ctx.query),
      );
      return xlsxResponse(exportFileName("properties", ctx.config.timezone), [
        { name: ctx.t("properties.title"), columns: propertyColumns(ctx), rows },
      ]);
    },
  },
  {
    name: "properties.show",
    methods: ["GET"],
    uri: "/properties/{property}",
    wheres: { property: ID },
    bindings: { property: "id" },
    access: access.can("properties.view"),
    handle: (ctx) => {
      const property = findProperty(ctx.db, ctx.scope, Number(ctx.params.property));
      const manage = can(ctx.access, "properties.manage");
      return ctx.render("properties/show", {
        property,
        // What the edit dialog needs; null for those who may not edit.
        editor: () =>
          manage
            ? {
                statuses: [...PROPERTY_STATUSES],
                locations: locationOptions(ctx.db, ctx.scope),
                categories: propertyCategories(ctx.db),
                today: dateIn(ctx.config.timezone),
              }
            : null,
      });
    },
  },
  {
    name: "properties.label",
    methods: ["GET"],
    uri: "/properties/{property}/label",
    wheres: { property: ID },
    bindings: { property: "id" },
    access: access.can("properties.view"),
    handle: async (ctx) => {
      const property = findProperty(ctx.db, ctx.scope, Number(ctx.params.property));
      const url = propertyUrl(ctx, property.id);
      // Our own SVG, made here from the property's address: the page inserts it as markup.
      const qr = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
      return ctx.render("properties/label", { property, url, qr });
    },
  },
  ...recordWrites("properties", "/properties/{property}", access.can("properties.manage"), {
    create: (ctx) => createProperty(ctx.db, ctx.actor, ctx.scope, ctx.body, ctx.config.timezone),
    update: (ctx, id) => updateProperty(ctx.db, ctx.actor, ctx.scope, id, ctx.body, ctx.config.timezone),
    destroy: (ctx, id) => deleteProperty(ctx.db, ctx.actor, ctx.scope, id),
    saved: (ctx, property) => ctx.t("properties.saved", { code: property.code }),
    deleted: (ctx, property) => ctx.t("properties.deleted", { code: property.code }),
    back: (ctx) => ctx.urlFor("properties.index"),
  }),
]);
