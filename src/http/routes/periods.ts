/**
 * Closing and reopening a month of sales at a cafe (src/domain/sales/periods.ts). The Sales page posts here; a
 * request that accepts JSON gets the outcome as JSON.
 */
import { closePeriod, reopenPeriod } from "../../domain/sales/periods";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";

function answer(ctx: RequestContext, status: number, body: unknown, notice: string): Response {
  if (ctx.wantsJson) return Response.json(body, { status });
  ctx.flash("success", notice);
  return ctx.back(ctx.urlFor("dashboard"));
}

export const periodsRoutes = defineRoutes([
  {
    name: "sales.periods.close",
    methods: ["POST"],
    uri: "/sales/periods",
    access: access.can("sales.close_period"),
    handle: (ctx) => {
      const closed = closePeriod(ctx.db, ctx.actor, ctx.scope, ctx.body);
      return answer(ctx, 201, closed, ctx.t("periods.closed", { month: closed.month, cafe: closed.cafeName }));
    },
  },
  {
    name: "sales.periods.reopen",
    methods: ["POST"],
    uri: "/sales/periods/reopen",
    access: access.can("sales.reopen_period"),
    handle: (ctx) => {
      reopenPeriod(ctx.db, ctx.actor, ctx.scope, ctx.body);
      const body = ctx.body as { month: string };
      return answer(ctx, 200, { reopened: true }, ctx.t("periods.reopened", { month: body.month }));
    },
  },
]);
