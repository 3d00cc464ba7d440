/**
 * Tills and payment methods (docs/cash.md): a cafe's tills for those with tills.manage at it, the catalogue of
 * payment methods and the methods a cafe takes for those with payment_methods.manage (granted at headquarters). The
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
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";

const ID = "\\d+";

function answer(ctx: RequestContext, status: number, body: unknown, notice: string): Response {
  if (ctx.wantsJson) return Response.json(body, { status });
  ctx.flash("success", notice);
  return ctx.back(ctx.urlFor("dinners.index"));
}

export const cashRoutes = defineRoutes([
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
