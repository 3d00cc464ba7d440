/**
 * The meal schedule (Menu › Programación): the page of one cafe's days over a range (`?cafe=ID&from=&to=`, a week
 * from this Monday by default, at most 62 days), a day's save (JSON: the day as saved, or 409 with the day as it is
 * now when the version sent is stale), copying days to later dates, and the dish search the page drags from. Cafe
 * data: every read and write goes through the domain with the viewer's scope, so a cafe outside it answers 404.
 * A live page reloads one day through the optional `day` prop (`?day=YYYY-MM-DD`, asked for by a partial reload).
 */
import { eq } from "drizzle-orm";
import { cafes } from "../../../db/schema";
import { can } from "../../domain/access/authorization";
import {
  copyDays,
  MAX_RANGE_DAYS,
  PublishedTargets,
  saveDay,
  scheduleDay,
  scheduleRange,
  searchDishes,
  StaleDay,
} from "../../domain/menu/schedule";
import { addDays, daysBetween, mondayOf } from "../../shared/calendar";
import { dateIn, isCalendarDate } from "../../shared/calendar";
import type { RequestContext } from "../context";
import { menuCafeChoice, menuTabs } from "../menu-pages";
import { optional } from "../page-protocol/props";
import { access, defineRoutes } from "../routing";

const ID = "[1-9]\\d*";
const DATE = "\\d{4}-\\d{2}-\\d{2}";

/** The range asked for, else the week of today at the cafe; a range too long is cut to MAX_RANGE_DAYS. */
function rangeOf(ctx: RequestContext, cafeId: number | null): { from: string; to: string; today: string } {
  const zone =
    cafeId === null
      ? "America/Lima"
      : (ctx.db.select({ zone: cafes.timeZone }).from(cafes).where(eq(cafes.id, cafeId)).get()?.zone ?? "America/Lima");
  const today = dateIn(zone);
  const askedFrom = typeof ctx.query.from === "string" && isCalendarDate(ctx.query.from) ? ctx.query.from : null;
  const askedTo = typeof ctx.query.to === "string" && isCalendarDate(ctx.query.to) ? ctx.query.to : null;
  const from = askedFrom ?? mondayOf(today);
  let to = askedTo && askedTo >= from ? askedTo : addDays(from, 6);
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) to = addDays(from, MAX_RANGE_DAYS - 1);
  return { from, to, today };
}

function routeExists(ctx: RequestContext, name: string): boolean {
  return ctx.services.routes.some((r) => r.name === name);
}

function cafeParam(ctx: RequestContext): number {
  return Number(ctx.params.cafe);
}

export const menuScheduleRoutes = defineRoutes([
  {
    name: "menu.schedule",
    methods: ["GET"],
    uri: "/menu/schedule",
    access: access.can("menu.view"),
    checks: ["menu.manage", "menu.publish"],
    handle: (ctx) => {
      const { cafes: choices, cafe } = menuCafeChoice(ctx);
      const { from, to, today } = rangeOf(ctx, cafe?.id ?? null);
      const options = { igvRate: ctx.config.igvRateBasisPoints };
      const askedDay = typeof ctx.query.day === "string" && isCalendarDate(ctx.query.day) ? ctx.query.day : null;
      const publishable = routeExists(ctx, "menu.publish");
      return ctx.render("menu/schedule", {
        tabs: menuTabs(ctx),
        cafes: choices,
        cafe,
        from,
        to,
        today,
        maxDays: MAX_RANGE_DAYS,
        schedule: () => (cafe ? scheduleRange(ctx.db, ctx.scope, cafe.id, from, to, options) : null),
        // Asked for by a live page's partial reload when someone else saved a day.
        day: optional(() => (cafe && askedDay ? scheduleDay(ctx.db, ctx.scope, cafe.id, askedDay, options) : null)),
        can: {
          manage: can(ctx.access, "menu.manage"),
          // The Publish button: only where the board's route exists and the viewer may publish.
          publish: publishable && can(ctx.access, "menu.publish"),
        },
      });
    },
  },
  {
    name: "menu.schedule.day",
    methods: ["PUT"],
    uri: "/menu/schedule/{cafe}/{date}",
    wheres: { cafe: ID, date: DATE },
    access: access.can("menu.manage"),
    handle: async (ctx) => {
      const cafeId = cafeParam(ctx);
      try {
        const day = saveDay(ctx.db, ctx.actor, ctx.scope, cafeId, ctx.params.date, ctx.body, {
          igvRate: ctx.config.igvRateBasisPoints,
          events: ctx.events,
        });
        if (ctx.wantsJson) return Response.json({ day });
        ctx.flash("success", ctx.t("menuSchedule.saved"));
        return ctx.back(ctx.urlFor("menu.schedule", { cafe: cafeId }));
      } catch (error) {
        // A stale save answers with the day as it is now, for the page to show what changed.
        if (error instanceof StaleDay && ctx.wantsJson)
          return Response.json({ message: ctx.say(error.detail), day: error.current }, { status: 409 });
        throw error;
      }
    },
  },
  {
    name: "menu.schedule.copy",
    methods: ["POST"],
    uri: "/menu/schedule/{cafe}/copy",
    wheres: { cafe: ID },
    access: access.can("menu.manage"),
    handle: async (ctx) => {
      const cafeId = cafeParam(ctx);
      try {
        const result = copyDays(ctx.db, ctx.actor, ctx.scope, cafeId, ctx.body, {
          igvRate: ctx.config.igvRateBasisPoints,
          events: ctx.events,
        });
        const notice = ctx.t("menuSchedule.copy.done", { count: result.changed });
        if (ctx.wantsJson) return Response.json({ ...result, message: notice });
        ctx.flash("success", notice);
        return ctx.back(ctx.urlFor("menu.schedule", { cafe: cafeId }));
      } catch (error) {
        // Published days among the targets: the page asks the person before sending overwrite_published.
        if (error instanceof PublishedTargets && ctx.wantsJson)
          return Response.json({ message: ctx.say(error.detail), published: error.dates }, { status: 409 });
        throw error;
      }
    },
  },
  {
    name: "menu.dishes.search",
    methods: ["GET"],
    uri: "/menu/dishes",
    access: access.can("menu.view"),
    handle: (ctx) => {
      const categoryId = Number(ctx.query.category);
      const cafeId = Number(ctx.query.cafe);
      const q = typeof ctx.query.q === "string" ? ctx.query.q.slice(0, 100) : "";
      const dishes =
        Number.isInteger(categoryId) && categoryId > 0
          ? searchDishes(
              ctx.db,
              ctx.scope,
              { categoryId, q, cafeId: Number.isInteger(cafeId) && cafeId > 0 ? cafeId : null },
              { igvRate: ctx.config.igvRateBasisPoints },
            )
          : [];
      return Response.json({ dishes }, { headers: { "cache-control": "no-store" } });
    },
  },
]);
