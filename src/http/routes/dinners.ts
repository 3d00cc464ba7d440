/**
 * The point of sale (the Dinners page) and what it calls: diners (search, register, edit, delete), sales (record,
 * void, the ticket and its prints), the cafe's point-of-sale settings (service windows, ticket series, printing)
 * and the keep-alive of an open till. Each route is thin: the domain (src/domain/sales) checks the input, the scope
 * and the rules. The sale request's contract is in docs/point-of-sale.md.
 */
import { asc, eq } from "drizzle-orm";
import { dealerships, subdealerships } from "../../../db/schema";
import { groupCommit } from "../../db";
import { can } from "../../domain/access/authorization";
import type { DomainEvent } from "../../domain/events";
import { DOCUMENT_TYPES } from "../../shared/documents";
import { isCalendarDate } from "../../shared/calendar";
import {
  createDiner,
  deleteDiner,
  listLevels,
  looksLikeDocument,
  searchDiners,
  updateDiner,
} from "../../domain/sales/diners";
import { LIMITS } from "../../domain/rate-limit";
import { pointOfSale, posCafes, setPosSettings } from "../../domain/sales/point-of-sale";
import { getSale, lastSale, printCount, salesOfDay } from "../../domain/sales/queries";
import { recordPrint, recordSale, voidSale } from "../../domain/sales/sell";
import { SIGNED_IN_AT_KEY, signOut } from "../auth";
import type { RequestContext } from "../context";
import { listParams } from "../pagination";
import { dinerImportProp } from "./diners-import";
import { access, defineRoutes } from "../routing";

const ID = "\\d+";
/** The session key of the cafe a person last sold at: the page opens on it. */
const LAST_CAFE_KEY = "pos_cafe";
/** Sales shown per page of the day's list. */
const SALES_PER_PAGE = 20;

/** The cafe the page is about: the one asked for, else the last one used, else the first of the person's cafes. */
function chosenCafe(ctx: RequestContext, cafes: { id: number }[]): number | null {
  const asked = Number(ctx.query.cafe);
  const remembered = ctx.session.get<number>(LAST_CAFE_KEY);
  for (const candidate of [asked, remembered])
    if (Number.isInteger(candidate) && cafes.some((c) => c.id === candidate)) return candidate as number;
  return cafes[0]?.id ?? null;
}

/** The subdealerships a diner may work for, with their dealership, for the New-diner dialog. */
function subdealershipOptions(ctx: RequestContext) {
  return ctx.db
    .select({ id: subdealerships.id, name: subdealerships.name, dealership: dealerships.name })
    .from(subdealerships)
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .orderBy(asc(subdealerships.name))
    .all();
}

/** The answer to a write of the point of sale: JSON for an API client, else back to the page with a notice. */
function answer(ctx: RequestContext, status: number, body: unknown, notice: string): Response {
  if (ctx.wantsJson) return Response.json(body, { status });
  ctx.flash("success", notice);
  return ctx.back(ctx.urlFor("dinners.index"));
}

export const dinnersRoutes = defineRoutes([
  {
    name: "dinners.index",
    methods: ["GET"],
    uri: "/dinners",
    access: access.can("sales.create"),
    checks: ["sales.view", "sales.backdate", "sales.void_any", "diners.manage", "prices.manage", "diners.import"],
    handle: (ctx) => {
      const cafes = posCafes(ctx.db, ctx.scope);
      const cafeId = chosenCafe(ctx, cafes);
      if (cafeId !== null && ctx.session.get<number>(LAST_CAFE_KEY) !== cafeId) ctx.session.put(LAST_CAFE_KEY, cafeId);
      const pos = cafeId === null ? null : pointOfSale(ctx.db, ctx.scope, cafeId);
      const backdate = can(ctx.access, "sales.backdate");
      const viewSales = can(ctx.access, "sales.view");
      const askedDate = typeof ctx.query.date === "string" ? ctx.query.date : "";
      // An earlier date only with sales.backdate; never a future one.
      const date =
        pos && backdate && isCalendarDate(askedDate) && askedDate <= pos.cafe.today
          ? askedDate
          : (pos?.cafe.today ?? "");
      const page = listParams(ctx.query, "", SALES_PER_PAGE);
      return ctx.render("dinners/index", {
        cafes,
        pos,
        date,
        // The day's sales of every till are for those who may see sales (sales.view), not for selling alone.
        sales: () => (pos && viewSales ? salesOfDay(ctx.db, ctx.scope, pos.cafe.id, date, page) : null),
        last: () => (pos && viewSales ? lastSale(ctx.db, ctx.scope, pos.cafe.id, date) : null),
        levels: () => listLevels(ctx.db),
        subdealerships: () => subdealershipOptions(ctx),
        documentTypes: [...DOCUMENT_TYPES],
        posSettings: {
          otherUnitFactor: ctx.config.otherUnitFactorPercent / 100,
          igvRate: ctx.config.igvRateBasisPoints / 100,
          dniLength: ctx.config.dniLength,
          keepAliveMinutes: 5,
        },
        can: {
          backdate,
          voidAny: can(ctx.access, "sales.void_any"),
          manageDiners: can(ctx.access, "diners.manage"),
          managePrices: can(ctx.access, "prices.manage"),
        },
        userId: ctx.user!.id,
        // The Excel dialog: the person's latest diner import (src/http/routes/diners-import.ts), with diners.import.
        dinerImport: () => dinerImportProp(ctx),
      });
    },
  },
  {
    name: "diners.search",
    methods: ["GET"],
    uri: "/diners/search",
    access: access.can("diners.view"),
    handle: (ctx) => {
      const query = typeof ctx.query.q === "string" ? ctx.query.q : "";
      // A document reaches beyond the person's cafes: such lookups are counted.
      if (looksLikeDocument(query))
        ctx.services.limiter.take([{ key: `diner-lookup:${ctx.user!.id}`, limit: LIMITS.dinerLookup }]);
      return Response.json(searchDiners(ctx.db, ctx.scope, query), { headers: { "cache-control": "no-store" } });
    },
  },
  {
    name: "diners.store",
    methods: ["POST"],
    uri: "/diners",
    access: access.can("diners.manage"),
    handle: (ctx) => {
      const diner = createDiner(ctx.db, ctx.actor, ctx.scope, ctx.body, ctx.config);
      return answer(ctx, 201, diner, ctx.t("diners.created", { name: diner.name }));
    },
  },
  {
    name: "diners.update",
    methods: ["PUT"],
    uri: "/diners/{diner}",
    wheres: { diner: ID },
    bindings: { diner: "id" },
    access: access.can("diners.manage"),
    handle: (ctx) => {
      const diner = updateDiner(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.diner), ctx.body, ctx.config);
      return answer(ctx, 200, diner, ctx.t("diners.updated", { name: diner.name }));
    },
  },
  {
    name: "diners.destroy",
    methods: ["DELETE"],
    uri: "/diners/{diner}",
    wheres: { diner: ID },
    bindings: { diner: "id" },
    access: access.can("diners.manage"),
    handle: (ctx) => {
      const { name } = deleteDiner(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.diner));
      if (ctx.wantsJson) return new Response(null, { status: 204 });
      ctx.flash("success", ctx.t("diners.deleted", { name }));
      return ctx.back(ctx.urlFor("dinners.index"));
    },
  },
  {
    name: "sales.store",
    methods: ["POST"],
    uri: "/sales",
    access: access.can("sales.create"),
    checks: ["sales.backdate"],
    handle: async (ctx) => {
      // Sales arriving together share one commit (groupCommit); their live events go out once it is durable.
      const held: DomainEvent[] = [];
      const { sale, replayed } = await groupCommit(ctx.db, () =>
        recordSale(
          ctx.db,
          ctx.actor,
          ctx.scope,
          ctx.body,
          ctx.config,
          { backdate: can(ctx.access, "sales.backdate") },
          { publish: (event) => held.push(event) },
        ),
      );
      for (const event of held) ctx.events.publish(event);
      if (ctx.wantsJson) return Response.json(sale, { status: replayed ? 200 : 201 });
      ctx.flash("success", ctx.t("sales.sold", { ticket: sale.ticket, name: sale.dinerName }));
      ctx.flash("sale", { id: sale.id, ticket: sale.ticket });
      return ctx.back(ctx.urlFor("dinners.index", { cafe: sale.cafeId }));
    },
  },
  {
    name: "sales.void",
    methods: ["POST"],
    uri: "/sales/{sale}/void",
    wheres: { sale: ID },
    bindings: { sale: "id" },
    access: access.can("sales.create"),
    checks: ["sales.void_any"],
    handle: (ctx) => {
      const sale = voidSale(
        ctx.db,
        ctx.actor,
        ctx.scope,
        Number(ctx.params.sale),
        ctx.body,
        { voidAny: can(ctx.access, "sales.void_any") },
        ctx.events,
      );
      return answer(ctx, 200, sale, ctx.t("sales.voided", { ticket: sale.ticket }));
    },
  },
  {
    name: "sales.ticket",
    methods: ["GET"],
    uri: "/sales/{sale}/ticket",
    wheres: { sale: ID },
    bindings: { sale: "id" },
    access: access.can("sales.view"),
    handle: (ctx) => {
      const sale = getSale(ctx.db, ctx.scope, Number(ctx.params.sale));
      if (ctx.wantsJson) return Response.json(sale);
      return ctx.render("dinners/ticket", {
        sale,
        prints: printCount(ctx.db, sale.id),
        autoprint: ctx.query.print === "1",
      });
    },
  },
  {
    name: "sales.print",
    methods: ["POST"],
    uri: "/sales/{sale}/print",
    wheres: { sale: ID },
    bindings: { sale: "id" },
    access: access.can("sales.view"),
    handle: (ctx) => {
      const { reprint } = recordPrint(ctx.db, ctx.actor, ctx.scope, Number(ctx.params.sale));
      return Response.json({ reprint });
    },
  },
  {
    name: "dinners.settings",
    methods: ["PUT"],
    uri: "/dinners/cafes/{cafe}/settings",
    wheres: { cafe: ID },
    bindings: { cafe: "id" },
    access: access.can("prices.manage"),
    handle: (ctx) => {
      const cafeId = Number(ctx.params.cafe);
      setPosSettings(ctx.db, ctx.actor, ctx.scope, cafeId, ctx.body);
      if (ctx.wantsJson) return new Response(null, { status: 204 });
      ctx.flash("success", ctx.t("dinners.settings_saved"));
      return ctx.back(ctx.urlFor("dinners.index", { cafe: cafeId }));
    },
  },
  {
    name: "dinners.keepalive",
    methods: ["POST"],
    uri: "/dinners/keep-alive",
    access: access.can("sales.create"),
    handle: (ctx) => {
      const at = ctx.session.get<number>(SIGNED_IN_AT_KEY);
      if (typeof at !== "number") ctx.session.put(SIGNED_IN_AT_KEY, Date.now());
      else if (Date.now() - at > ctx.config.posSessionHours * 3_600_000) {
        // The shift's absolute limit: the till signs in again.
        signOut(ctx);
        return Response.json({ alive: false }, { status: 401 });
      }
      return Response.json({ alive: true });
    },
  },
]);
