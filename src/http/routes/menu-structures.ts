/**
 * Menu structures (the Menu area's first page) and a cafe's menu settings: the page of one cafe's structures, a
 * service at a time (`?cafe=ID&service=ID`), the writes of a structure (save, delete, copy to other cafes of the
 * viewer's scope) and of the cafe's default level and board language. Cafe data: every read and write goes through
 * the domain with the viewer's scope, so a cafe outside it answers 404.
 */
import { can } from "../../domain/access/authorization";
import { cafeMenuSettings, levelOptions, saveCafeMenuSettings } from "../../domain/menu/cafe-menu-settings";
import {
  copyStructure,
  copyTargets,
  deleteStructure,
  saveStructure,
  structureCategoryOptions,
  structuresOfCafe,
} from "../../domain/menu/structures";
import type { RequestContext } from "../context";
import { menuCafeChoice, menuTabs } from "../menu-pages";
import { access, defineRoutes } from "../routing";

const ID = "\\d+";

function backToPage(ctx: RequestContext, cafeId: number, serviceId?: number): Response {
  return ctx.redirect(ctx.urlFor("menu.structures", { cafe: cafeId, ...(serviceId ? { service: serviceId } : {}) }));
}

export const menuStructuresRoutes = defineRoutes([
  {
    name: "menu.structures",
    methods: ["GET"],
    uri: "/menu/structures",
    access: access.can("menu.view"),
    checks: ["menu.manage"],
    handle: (ctx) => {
      const { cafes, cafe } = menuCafeChoice(ctx);
      const igvRate = ctx.config.igvRateBasisPoints;
      const structures = cafe ? structuresOfCafe(ctx.db, cafe.id, { igvRate }) : [];
      const asked = Number(ctx.query.service);
      const current = structures.find((s) => s.service.id === asked) ?? structures[0] ?? null;
      const manage = can(ctx.access, "menu.manage");
      return ctx.render("menu/structures", {
        tabs: menuTabs(ctx),
        cafes,
        cafe,
        structures,
        serviceId: current?.service.id ?? null,
        categories: structureCategoryOptions(ctx.db),
        menuSettings: cafe ? cafeMenuSettings(ctx.db, cafe.id) : null,
        levels: levelOptions(ctx.db),
        copyTargets:
          cafe && current && manage
            ? copyTargets(ctx.db, cafes, cafe.id, current.service.id).map(({ id, path }) => ({ id, path }))
            : [],
        igvRate,
        can: { manage },
      });
    },
  },
  {
    name: "menu.structures.update",
    methods: ["PUT"],
    uri: "/menu/structures/{cafe}/{service}",
    wheres: { cafe: ID, service: ID },
    access: access.can("menu.manage"),
    handle: (ctx) => {
      const cafeId = Number(ctx.params.cafe);
      const serviceId = Number(ctx.params.service);
      const saved = saveStructure(ctx.db, ctx.actor, ctx.scope, cafeId, serviceId, ctx.body, {
        igvRate: ctx.config.igvRateBasisPoints,
      });
      if (ctx.wantsJson) return Response.json({ structure: saved });
      ctx.flash("success", ctx.t("menu.structures.saved", { service: saved.service.name }));
      return backToPage(ctx, cafeId, serviceId);
    },
  },
  {
    name: "menu.structures.destroy",
    methods: ["DELETE"],
    uri: "/menu/structures/{cafe}/{service}",
    wheres: { cafe: ID, service: ID },
    access: access.can("menu.manage"),
    handle: (ctx) => {
      const cafeId = Number(ctx.params.cafe);
      const serviceId = Number(ctx.params.service);
      const { service } = deleteStructure(ctx.db, ctx.actor, ctx.scope, cafeId, serviceId);
      ctx.flash("success", ctx.t("menu.structures.deleted", { service: service.name }));
      return backToPage(ctx, cafeId, serviceId);
    },
  },
  {
    name: "menu.structures.copy",
    methods: ["POST"],
    uri: "/menu/structures/{cafe}/{service}/copy",
    wheres: { cafe: ID, service: ID },
    access: access.can("menu.manage"),
    handle: (ctx) => {
      const cafeId = Number(ctx.params.cafe);
      const serviceId = Number(ctx.params.service);
      const { copied } = copyStructure(ctx.db, ctx.actor, ctx.scope, cafeId, serviceId, ctx.body);
      ctx.flash("success", ctx.t("menu.structures.copied", { count: copied }));
      return backToPage(ctx, cafeId, serviceId);
    },
  },
  {
    name: "menu.settings.update",
    methods: ["PUT"],
    uri: "/menu/settings/{cafe}",
    wheres: { cafe: ID },
    bindings: { cafe: "id" },
    access: access.can("menu.manage"),
    handle: (ctx) => {
      const cafeId = Number(ctx.params.cafe);
      saveCafeMenuSettings(ctx.db, ctx.actor, ctx.scope, cafeId, ctx.body);
      ctx.flash("success", ctx.t("menu.settings.saved"));
      return ctx.back(ctx.urlFor("menu.structures", { cafe: cafeId }));
    },
  },
]);
