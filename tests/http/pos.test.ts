/**
 * The point of sale through the app: the sale request's contract (201 with the sale, 200 on a replayed key, 409 on a
 * key reused with other content, 422 per field, 403 and 404 outside permission and scope, the page protocol's
 * redirect with its flash), prices read on the server whatever the browser sends, garbage of every kind refused
 * per field without a 500, the ticket and its prints, scope (a cashier of one cafe neither sells at nor sees
 * another), voids and their permission, the Dinners page's props, the cafe's point-of-sale settings and the
 * keep-alive of an open till.
 *
 * One app for the file (tests/support/pos-app.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00) and Comedor Sur
 * (ALM 14.00), with cashiers at each; tests that need a diner with no sales yet register one of their own.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import {
  auditLog,
  blacklist,
  businesses,
  cafes,
  cafeServices,
  diners,
  sales,
  services,
  sessions as sessionsTable,
} from "../../db/schema";
import { sha256 } from "../../src/crypto";
import { foldText } from "../../src/shared/fold";
import { dateIn } from "../../src/shared/calendar";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { isSignedIn, signedIn, submit, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

let world: PosApp;
let today: string;
let yesterday: string;
let tomorrow: string;
/** Signed-in clients, one per person, made once. */
const clients: Record<string, Client> = {};

beforeAll(async () => {
  world = await posApp();
  today = dateIn("America/Lima");
  const day = (offset: number) => {
    const date = new Date(`${today}T12:00:00Z`);
    date.setUTCDate(date.getUTCDate() + offset);
    return date.toISOString().slice(0, 10);
  };
  yesterday = day(-1);
  tomorrow = day(1);
});

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

let keys = 0;
const newKey = () => `http-key-${++keys}-${Math.random().toString(36).slice(2, 10)}`;

let documents = 41_000_000;
/** A fresh diner of `cafe` (Norte unless named), with no sales: their DNI. */
function freshDiner(cafe: "norte" | "sur" = "norte", name = "Comensal Nuevo"): { id: number; document: string } {
  const document = String(++documents);
  const now = new Date();
  const id = world.app.db
    .insert(diners)
    .values({
      documentType: "dni",
      documentNumber: document,
      name,
      nameFolded: foldText(name),
      subdealershipId: world.w.contrata,
      cafeId: world.w[cafe],
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id;
  return { id, document };
}

/** A sale request as the page sends it: a credit lunch at Norte for `document`, today. */
function saleBody(document: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    key: newKey(),
    cafe_id: world.w.norte,
    document_number: document,
    service_date: today,
    sale_type: "credit",
    other_unit_confirmed: false,
    lines: [{ service_id: world.w.alm, quantity: 1 }],
    ...extra,
  };
}

const sell = (client: Client, body: unknown) => submitJson(client, "POST", "/sales", body);

async function sold(client: Client, body: unknown): Promise<Record<string, any>> {
  const response = await sell(client, body);
  const json = await response.json();
  expect({ status: response.status, id: typeof json.id, errors: json.errors }).toEqual({
    status: 201,
    id: "number",
    errors: undefined,
  });
  return json;
}

async function refused(client: Client, body: unknown): Promise<Record<string, string>> {
  const response = await sell(client, body);
  const json = await response.json();
  expect({ status: response.status, message: json.message }).toEqual({
    status: 422,
    message: es("validation.failed"),
  });
  return json.errors;
}

const salesCount = () => world.app.db.select().from(sales).all().length;
const ticketOf = (cafeId: number, number: number) =>
  `${world.app.db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.ticketSeries}-${String(number).padStart(8, "0")}`;

describe("sales.store, JSON", () => {
  test("fractional numbers are refused, not truncated", async () => {
    const client = await as("cajera");
    const before = salesCount();
    for (const extra of [
      { cafe_id: world.w.norte + 0.9 },
      { sale_type: "cash", lines: [{ service_id: world.w.alm, quantity: 2.7 }] },
      { lines: [{ service_id: world.w.alm + 0.5, quantity: 1 }] },
    ]) {
      const response = await sell(client, saleBody(freshDiner().document, extra));
      expect({ extra, status: response.status }).toEqual({ extra, status: 422 });
    }
    expect(salesCount()).toBe(before);
  });

  test("201 with the sale: prices from the cafe's list, IGV split, a snapshot, the cashier, an audit entry", async () => {
    const client = await as("cajera");
    const diner = freshDiner("norte", "Julia Condori");
    const before = salesCount();
    const sale = await sold(
      client,
      saleBody(diner.document, {
        sale_type: "cash",
        lines: [
          { service_id: world.w.alm, quantity: 2 },
          { service_id: world.w.des, quantity: 1 },
        ],
      }),
    );
    expect(sale).toMatchObject({
      cafeId: world.w.norte,
      cafeName: "Comedor Norte",
      receiptType: "ticket",
      saleType: "cash",
      serviceDate: today,
      dinerId: diner.id,
      dinerName: "Julia Condori",
      documentType: "dni",
      documentNumber: diner.document,
      subdealershipName: "Contrata Uno",
      subdealershipRuc: "20512345671",
      dealershipName: "Minera del Sur",
      businessName: "Catering Andino",
      businessRuc: "20100070970",
      otherUnit: false,
      priceFactorPercent: 100,
      igvRateBasisPoints: 1800,
      totalCents: 2 * 1500 + 800,
      cashierId: world.people.cajera.id,
      cashierName: "Cajera Norte",
      voided: false,
    });
    expect(sale.ticket).toBe(ticketOf(world.w.norte, sale.number));
    expect(sale.baseCents + sale.igvCents).toBe(sale.totalCents);
    expect(sale.lines).toEqual([
      expect.objectContaining({ serviceId: world.w.alm, quantity: 2, unitPriceCents: 1500, totalCents: 3000 }),
      expect.objectContaining({ serviceId: world.w.des, quantity: 1, unitPriceCents: 800, totalCents: 800 }),
    ]);
    for (const line of sale.lines) expect(line.baseCents + line.igvCents).toBe(line.totalCents);
    // 18 % included: 3000 → IGV 458, 800 → IGV 122.
    expect(sale.lines.map((l: any) => l.igvCents)).toEqual([458, 122]);
    expect(salesCount()).toBe(before + 1);
    const audit = world.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sale.created"), eq(auditLog.subjectId, sale.id)))
      .get()!;
    expect(audit.actorId).toBe(world.people.cajera.id);
    expect(JSON.parse(audit.after!)).toMatchObject({ ticket: sale.ticket, totalCents: 3800 });
  });

  test("a price, total or other-unit flag sent by the browser is ignored", async () => {
    const client = await as("cajera");
    const home = freshDiner("norte");
    const cheap = await sold(
      client,
      saleBody(home.document, {
        price_cents: 1,
        total_cents: 1,
        totalCents: 1,
        other_unit: true,
        otherUnit: true,
        price_factor_percent: 1000,
        igv_rate: 0,
        lines: [{ service_id: world.w.alm, quantity: 1, price_cents: 1, unit_price_cents: 1, total_cents: 1 }],
      }),
    );
    expect(cheap).toMatchObject({ totalCents: 1500, otherUnit: false, priceFactorPercent: 100 });
    expect(cheap.lines[0]).toMatchObject({ unitPriceCents: 1500, listPriceCents: 1500, totalCents: 1500 });

    // A diner of Sur at Norte is an other-unit sale whatever the browser says it is.
    const away = freshDiner("sur");
    const errors = await refused(client, saleBody(away.document, { other_unit: false, otherUnit: false }));
    expect(Object.keys(errors)).toEqual(["other_unit_confirmed"]);
    const confirmed = await sold(
      client,
      saleBody(away.document, { other_unit_confirmed: true, other_unit: false, total_cents: 1500 }),
    );
    expect(confirmed).toMatchObject({ otherUnit: true, priceFactorPercent: 200, totalCents: 3000 });
    expect(confirmed.lines[0]).toMatchObject({ listPriceCents: 1500, unitPriceCents: 3000 });
  });

  test("the other-unit question names the diner's home cafe and the factor", async () => {
    const client = await as("cajera");
    const away = freshDiner("sur", "Pedro Ramos");
    expect(await refused(client, saleBody(away.document))).toEqual({
      other_unit_confirmed: es("sales.other_unit_unconfirmed", { name: "Pedro Ramos", cafe: "Comedor Sur", factor: 2 }),
    });
  });

  test("the same key with the same content answers 200 with the first sale; other content is 409", async () => {
    const client = await as("cajera");
    const diner = freshDiner();
    const body = saleBody(diner.document, {
      sale_type: "cash",
      lines: [
        { service_id: world.w.alm, quantity: 2 },
        { service_id: world.w.des, quantity: 1 },
      ],
    });
    const first = await sold(client, body);
    const before = salesCount();
    const replay = await sell(client, body);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);
    // The lines in another order are the same request.
    const reordered = await sell(client, { ...body, lines: [...(body.lines as unknown[])].reverse() });
    expect(reordered.status).toBe(200);
    expect((await reordered.json()).id).toBe(first.id);
    // A price sent along does not make it another request either: it is not part of the contract.
    expect((await sell(client, { ...body, total_cents: 5 })).status).toBe(200);

    for (const other of [
      { lines: [{ service_id: world.w.alm, quantity: 3 }] },
      { sale_type: "credit", lines: [{ service_id: world.w.alm, quantity: 1 }] },
      { document_number: "40000002" },
      { other_unit_confirmed: true },
    ]) {
      const response = await sell(client, { ...body, ...other });
      expect({ other, status: response.status }).toEqual({ other, status: 409 });
      expect((await response.json()).message).toBe(es("sales.key_reused"));
    }
    // Another cashier with the same key is another request.
    const cajero = await as("cajero");
    expect((await sell(cajero, body)).status).toBe(409);
    expect(salesCount()).toBe(before);
  });

  test("a credit meal is sold once per diner, service and date; the refusal names the earlier ticket", async () => {
    const client = await as("cajera");
    const diner = freshDiner("norte", "Rosa Apaza");
    const first = await sold(client, saleBody(diner.document));
    const errors = await refused(client, saleBody(diner.document));
    expect(errors).toEqual({
      "lines.0.service_id": es("sales.credit_taken", {
        name: "Rosa Apaza",
        service: "Almuerzo (ALM)",
        ticket: first.ticket,
        cafe: "Comedor Norte",
      }),
    });
    // Not at the other cafe either, as an other-unit sale.
    const surena = await as("surena");
    const elsewhere = await refused(
      surena,
      saleBody(diner.document, { cafe_id: world.w.sur, other_unit_confirmed: true }),
    );
    expect(Object.keys(elsewhere)).toEqual(["lines.0.service_id"]);
    // Cash has no such limit; another service is another meal.
    await sold(client, saleBody(diner.document, { sale_type: "cash" }));
    await sold(client, saleBody(diner.document, { lines: [{ service_id: world.w.cen, quantity: 1 }] }));
    // A credit line is one meal.
    const other = freshDiner();
    expect(
      await refused(client, saleBody(other.document, { lines: [{ service_id: world.w.des, quantity: 2 }] })),
    ).toEqual({
      "lines.0.quantity": es("sales.credit_one_each", { service: "Desayuno (DES)" }),
    });
  });

  test("unknown, blacklisted and inactive diners are refused with the reason; a cash visitor gives a name", async () => {
    const client = await as("cajera");
    const before = salesCount();
    expect(await refused(client, saleBody("49999999"))).toEqual({
      document_number: es("sales.diner_unknown", { document: "49999999" }),
    });
    // Darío is inactive (fixture).
    expect(await refused(client, saleBody("40000004"))).toEqual({
      document_number: es("sales.diner_inactive", { name: "Darío Inactivo" }),
    });
    const barred = freshDiner("norte", "Luis Vetado");
    world.app.db
      .insert(blacklist)
      .values({
        documentType: "dni",
        documentNumber: barred.document,
        name: "Luis Vetado",
        reason: "Conducta agresiva en el comedor",
        createdAt: new Date(),
      })
      .run();
    expect(await refused(client, saleBody(barred.document))).toEqual({
      document_number: es("sales.person_barred", { name: "Luis Vetado", reason: "Conducta agresiva en el comedor" }),
    });
    // A barred visitor paying cash is refused too.
    world.app.db
      .insert(blacklist)
      .values({ documentType: "dni", documentNumber: "48888888", name: "X", reason: "Robo", createdAt: new Date() })
      .run();
    expect(await refused(client, saleBody("48888888", { sale_type: "cash", visitor_name: "Visita Vetada" }))).toEqual({
      document_number: es("sales.person_barred", { name: "Visita Vetada", reason: "Robo" }),
    });
    // A visitor cannot buy on credit.
    expect(Object.keys(await refused(client, saleBody("47777701", { visitor_name: "Visita Técnica" })))).toEqual([
      "document_number",
    ]);
    expect(salesCount()).toBe(before);
    // A cash visitor with a name is sold to.
    const visitor = await sold(client, saleBody("47777702", { sale_type: "cash", visitor_name: "  Visita Técnica " }));
    expect(visitor).toMatchObject({ dinerId: null, dinerName: "Visita Técnica", subdealershipName: null });
  });

  test("a service without a price, not offered at the cafe, or repeated is refused per line", async () => {
    const client = await as("cajera");
    const db = world.app.db;
    const now = new Date();
    const unpriced = db
      .insert(services)
      .values({ code: "REF", name: "Refrigerio", type: "snack", createdAt: now, updatedAt: now })
      .returning()
      .get().id;
    db.insert(cafeServices)
      .values({ cafeId: world.w.norte, serviceId: unpriced, priceCents: null, updatedAt: now })
      .run();
    const diner = freshDiner();
    const before = salesCount();
    expect(
      await refused(
        client,
        saleBody(diner.document, {
          sale_type: "cash",
          lines: [
            { service_id: unpriced, quantity: 1 },
            { service_id: world.w.alm, quantity: 1 },
            { service_id: world.w.alm, quantity: 1 },
            { service_id: 999_999, quantity: 1 },
          ],
        }),
      ),
    ).toEqual({
      "lines.0.service_id": es("sales.service_without_price", { service: "Refrigerio (REF)" }),
      "lines.2.service_id": es("sales.service_repeated"),
      "lines.3.service_id": es("sales.service_not_offered"),
    });
    // Sur does not offer the breakfast.
    const surena = await as("surena");
    expect(
      await refused(
        surena,
        saleBody("40000003", { cafe_id: world.w.sur, lines: [{ service_id: world.w.des, quantity: 1 }] }),
      ),
    ).toEqual({ "lines.0.service_id": es("sales.service_not_offered") });
    expect(salesCount()).toBe(before);
  });

  test("a cafe without an issuing business, or whose business has no RUC, cannot sell, with a message saying what to set", async () => {
    const db = world.app.db;
    const client = await as("root");
    const norte = db.select().from(cafes).where(eq(cafes.id, world.w.norte)).get()!;
    db.update(cafes).set({ businessId: null }).where(eq(cafes.id, world.w.norte)).run();
    try {
      expect(await refused(client, saleBody(freshDiner().document))).toEqual({
        cafe_id: es("sales.cafe_without_business", { cafe: "Comedor Norte" }),
      });
    } finally {
      db.update(cafes).set({ businessId: norte.businessId }).where(eq(cafes.id, world.w.norte)).run();
    }
    // A business without its RUC cannot issue a ticket either.
    db.update(businesses).set({ ruc: null }).where(eq(businesses.id, world.w.business)).run();
    try {
      expect(await refused(client, saleBody(freshDiner().document))).toEqual({
        cafe_id: es("sales.business_without_ruc", { business: "Catering Andino" }),
      });
    } finally {
      db.update(businesses).set({ ruc: "20100070970" }).where(eq(businesses.id, world.w.business)).run();
    }
  });

  test("an earlier date needs sales.backdate; a later date is never sold; a date must be a real one", async () => {
    const cajera = await as("cajera");
    const jefa = await as("jefa");
    const diner = freshDiner();
    expect(await refused(cajera, saleBody(diner.document, { service_date: yesterday }))).toEqual({
      service_date: es("sales.date_past_forbidden", { today }),
    });
    const backdated = await sold(jefa, saleBody(diner.document, { service_date: yesterday }));
    expect(backdated.serviceDate).toBe(yesterday);
    for (const client of [cajera, jefa])
      expect(await refused(client, saleBody(diner.document, { service_date: tomorrow }))).toEqual({
        service_date: es("sales.date_future", { today }),
      });
    for (const date of ["2026-02-30", "2026-13-01", "24/11/2026", "ayer", "", "2026-1-1"])
      expect({
        date,
        errors: Object.keys(await refused(jefa, saleBody(diner.document, { service_date: date }))),
      }).toEqual({
        date,
        errors: ["service_date"],
      });
  });

  test("garbage of every kind is refused per field, writes nothing, and never ends in a 500", async () => {
    const client = await as("cajera");
    const diner = freshDiner();
    const before = salesCount();
    const base = saleBody(diner.document);
    const line = { service_id: world.w.alm, quantity: 1 };
    // Each case: the body, and the fields its answer must name.
    const cases: [string, unknown, string[]][] = [
      ["empty", {}, ["key", "cafe_id", "service_date", "sale_type", "lines"]],
      ["cafe as text", { ...base, cafe_id: "norte" }, ["cafe_id"]],
      ["cafe negative", { ...base, cafe_id: -1 }, ["cafe_id"]],
      ["cafe null", { ...base, cafe_id: null }, ["cafe_id"]],
      ["cafe as object", { ...base, cafe_id: { id: 1 } }, ["cafe_id"]],
      ["key missing", { ...base, key: undefined }, ["key"]],
      ["key short", { ...base, key: "abc" }, ["key"]],
      ["key with spaces", { ...base, key: "una clave con espacios" }, ["key"]],
      ["key huge", { ...base, key: "k".repeat(5000) }, ["key"]],
      ["key a number too short", { ...base, key: 1234 }, ["key"]],
      ["sale type unknown", { ...base, sale_type: "gift" }, ["sale_type"]],
      ["sale type missing", { ...base, sale_type: undefined }, ["sale_type"]],
      ["date a number", { ...base, service_date: 20261124 }, ["service_date"]],
      ["confirmed as text", { ...base, other_unit_confirmed: "yes" }, ["other_unit_confirmed"]],
      ["lines missing", { ...base, lines: undefined }, ["lines"]],
      ["lines empty", { ...base, lines: [] }, ["lines"]],
      ["lines as text", { ...base, lines: "ALM" }, ["lines"]],
      ["lines as object", { ...base, lines: { 0: line } }, ["lines"]],
      ["lines too many", { ...base, lines: Array.from({ length: 21 }, () => line) }, ["lines"]],
      ["lines huge", { ...base, lines: Array.from({ length: 300 }, () => line) }, ["lines"]],
      ["line not an object", { ...base, lines: [7] }, ["lines.0"]],
      ["service as text", { ...base, lines: [{ service_id: "ALM", quantity: 1 }] }, ["lines.0.service_id"]],
      ["service missing", { ...base, lines: [{ quantity: 1 }] }, ["lines.0.service_id"]],
      ["quantity negative", { ...base, lines: [{ ...line, quantity: -3 }] }, ["lines.0.quantity"]],
      ["quantity zero", { ...base, lines: [{ ...line, quantity: 0 }] }, ["lines.0.quantity"]],
      ["quantity huge", { ...base, lines: [{ ...line, quantity: 1e12 }] }, ["lines.0.quantity"]],
      ["quantity as text", { ...base, lines: [{ ...line, quantity: "uno" }] }, ["lines.0.quantity"]],
      ["quantity missing", { ...base, lines: [{ service_id: world.w.alm }] }, ["lines.0.quantity"]],
      ["document as number array", { ...base, document_number: [40000001] }, ["document_number"]],
      ["document type unknown", { ...base, document_type: "licencia" }, ["document_type"]],
      ["document missing", { ...base, document_number: undefined }, ["document_number"]],
      ["document empty", { ...base, document_number: "" }, ["document_number"]],
      ["visitor name as object", { ...base, sale_type: "cash", visitor_name: { a: 1 } }, ["visitor_name"]],
      ["visitor name huge", { ...base, sale_type: "cash", visitor_name: "n".repeat(500) }, ["visitor_name"]],
    ];
    for (const [what, body, fields] of cases) {
      // Each case its own key, so that none is answered as a replay of another.
      const response = await sell(
        client,
        what === "empty" || "key" in fields.reduce((o, f) => ({ ...o, [f]: 1 }), {})
          ? body
          : { ...(body as object), key: newKey() },
      );
      const text = await response.text();
      let errors: Record<string, string> = {};
      try {
        errors = JSON.parse(text).errors ?? {};
      } catch {}
      expect({ what, status: response.status }).toEqual({ what, status: 422 });
      // Each named field has its message (on the field or on a part of it: `lines` or `lines.0`).
      for (const field of fields) {
        const said = Object.entries(errors).filter(([key]) => key === field || key.startsWith(`${field}.`));
        expect({
          what,
          field,
          said: said.length > 0 && said.every(([, m]) => typeof m === "string" && m !== ""),
        }).toEqual({
          what,
          field,
          said: true,
        });
      }
    }
    // Bodies that are not an object at all: the transport refuses them as a whole.
    for (const body of [null, [], "venta", 42, true, [base]]) {
      const response = await sell(client, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    // Not JSON, and a body past the size limit: refused before the sale is read.
    const broken = await client.request("/sales", {
      method: "POST",
      body: "{ not json",
      headers: { accept: "application/json", "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    // Past the transport's bounds (1000 items, the byte limit) the body is refused as a whole.
    const tooManyItems = await sell(client, { ...base, lines: Array.from({ length: 5000 }, () => line) });
    expect(tooManyItems.status).toBe(400);
    const oversized = await sell(client, { ...base, lines: Array.from({ length: 200_000 }, () => line) });
    expect([400, 413]).toContain(oversized.status);
    expect(salesCount()).toBe(before);
  });

  test("403 without sales.create; 404 at a cafe outside the scope or one that does not exist", async () => {
    const mirona = await as("mirona");
    const before = salesCount();
    const forbidden = await sell(mirona, saleBody("40000001"));
    expect(forbidden.status).toBe(403);
    const surena = await as("surena");
    // Carla is Sur's own diner; Sur's cashier cannot sell at Norte.
    expect((await sell(surena, saleBody("40000003"))).status).toBe(404);
    expect((await sell(surena, saleBody("40000003", { cafe_id: 999_999 }))).status).toBe(404);
    expect(salesCount()).toBe(before);
  });

  test("every write goes through the session and CSRF", async () => {
    const cajera = await as("cajera");
    const before = salesCount();
    const noToken = await cajera.request("/sales", {
      method: "POST",
      json: saleBody(freshDiner().document),
      headers: { accept: "application/json", "x-xsrf-token": "wrong" },
    });
    expect(noToken.status).toBe(419);
    const stranger = new Client(world.app);
    await stranger.visit("/login");
    const anonymous = await submitJson(stranger, "POST", "/sales", saleBody(freshDiner().document));
    expect(anonymous.status).toBe(401);
    expect(salesCount()).toBe(before);
  });

  test("a price changed on the price list applies to the next sale; a sale keeps the price it was sold at", async () => {
    const cajera = await as("cajera");
    const jefa = await as("jefa");
    const setPrice = async (price: string | null) => {
      const response = await submit(
        jefa,
        "PUT",
        `/cafes/${world.w.norte}/prices`,
        { prices: [{ service_id: world.w.cen, price }] },
        "/management",
      );
      expect(response.status).toBe(303);
    };
    const dinner = { sale_type: "cash", lines: [{ service_id: world.w.cen, quantity: 2 }] };
    const before = await sold(cajera, saleBody(freshDiner().document, dinner));
    expect(before.totalCents).toBe(2400);
    await setPrice("13.50");
    try {
      const after = await sold(cajera, saleBody(freshDiner().document, dinner));
      expect(after.totalCents).toBe(2700);
      expect(after.lines[0]).toMatchObject({ listPriceCents: 1350, unitPriceCents: 1350 });
      const again = await cajera.request(`/sales/${before.id}/ticket`, { headers: { accept: "application/json" } });
      expect((await again.json()).lines[0]).toMatchObject({ listPriceCents: 1200, totalCents: 2400 });
      // A price cleared on the list: the service cannot be sold.
      await setPrice(null);
      expect(await refused(cajera, saleBody(freshDiner().document, dinner))).toEqual({
        "lines.0.service_id": es("sales.service_without_price", { service: "Cena (CEN)" }),
      });
      // A cashier cannot change prices.
      const denied = await submitJson(cajera, "PUT", `/cafes/${world.w.norte}/prices`, {
        prices: [{ service_id: world.w.cen, price: "0.10" }],
      });
      expect(denied.status).toBe(403);
    } finally {
      await setPrice("12.00");
    }
  });
});

describe("sales.store, page protocol", () => {
  test("a sale redirects back with a success flash and the sale's id and ticket", async () => {
    const client = await as("cajero");
    const diner = freshDiner("norte", "Nilda Torres");
    const response = await submit(client, "POST", "/sales", saleBody(diner.document), "/dinners");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dinners");
    const row = world.app.db.select().from(sales).where(eq(sales.dinerId, diner.id)).get()!;
    const ticket = ticketOf(world.w.norte, row.number);
    const page = await visitPage(client, "/dinners");
    expect(page.flash.success).toBe(es("sales.sold", { ticket, name: "Nilda Torres" }));
    expect(page.flash.sale).toEqual({ id: row.id, ticket });
  });

  test("garbage through the page goes back with the errors per field", async () => {
    const client = await as("cajero");
    const before = salesCount();
    const response = await submit(client, "POST", "/sales", { cafe_id: "x", lines: [{ quantity: -1 }] }, "/dinners");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dinners");
    const errors = (await visitPage(client, "/dinners")).props.errors;
    expect(Object.keys(errors).sort()).toEqual(
      ["cafe_id", "key", "lines.0.quantity", "lines.0.service_id", "sale_type", "service_date"].sort(),
    );
    expect(salesCount()).toBe(before);
  });

  test("a refusal goes back with the errors per field; a reused key goes back with the form error", async () => {
    const client = await as("cajero");
    const refusedAnswer = await submit(client, "POST", "/sales", saleBody("49999998"), "/dinners");
    expect(refusedAnswer.status).toBe(302);
    expect(refusedAnswer.headers.get("location")).toBe("/dinners");
    expect((await visitPage(client, "/dinners")).props.errors).toEqual({
      document_number: es("sales.diner_unknown", { document: "49999998" }),
    });
    const body = saleBody(freshDiner().document);
    expect((await submit(client, "POST", "/sales", body, "/dinners")).status).toBe(302);
    const reused = await submit(client, "POST", "/sales", { ...body, sale_type: "cash" }, "/dinners");
    expect(reused.status).toBe(302);
    expect((await visitPage(client, "/dinners")).props.errors).toEqual({ form: es("sales.key_reused") });
  });
});

describe("the ticket and its prints", () => {
  test("the ticket view shows the sale to people of its cafe; prints are counted and a reprint is marked", async () => {
    const cajera = await as("cajera");
    const sale = await sold(cajera, saleBody(freshDiner().document));
    const json = await cajera.request(`/sales/${sale.id}/ticket`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(sale);
    const page = await visitPage(cajera, `/sales/${sale.id}/ticket?print=1`);
    expect(page.component).toBe("dinners/ticket");
    expect(page.props).toMatchObject({ sale: { id: sale.id, ticket: sale.ticket }, prints: 0, autoprint: true });
    const first = await submitJson(cajera, "POST", `/sales/${sale.id}/print`);
    expect(await first.json()).toEqual({ reprint: false });
    const second = await submitJson(cajera, "POST", `/sales/${sale.id}/print`);
    expect(await second.json()).toEqual({ reprint: true });
    expect((await visitPage(cajera, `/sales/${sale.id}/ticket`)).props).toMatchObject({ prints: 2, autoprint: false });
    const reprints = world.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sale.reprinted"), eq(auditLog.subjectId, sale.id)))
      .all();
    expect(reprints).toHaveLength(1);
  });
});

describe("scope: a cashier of one cafe neither sells at nor sees another", () => {
  test("Sur's cashier gets 404 for Norte's ticket, print and void, and the page shows only Sur", async () => {
    const cajera = await as("cajera");
    const surena = await as("surena");
    const sale = await sold(cajera, saleBody(freshDiner().document));
    expect((await surena.request(`/sales/${sale.id}/ticket`, { headers: { accept: "application/json" } })).status).toBe(
      404,
    );
    expect((await surena.visit(`/sales/${sale.id}/ticket`)).response.status).toBe(404);
    expect((await submitJson(surena, "POST", `/sales/${sale.id}/print`)).status).toBe(404);
    expect((await submitJson(surena, "POST", `/sales/${sale.id}/void`, { reason: "No es mía" })).status).toBe(404);
    expect(world.app.db.select().from(sales).where(eq(sales.id, sale.id)).get()!.voidedAt).toBeNull();

    // Asking for Norte's page opens Sur's: the only cafe of the scope, with Sur's sales only.
    const surSale = await sold(
      surena,
      saleBody("40000003", {
        cafe_id: world.w.sur,
        sale_type: "cash",
        lines: [{ service_id: world.w.alm, quantity: 1 }],
      }),
    );
    const page = await visitPage(surena, `/dinners?cafe=${world.w.norte}`);
    expect(page.props.cafes.map((c: any) => c.id)).toEqual([world.w.sur]);
    expect(page.props.pos.cafe.id).toBe(world.w.sur);
    expect(page.props.sales.rows.length).toBeGreaterThan(0);
    expect(page.props.sales.rows.every((s: any) => s.cafeId === world.w.sur)).toBe(true);
    expect(page.props.sales.rows.map((s: any) => s.id)).not.toContain(sale.id);
    expect(page.props.last.id).toBe(surSale.id);
    // Sold after Sur's sale, Norte's is still not Sur's last diner.
    const later = await sold(cajera, saleBody(freshDiner().document));
    expect((await visitPage(surena, "/dinners")).props.last.id).toBe(surSale.id);

    // A cashier of Norte sees Norte's sales, newest first.
    const norte = await visitPage(cajera, `/dinners?cafe=${world.w.norte}`);
    expect(norte.props.pos.cafe.id).toBe(world.w.norte);
    expect(norte.props.sales.rows.slice(0, 2).map((s: any) => s.id)).toEqual([later.id, sale.id]);
    expect(norte.props.last.id).toBe(later.id);
    const ids = norte.props.sales.rows.map((s: any) => s.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  test("the super-administrator chooses among every cafe; the page remembers the last one", async () => {
    const root = await as("root");
    const sur = await visitPage(root, `/dinners?cafe=${world.w.sur}`);
    expect(sur.props.cafes.map((c: any) => c.id).sort()).toEqual([world.w.norte, world.w.sur].sort());
    expect(sur.props.pos.cafe.id).toBe(world.w.sur);
    expect((await visitPage(root, "/dinners")).props.pos.cafe.id).toBe(world.w.sur);
    expect((await visitPage(root, `/dinners?cafe=${world.w.norte}`)).props.pos.cafe.id).toBe(world.w.norte);
  });

  test("the page's date: today, an earlier one only with sales.backdate, never a later one", async () => {
    const cajera = await as("cajera");
    const jefa = await as("jefa");
    expect((await visitPage(cajera, `/dinners?cafe=${world.w.norte}&date=${yesterday}`)).props.date).toBe(today);
    expect((await visitPage(jefa, `/dinners?cafe=${world.w.norte}&date=${yesterday}`)).props.date).toBe(yesterday);
    expect((await visitPage(jefa, `/dinners?cafe=${world.w.norte}&date=${tomorrow}`)).props.date).toBe(today);
    expect((await visitPage(jefa, `/dinners?cafe=${world.w.norte}&date=garbage`)).props.date).toBe(today);
    const cashierCan = (await visitPage(cajera, "/dinners")).props.can;
    expect(cashierCan).toEqual({ backdate: false, voidAny: false, manageDiners: true, managePrices: false });
    expect((await visitPage(jefa, "/dinners")).props.can).toEqual({
      backdate: true,
      voidAny: true,
      manageDiners: true,
      managePrices: true,
    });
  });

  test("the day's sales come 20 a page, newest first; the last diner served is the latest sale not voided", async () => {
    const surena = await as("surena");
    const made: Record<string, any>[] = [];
    for (let i = 0; i < 23; i++)
      made.push(
        await sold(
          surena,
          saleBody("40000003", {
            cafe_id: world.w.sur,
            sale_type: "cash",
            lines: [{ service_id: world.w.alm, quantity: 1 }],
          }),
        ),
      );
    const first = (await visitPage(surena, `/dinners?cafe=${world.w.sur}`)).props;
    const all = first.sales.total as number;
    expect(all).toBeGreaterThanOrEqual(23);
    expect(first.sales.rows).toHaveLength(20);
    expect(first.sales.rows[0].id).toBe(made.at(-1)!.id);
    const second = (await visitPage(surena, `/dinners?cafe=${world.w.sur}&page=2`)).props;
    expect(second.sales.rows).toHaveLength(all - 20);
    const ids = [...first.sales.rows, ...second.sales.rows].map((s: any) => s.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(new Set(ids).size).toBe(all);
    expect(first.last.id).toBe(made.at(-1)!.id);
    expect(
      (await submitJson(surena, "POST", `/sales/${made.at(-1)!.id}/void`, { reason: "Cobro repetido" })).status,
    ).toBe(200);
    expect((await visitPage(surena, `/dinners?cafe=${world.w.sur}`)).props.last.id).toBe(made.at(-2)!.id);
  });

  test("odd query strings open the page on the person's own cafe, never a 500", async () => {
    const surena = await as("surena");
    for (const query of [
      "cafe=abc",
      "cafe[]=1",
      "cafe=-1",
      "cafe=1e3",
      "cafe=99999999999999999999",
      "page=-5",
      "page=abc",
      "page=99999",
      "date[]=2026-01-01",
      "date=2026-02-30",
      `cafe=${world.w.norte}&cafe=${world.w.sur}`,
    ]) {
      const { response, page } = await surena.visit(`/dinners?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      expect({ query, cafe: page.props.pos.cafe.id }).toEqual({ query, cafe: world.w.sur });
    }
    for (const path of ["/sales/abc/ticket", "/sales/0/ticket", "/sales/99999999999999999999/ticket"]) {
      const response = await surena.request(path, { headers: { accept: "application/json" } });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });

  test("without sales.create the page is forbidden", async () => {
    const mirona = await as("mirona");
    expect((await mirona.visit("/dinners")).response.status).toBe(403);
  });
});

describe("voids", () => {
  test("the seller voids their own sale of today with a reason; it counts nowhere and the meal sells again", async () => {
    const cajera = await as("cajera");
    const diner = freshDiner("norte", "Elsa Mamani");
    const before = (await visitPage(cajera, `/dinners?cafe=${world.w.norte}`)).props.sales.totals;
    const sale = await sold(cajera, saleBody(diner.document));
    const during = (await visitPage(cajera, `/dinners?cafe=${world.w.norte}`)).props.sales.totals;
    expect(during).toEqual({
      sales: before.sales + 1,
      meals: before.meals + 1,
      totalCents: before.totalCents + 1500,
      voided: before.voided,
    });

    // A reason is required: missing, empty or too short.
    for (const body of [
      {},
      { reason: "" },
      { reason: "no" },
      { reason: "   " },
      { reason: "x".repeat(201) },
      { reason: ["a"] },
    ]) {
      const response = await submitJson(cajera, "POST", `/sales/${sale.id}/void`, body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
      expect(Object.keys((await response.json()).errors)).toEqual(["reason"]);
    }
    const voided = await submitJson(cajera, "POST", `/sales/${sale.id}/void`, { reason: "Error de digitación" });
    expect(voided.status).toBe(200);
    expect(await voided.json()).toMatchObject({
      id: sale.id,
      voided: true,
      voidReason: "Error de digitación",
      voidedByName: "Cajera Norte",
    });
    const after = (await visitPage(cajera, `/dinners?cafe=${world.w.norte}`)).props;
    expect(after.sales.totals).toEqual({ ...before, voided: before.voided + 1 });
    // It stays visible, marked.
    expect(after.sales.rows.find((s: any) => s.id === sale.id)).toMatchObject({ voided: true });
    // The same credit meal can be sold again, with a new number.
    const again = await sold(cajera, saleBody(diner.document));
    expect(again.number).toBeGreaterThan(sale.number);
    expect(
      world.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "sale.voided"), eq(auditLog.subjectId, sale.id)))
        .all(),
    ).toHaveLength(1);
  });

  test("someone else's sale needs sales.void_any: a cashier is refused, the cafe manager may", async () => {
    const cajera = await as("cajera");
    const cajero = await as("cajero");
    const jefa = await as("jefa");
    const sale = await sold(cajera, saleBody(freshDiner().document));
    const refusedVoid = await submitJson(cajero, "POST", `/sales/${sale.id}/void`, { reason: "Duplicada" });
    expect(refusedVoid.status).toBe(422);
    expect((await refusedVoid.json()).errors).toEqual({ reason: es("sales.void_not_yours", { ticket: sale.ticket }) });
    expect(world.app.db.select().from(sales).where(eq(sales.id, sale.id)).get()!.voidedAt).toBeNull();
    const allowed = await submitJson(jefa, "POST", `/sales/${sale.id}/void`, { reason: "Duplicada" });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ voided: true, voidedByName: "Jefa Norte" });
  });

  test("a sale of an earlier day needs sales.void_any even for its seller", async () => {
    const jefa = await as("jefa");
    const cajera = await as("cajera");
    // The cafe manager backdates a sale; a cashier's own old sale is made the same way and handed over.
    const old = await sold(jefa, saleBody(freshDiner().document, { service_date: yesterday }));
    world.app.db.update(sales).set({ cashierId: world.people.cajera.id }).where(eq(sales.id, old.id)).run();
    const late = await submitJson(cajera, "POST", `/sales/${old.id}/void`, { reason: "Tarde" });
    expect(late.status).toBe(422);
    expect((await late.json()).errors).toEqual({ reason: es("sales.void_too_late", { ticket: old.ticket }) });
    expect((await submitJson(jefa, "POST", `/sales/${old.id}/void`, { reason: "Tarde" })).status).toBe(200);
  });

  test("an already voided sale is 409 for JSON and a form error for the page; a missing one is 404", async () => {
    const cajera = await as("cajera");
    const sale = await sold(cajera, saleBody(freshDiner().document));
    expect((await submitJson(cajera, "POST", `/sales/${sale.id}/void`, { reason: "Primera vez" })).status).toBe(200);
    const again = await submitJson(cajera, "POST", `/sales/${sale.id}/void`, { reason: "Segunda vez" });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(es("sales.already_voided", { ticket: sale.ticket }));
    const page = await submit(cajera, "POST", `/sales/${sale.id}/void`, { reason: "Tercera vez" }, "/dinners");
    expect(page.status).toBe(302);
    expect((await visitPage(cajera, "/dinners")).props.errors).toEqual({
      form: es("sales.already_voided", { ticket: sale.ticket }),
    });
    expect(world.app.db.select().from(sales).where(eq(sales.id, sale.id)).get()!.voidReason).toBe("Primera vez");
    expect((await submitJson(cajera, "POST", "/sales/999999/void", { reason: "No existe" })).status).toBe(404);
  });

  test("a void through the page redirects back with its flash", async () => {
    const cajera = await as("cajera");
    const sale = await sold(cajera, saleBody(freshDiner().document));
    const response = await submit(cajera, "POST", `/sales/${sale.id}/void`, { reason: "Cliente se fue" }, "/dinners");
    expect(response.status).toBe(302);
    expect((await visitPage(cajera, "/dinners")).flash.success).toBe(es("sales.voided", { ticket: sale.ticket }));
  });
});

describe("the cafe's point-of-sale settings (dinners.settings)", () => {
  const path = () => `/dinners/cafes/${world.w.norte}/settings`;
  const windowOf = (serviceId: number) =>
    world.app.db
      .select()
      .from(cafeServices)
      .where(and(eq(cafeServices.cafeId, world.w.norte), eq(cafeServices.serviceId, serviceId)))
      .get()!;

  test("prices.manage sets windows (one may cross midnight), the series and automatic printing, audited", async () => {
    const jefa = await as("jefa");
    const response = await submitJson(jefa, "PUT", path(), {
      ticket_series: "b001",
      auto_print: true,
      windows: [
        { service_id: world.w.des, start: "04:30", end: "09:30" },
        { service_id: world.w.cen, start: "18:00", end: "02:00" },
        { service_id: world.w.alm, start: "", end: "" },
      ],
    });
    expect(response.status).toBe(204);
    expect(windowOf(world.w.des)).toMatchObject({ windowStart: 270, windowEnd: 570 });
    expect(windowOf(world.w.cen)).toMatchObject({ windowStart: 1080, windowEnd: 120 });
    expect(windowOf(world.w.alm)).toMatchObject({ windowStart: null, windowEnd: null });
    const page = await visitPage(jefa, `/dinners?cafe=${world.w.norte}`);
    expect(page.props.pos.cafe).toMatchObject({ ticketSeries: "B001", autoPrint: true });
    expect(page.props.pos.services.find((s: any) => s.id === world.w.cen)).toMatchObject({
      windowStart: "18:00",
      windowEnd: "02:00",
    });
    const audit = world.app.db.select().from(auditLog).where(eq(auditLog.action, "cafe.pos_updated")).all().at(-1)!;
    expect(audit.actorId).toBe(world.people.jefa.id);
    // A sale now takes the new series, which starts at 1.
    const sale = await sold(await as("cajera"), saleBody(freshDiner().document));
    expect(sale.ticket).toBe("B001-00000001");
    // Back to the fixture's series and windows for the rest of the file.
    const original = `T${String(world.w.norte).padStart(3, "0")}`;
    expect(
      (
        await submitJson(jefa, "PUT", path(), {
          ticket_series: original,
          auto_print: false,
          windows: [{ service_id: world.w.alm, start: "11:00", end: "15:00" }],
        })
      ).status,
    ).toBe(204);
  });

  test("bad times, an unknown service and a bad series are refused per field; nothing changes", async () => {
    const jefa = await as("jefa");
    const before = world.app.db.select().from(cafeServices).where(eq(cafeServices.cafeId, world.w.norte)).all();
    const cafeBefore = world.app.db.select().from(cafes).where(eq(cafes.id, world.w.norte)).get();
    const bad = await submitJson(jefa, "PUT", path(), {
      windows: [
        { service_id: world.w.des, start: "25:00", end: "09:30" },
        { service_id: world.w.alm, start: "11:00", end: "" },
        { service_id: world.w.cen, start: "18:00", end: "18:00" },
        { service_id: 999_999, start: "10:00", end: "11:00" },
      ],
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual({
      [`windows.${world.w.des}`]: es("sales.window_invalid"),
      [`windows.${world.w.alm}`]: es("sales.window_invalid"),
      [`windows.${world.w.cen}`]: es("sales.window_invalid"),
      "windows.999999": es("services.not_offered"),
    });
    for (const series of ["T-01", "TOOLONG", "", "T 1", "ñ01"]) {
      const response = await submitJson(jefa, "PUT", path(), { ticket_series: series });
      expect({ series, status: response.status }).toEqual({ series, status: 422 });
      expect(Object.keys((await response.json()).errors)).toEqual(["ticket_series"]);
    }
    for (const body of [{ windows: "04:30" }, { auto_print: "yes" }, { windows: [{ service_id: "x" }] }]) {
      const response = await submitJson(jefa, "PUT", path(), body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
    }
    // Sur's window is not Norte's to set: the service must be offered by this cafe (Sur offers ALM only).
    const sur = await submitJson(jefa, "PUT", `/dinners/cafes/${world.w.sur}/settings`, {
      windows: [{ service_id: world.w.alm, start: "11:00", end: "15:00" }],
    });
    expect(sur.status).toBe(404);
    expect(world.app.db.select().from(cafeServices).where(eq(cafeServices.cafeId, world.w.norte)).all()).toEqual(
      before,
    );
    expect(world.app.db.select().from(cafes).where(eq(cafes.id, world.w.norte)).get()).toEqual(cafeBefore);
  });

  test("a cashier without prices.manage is forbidden", async () => {
    const cajera = await as("cajera");
    const response = await submitJson(cajera, "PUT", path(), { auto_print: true });
    expect(response.status).toBe(403);
    expect(world.app.db.select().from(cafes).where(eq(cafes.id, world.w.norte)).get()!.autoPrint).toBe(false);
  });
});

describe("keep-alive of an open point of sale", () => {
  test("answers alive while the shift lasts; past POS_SESSION_MAX_HOURS it answers 401 and signs out", async () => {
    const client = await signedIn(world.app, world.people.cajero);
    const alive = await submitJson(client, "POST", "/dinners/keep-alive");
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ alive: true });

    // The session signed in a minute less than the limit ago: still alive.
    const hours = world.app.config.posSessionHours;
    expect(hours).toBe(14);
    const signedInAt = (ms: number) => {
      const session = world.app.sessions.load(client.cookies.get(world.app.config.sessionCookie));
      expect(session.isNew).toBe(false);
      expect(typeof session.get("_signed_in_at")).toBe("number");
      session.put("_signed_in_at", Date.now() - ms);
      world.app.sessions.save(session, { ipAddress: null, userAgent: null });
      return session.id;
    };
    signedInAt(hours * 3_600_000 - 60_000);
    expect(await (await submitJson(client, "POST", "/dinners/keep-alive")).json()).toEqual({ alive: true });

    const sessionId = signedInAt(hours * 3_600_000 + 60_000);
    // The sessions table keys a session by the hash of the cookie's id.
    const rowOf = (id: string) =>
      world.app.db
        .select()
        .from(sessionsTable)
        .where(eq(sessionsTable.id, sha256(id)))
        .get();
    expect(rowOf(sessionId)).toBeDefined();
    const expired = await submitJson(client, "POST", "/dinners/keep-alive");
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ alive: false });
    expect(rowOf(sessionId)).toBeUndefined();
    expect(await isSignedIn(client)).toBe(false);
  });

  test("each keep-alive is activity: a till idle near the session's lifetime stays signed in", async () => {
    const client = await signedIn(world.app, world.people.cajero);
    const id = sha256(client.cookies.get(world.app.config.sessionCookie)!);
    const lifetime = world.app.config.sessionLifetimeMinutes;
    const idle = (minutes: number) =>
      world.app.db
        .update(sessionsTable)
        .set({ lastActivity: Math.floor(Date.now() / 1000) - minutes * 60 })
        .where(eq(sessionsTable.id, id))
        .run();
    idle(lifetime - 5);
    expect((await submitJson(client, "POST", "/dinners/keep-alive")).status).toBe(200);
    const row = world.app.db.select().from(sessionsTable).where(eq(sessionsTable.id, id)).get()!;
    expect(row.lastActivity).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
    // Without it, a session idle past the lifetime is gone: its CSRF token with it (419, which the page also
    // answers by going to the sign-in page).
    idle(lifetime + 1);
    expect((await submitJson(client, "POST", "/dinners/keep-alive")).status).toBe(419);
    expect(await isSignedIn(client)).toBe(false);
  });

  test("a person who cannot sell gets 403", async () => {
    expect((await submitJson(await as("mirona"), "POST", "/dinners/keep-alive")).status).toBe(403);
  });

  test("the limit is the POS_SESSION_MAX_HOURS setting; a session signed in before it was recorded starts counting", async () => {
    const short = await posApp({ POS_SESSION_MAX_HOURS: "1" });
    expect(short.app.config.posSessionHours).toBe(1);
    const client = await signedIn(short.app, short.people.cajera);
    const session = () => short.app.sessions.load(client.cookies.get(short.app.config.sessionCookie));
    const stamp = (value: number | null) => {
      const current = session();
      if (value === null) current.forget("_signed_in_at");
      else current.put("_signed_in_at", value);
      short.app.sessions.save(current, { ipAddress: null, userAgent: null });
    };
    stamp(Date.now() - 59 * 60_000);
    expect((await submitJson(client, "POST", "/dinners/keep-alive")).status).toBe(200);
    // A session without the time it signed in (signed in before the point of sale) gets it now, and lives on.
    stamp(null);
    const before = Date.now();
    expect((await submitJson(client, "POST", "/dinners/keep-alive")).status).toBe(200);
    expect(session().get<number>("_signed_in_at")).toBeGreaterThanOrEqual(before);
    stamp(Date.now() - 61 * 60_000);
    expect((await submitJson(client, "POST", "/dinners/keep-alive")).status).toBe(401);
    expect(await isSignedIn(client)).toBe(false);
  });
});
