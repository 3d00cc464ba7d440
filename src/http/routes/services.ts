/**
 * Places and services: the Services catalogue (create, edit, delete while unused; sorted and paged on the server),
 * and the writes of which services each place offers down the mine → unit → cafe tree and of each cafe's prices with
 * their history. Those are edited on the Management page only (its rows' popover and prices dialog); the Services
 * page links there, and its former "Lugares" tab (`?tab=places`) sends people there. Every list and write goes
 * through the domain with the actor and their scope.
 */
import { can } from "../../domain/access/authorization";
import { setCafePrices } from "../../domain/places/prices";
import { setPlaceServices } from "../../domain/places/service-assignments";
import {
  createService,
  deleteService,
  listServices,
  SERVICE_TYPES,
  updateService,
  type ServiceRow,
  type ServiceType,
} from "../../domain/places/services";
import type { RequestContext } from "../context";
import { listParams, paginated, sortParams } from "../pagination";
import { recordWrites } from "../record-routes";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

const ID = "\\d+";

function serviceFilter(ctx: RequestContext) {
  const type = SERVICE_TYPES.includes(ctx.query.type as ServiceType) ? (ctx.query.type as ServiceType) : undefined;
  const status: "active" | "inactive" | undefined =
    ctx.query.status === "active" || ctx.query.status === "inactive" ? ctx.query.status : undefined;
  return { type, status };
}

function abilities(ctx: RequestContext) {
  return { manage: can(ctx.access, "services.manage"), viewPlaces: can(ctx.access, "places.view") };
}

export const servicesRoutes = defineRoutes([
  {
    name: "services.index",
    methods: ["GET"],
    uri: "/services",
    access: access.can("services.view"),
    handle: (ctx) => {
      // The places' services and prices are edited on Management: the old "Lugares" tab leads there.
      if (ctx.query.tab === "places" && can(ctx.access, "places.view")) {
        const search = listParams(ctx.query, "places_").search;
        return ctx.redirect(ctx.urlFor("management.index", { tab: "cafes", ...(search ? { search } : {}) }));
      }
      const params = listParams(ctx.query);
      const sort = sortParams(ctx.query);
      const { type, status } = serviceFilter(ctx);
      return ctx.render("services/index", {
        filters: { search: params.search, type: type ?? null, status: status ?? null, ...sort },
        types: [...SERVICE_TYPES],
        services: () =>
          paginated(
            listServices(
              ctx.db,
              { search: params.search, type, active: status === undefined ? undefined : status === "active" },
              params,
              sort,
            ),
            params,
          ),
        can: abilities(ctx),
      });
    },
  },
  {
    name: "services.export",
    methods: ["GET"],
    uri: "/services/export",
    access: access.can("services.view"),
    handle: (ctx) => {
      const { type, status } = serviceFilter(ctx);
      const filter = {
        search: listParams(ctx.query).search,
        type,
        active: status === undefined ? undefined : status === "active",
      };
      const rows = listServices(ctx.db, filter, null, sortParams(ctx.query)).rows;
      return xlsxResponse(exportFileName("services", ctx.config.timezone), [
        {
          name: ctx.t("services.title"),
          rows,
          columns: [
            { header: ctx.t("services.code"), value: (r: ServiceRow) => r.code },
            { header: ctx.t("services.name"), value: (r: ServiceRow) => r.name, width: 28 },
            { header: ctx.t("services.type"), value: (r: ServiceRow) => ctx.t(`services.types.${r.type}`), width: 16 },
            { header: ctx.t("services.description_label"), value: (r: ServiceRow) => r.description, width: 48 },
            {
              header: ctx.t("services.status"),
              value: (r: ServiceRow) => ctx.t(r.active ? "services.active" : "services.inactive"),
            },
            { header: ctx.t("services.places"), value: (r: ServiceRow) => r.places },
          ],
        },
      ]);
    },
  },
  ...recordWrites("services", "/services/{service}", access.can("services.manage"), {
    create: (ctx) => createService(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateService(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteService(ctx.db, ctx.actor, id),
    saved: (ctx, service) => ctx.t("services.saved", { code: service.code }),
    deleted: (ctx, service) => ctx.t("services.deleted", { code: service.code }),
    back: (ctx) => ctx.urlFor("services.index"),
  }),
  {
    name: "places.services.update",
    methods: ["PUT"],
    uri: "/places/{kind}/{place}/services",
    wheres: { kind: "mine|unit|cafe", place: ID },
    access: access.can("places.manage"),
    handle: (ctx) => {
      const result = setPlaceServices(
        ctx.db,
        ctx.actor,
        ctx.scope,
        String(ctx.params.kind),
        Number(ctx.params.place),
        ctx.body,
      );
      if (result.status === "needs_confirmation") {
        // Nothing changed: the dialog shows which children would lose which services and asks to confirm.
        const confirmation = {
          kind: result.place.kind,
          id: result.place.id,
          name: result.place.name,
          removed: result.removed,
          affected: result.affected,
        };
        if (ctx.wantsJson)
          return Response.json({ message: ctx.t("services.confirm_removal"), confirmation }, { status: 200 });
        ctx.flash("serviceRemoval", confirmation);
        return ctx.back(ctx.urlFor("management.index"));
      }
      if (ctx.wantsJson)
        return Response.json({ saved: true, added: result.added, removed: result.removed, affected: result.affected });
      ctx.flash(
        "success",
        ctx.t(result.affected.length ? "services.place_saved_cascade" : "services.place_saved", {
          place: result.place.name,
          count: result.affected.length,
        }),
      );
      return ctx.back(ctx.urlFor("management.index"));
    },
  },
  {
    name: "cafe_prices.update",
    methods: ["PUT"],
    uri: "/cafes/{cafe}/prices",
    wheres: { cafe: ID },
    bindings: { cafe: "id" },
    access: access.can("prices.manage"),
    handle: (ctx) => {
      const { changed } = setCafePrices(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.cafe), ctx.body);
      ctx.flash("success", ctx.t("services.prices_saved", { count: changed }));
      return ctx.back(ctx.urlFor("management.index", { tab: "cafes" }));
    },
  },
]);
