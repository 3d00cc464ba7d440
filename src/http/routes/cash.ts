/**
 * Tills and payment methods (docs/cash.md): a cafe's tills for those with tills.manage at it, the catalogue of
 * payment methods and the methods a cafe takes for those with payment_methods.manage (granted at headquarters). The
 * cashier's cash shift (shifts.open; another's with shifts.close_any, reopening with shifts.reopen). The
 * domain (src/domain/cash) checks the input, the scope and the rules; a request that accepts JSON gets the outcome as
 * JSON, the page protocol goes back with a notice.
 */
import {
  createPaymentMethod,
  listPaymentMethods,
  setCafePaymentMethods,
  updatePaymentMethod,
} from "../../domain/cash/payment-methods";
import { createTill, listTills, updateTill } from "../../domain/cash/tills";
import {
  addCashMove,
  closeShift,
  getShift,
  openShift,
  reopenShift,
  shiftSummary,
  type ShiftSummary,
} from "../../domain/cash/shifts";
import { can } from "../../domain/access/authorization";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";

const ID = "\\d+";

function answer(ctx: RequestContext, status: number, body: unknown, notice: string): Response {
  if (ctx.wantsJson) return Response.json(body, { status });
  ctx.flash("success", notice);
  return ctx.back(ctx.urlFor("dinners.index"));
}

/**
 * A shift as its reader may see it: while it is open, a cashier without shifts.close_any does not see what the
 * drawer should hold (the close is a blind count), nor the cash taken.
 */
function shiftAnswer(ctx: RequestContext, summary: ShiftSummary) {
  if (summary.shift.state !== "open" || can(ctx.access, "shifts.close_any")) return summary;
  return { ...summary, expectedCashCents: null, byMethod: summary.byMethod.filter((m) => !m.inDrawer) };
}

const shiftAbilities = (ctx: RequestContext) => ({ closeAny: can(ctx.access, "shifts.close_any") });

export const cashRoutes = defineRoutes([
  {
    name: "shifts.store",
    methods: ["POST"],
    uri: "/shifts",
    access: access.can("shifts.open"),
    handle: (ctx) => {
      const shift = openShift(ctx.db, ctx.actor, ctx.scope, ctx.body);
      return answer(
        ctx,
        201,
        shiftAnswer(ctx, shiftSummary(ctx.db, shift)),
        ctx.t("cash.shift_opened", { till: shift.tillName }),
      );
    },
  },
  {
    name: "shifts.show",
    methods: ["GET"],
    uri: "/shifts/{shift}",
    wheres: { shift: ID },
    access: access.can("shifts.open"),
    checks: ["shifts.close_any"],
    handle: (ctx) => {
      const shift = getShift(ctx.db, ctx.scope, Number(ctx.params.shift));
      return Response.json(shiftAnswer(ctx, shiftSummary(ctx.db, shift)));
    },
  },
  {
    name: "shifts.moves.store",
    methods: ["POST"],
    uri: "/shifts/{shift}/moves",
    wheres: { shift: ID },
    access: access.can("shifts.open"),
    checks: ["shifts.close_any"],
    handle: (ctx) => {
      const summary = addCashMove(
        ctx.db,
        ctx.actor,
        ctx.scope,
        Number(ctx.params.shift),
        ctx.body,
        shiftAbilities(ctx),
      );
      return answer(ctx, 201, shiftAnswer(ctx, summary), ctx.t("cash.move_saved"));
    },
  },
  {
    name: "shifts.close",
    methods: ["POST"],
    uri: "/shifts/{shift}/close",
    wheres: { shift: ID },
    access: access.can("shifts.open"),
    checks: ["shifts.close_any"],
    handle: (ctx) => {
      const summary = closeShift(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.shift), ctx.body, shiftAbilities(ctx));
      return answer(ctx, 200, summary, ctx.t("cash.shift_closed", { till: summary.shift.tillName }));
    },
  },
  {
    name: "shifts.reopen",
    methods: ["POST"],
    uri: "/shifts/{shift}/reopen",
    wheres: { shift: ID },
    access: access.can("shifts.reopen"),
    handle: (ctx) => {
      const shift = reopenShift(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.shift), ctx.body);
      return answer(ctx, 200, shiftSummary(ctx.db, shift), ctx.t("cash.shift_reopened", { till: shift.tillName }));
    },
  },
  {
    name: "tills.index",
    methods: ["GET"],
    uri: "/cafes/{cafe}/tills",
    wheres: { cafe: ID },
    access: access.can("tills.manage"),
    handle: (ctx) => Response.json(listTills(ctx.db, ctx.scope, Number(ctx.params.cafe))),
  },
  {
    name: "tills.store",
    methods: ["POST"],
    uri: "/cafes/{cafe}/tills",
    wheres: { cafe: ID },
    access: access.can("tills.manage"),
    handle: (ctx) => {
      const till = createTill(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.cafe), ctx.body);
      return answer(ctx, 201, till, ctx.t("cash.till_saved", { name: till.name }));
    },
  },
  {
    name: "tills.update",
    methods: ["PUT"],
    uri: "/tills/{till}",
    wheres: { till: ID },
    access: access.can("tills.manage"),
    handle: (ctx) => {
      const till = updateTill(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.till), ctx.body);
      return answer(ctx, 200, till, ctx.t("cash.till_saved", { name: till.name }));
    },
  },
  {
    name: "payment-methods.index",
    methods: ["GET"],
    uri: "/payment-methods",
    access: access.can("payment_methods.manage"),
    handle: (ctx) => Response.json(listPaymentMethods(ctx.db)),
  },
  {
    name: "payment-methods.store",
    methods: ["POST"],
    uri: "/payment-methods",
    access: access.can("payment_methods.manage"),
    handle: (ctx) => {
      const method = createPaymentMethod(ctx.db, ctx.actor, ctx.body);
      return answer(ctx, 201, method, ctx.t("cash.method_saved", { name: method.name }));
    },
  },
  {
    name: "payment-methods.update",
    methods: ["PUT"],
    uri: "/payment-methods/{method}",
    wheres: { method: ID },
    access: access.can("payment_methods.manage"),
    handle: (ctx) => {
      const method = updatePaymentMethod(ctx.db, ctx.actor, Number(ctx.params.method), ctx.body);
      return answer(ctx, 200, method, ctx.t("cash.method_saved", { name: method.name }));
    },
  },
  {
    name: "cafes.payment-methods",
    methods: ["PUT"],
    uri: "/cafes/{cafe}/payment-methods",
    wheres: { cafe: ID },
    access: access.can("payment_methods.manage"),
    handle: (ctx) => {
      const methods = setCafePaymentMethods(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.cafe), ctx.body);
      return answer(ctx, 200, methods, ctx.t("cash.cafe_methods_saved", { count: methods.length }));
    },
  },
]);
