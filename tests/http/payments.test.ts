/**
 * Paying at the till through the app (docs/cash.md, docs/point-of-sale.md): the Dinners page offers the cafe's tills
 * and payment methods; a JSON sale with payments answers 201 with them and the change the server worked out; one
 * whose payments do not cover the total answers 422 naming the field; a retry of the key with another tender 409.
 *
 * A cafe manager registers and switches off the tills of their cafe only; whoever holds payment_methods.manage adds
 * a method and switches it on at a cafe, whose till then offers it.
 *
 * The world (tests/support/pos-app.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00), with its till "Caja 1".
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { dateIn } from "../../src/shared/calendar";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submitJson, visitPage } from "../support/requests";

let world: PosApp;
let cashier: Client;
let keys = 0;

beforeAll(async () => {
  world = await posApp();
  cashier = await signedIn(world.app, world.people.cajera);
});

const cashSale = (
  extra: Record<string, unknown>,
  key = `payments-http-${++keys}-${Math.random().toString(36).slice(2)}`,
) =>
  submitJson(cashier, "POST", "/sales", {
    key,
    cafe_id: world.w.norte,
    document_number: "40000001",
    service_date: dateIn("America/Lima"),
    sale_type: "cash",
    other_unit_confirmed: false,
    lines: [{ service_id: world.w.alm, quantity: 1 }],
    ...extra,
  });

describe("paying at the till", () => {
  test("the Dinners page offers the cafe's tills and the methods it takes", async () => {
    const page = await visitPage(cashier, `/dinners?cafe=${world.w.norte}`);
    const pos = (page.props as { pos: { tills: { name: string }[]; paymentMethods: { code: string }[] } }).pos;
    expect(pos.tills.map((t) => t.name)).toEqual(["Caja 1"]);
    expect(pos.paymentMethods.map((m) => m.code)).toEqual(["cash"]);
  });

  test("a cash sale with what was handed over answers with the change; the ticket keeps it", async () => {
    const response = await cashSale({ payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] });
    expect(response.status).toBe(201);
    const sale = (await response.json()) as { id: number; tillName: string; payments: unknown[] };
    expect(sale.tillName).toBe("Caja 1");
    expect(sale.payments).toEqual([
      {
        methodCode: "cash",
        methodName: "Efectivo",
        amountCents: 1500,
        tenderedCents: 2000,
        changeCents: 500,
        reference: null,
      },
    ]);
  });

  test("payments that do not cover the total, or a method the cafe does not take, answer 422 by field", async () => {
    const short = await cashSale({ payments: [{ method: "cash", amount_cents: 1000 }] });
    expect(short.status).toBe(422);
    expect(Object.keys(((await short.json()) as { errors: object }).errors)).toEqual(["payments"]);
    const yape = await cashSale({ payments: [{ method: "yape", amount_cents: 1500, reference: "12345678" }] });
    expect(yape.status).toBe(422);
    expect(Object.keys(((await yape.json()) as { errors: object }).errors)).toEqual(["payments.0.method"]);
  });

  test("a retry with another tender is another request: 409, never the first sale", async () => {
    const first = await cashSale(
      { payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] },
      "tender-retry-01",
    );
    expect(first.status).toBe(201);
    const again = await cashSale(
      { payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] },
      "tender-retry-01",
    );
    expect(again.status).toBe(200);
    const other = await cashSale(
      { payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 5000 }] },
      "tender-retry-01",
    );
    expect(other.status).toBe(409);
  });
});

describe("keeping tills and payment methods", () => {
  test("a cafe manager registers a till at their cafe, not at another; a cashier may not", async () => {
    const manager = await signedIn(world.app, world.people.jefa);
    const made = await submitJson(manager, "POST", `/cafes/${world.w.norte}/tills`, { name: "Barra" });
    expect(made.status).toBe(201);
    const till = (await made.json()) as { id: number; name: string; active: boolean };
    expect(till).toMatchObject({ name: "Barra", active: true });
    expect((await submitJson(manager, "POST", `/cafes/${world.w.sur}/tills`, { name: "Barra" })).status).toBe(404);
    expect((await submitJson(cashier, "POST", `/cafes/${world.w.norte}/tills`, { name: "Otra" })).status).toBe(403);
    const off = await submitJson(manager, "PUT", `/tills/${till.id}`, { name: "Barra", active: false });
    expect(off.status).toBe(200);
    expect(((await off.json()) as { active: boolean }).active).toBe(false);
    const taken = await submitJson(manager, "POST", `/cafes/${world.w.norte}/tills`, { name: "Caja 1" });
    expect(taken.status).toBe(422);
  });

  test("a payment method added and switched on at a cafe is offered by its till and takes payments", async () => {
    const root = await signedIn(world.app, world.people.root);
    const made = await submitJson(root, "POST", "/payment-methods", {
      name: "Tarjeta Niubiz",
      needs_reference: true,
      in_drawer: false,
    });
    expect(made.status).toBe(201);
    const method = (await made.json()) as { id: number; code: string };
    expect(method.code).toBe("tarjeta-niubiz");
    const all = (await (await submitJson(root, "GET", "/payment-methods")).json()) as { id: number; code: string }[];
    const cash = all.find((m) => m.code === "cash")!;
    const set = await submitJson(root, "PUT", `/cafes/${world.w.norte}/payment-methods`, {
      method_ids: [cash.id, method.id],
    });
    expect(set.status).toBe(200);
    expect((await submitJson(cashier, "GET", "/payment-methods")).status).toBe(403);
    const page = await visitPage(cashier, `/dinners?cafe=${world.w.norte}`);
    const offered = (page.props as { pos: { paymentMethods: { code: string }[] } }).pos.paymentMethods;
    expect(offered.map((m) => m.code)).toEqual(["cash", "tarjeta-niubiz"]);
    const paid = await cashSale({ payments: [{ method: "tarjeta-niubiz", amount_cents: 1500, reference: "V-0099" }] });
    expect(paid.status).toBe(201);
  });
});

describe("a cash shift through the app", () => {
  test("opened by the cashier, counted blind, seen whole by the manager, reopened only with shifts.reopen", async () => {
    const manager = await signedIn(world.app, world.people.jefa);
    const tills = (await (await submitJson(manager, "GET", `/cafes/${world.w.norte}/tills`)).json()) as {
      id: number;
      name: string;
    }[];
    const caja1 = tills.find((t) => t.name === "Caja 1")!;
    const opened = await submitJson(cashier, "POST", "/shifts", { till_id: caja1.id, opening_float_cents: 5000 });
    expect(opened.status).toBe(201);
    const shiftId = ((await opened.json()) as { shift: { id: number } }).shift.id;
    expect((await cashSale({ payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] })).status).toBe(
      201,
    );
    // Blind: the cashier does not see what the drawer should hold; the manager does.
    const blind = (await (await submitJson(cashier, "GET", `/shifts/${shiftId}`)).json()) as {
      expectedCashCents: number | null;
    };
    expect(blind.expectedCashCents).toBeNull();
    const whole = (await (await submitJson(manager, "GET", `/shifts/${shiftId}`)).json()) as {
      expectedCashCents: number;
    };
    expect(whole.expectedCashCents).toBe(6500);
    const closed = await submitJson(cashier, "POST", `/shifts/${shiftId}/close`, {
      pieces: { "5000": 1, "1000": 1, "500": 1 },
    });
    expect(closed.status).toBe(200);
    expect(((await closed.json()) as { differenceCents: number }).differenceCents).toBe(0);
    expect((await submitJson(cashier, "POST", `/shifts/${shiftId}/reopen`, { reason: "Recuento" })).status).toBe(403);
    expect((await submitJson(manager, "POST", `/shifts/${shiftId}/reopen`, { reason: "Recuento" })).status).toBe(200);
    const again = await submitJson(cashier, "POST", `/shifts/${shiftId}/close`, { pieces: { "100": 1 } });
    expect(again.status).toBe(422);
    expect(Object.keys(((await again.json()) as { errors: object }).errors)).toEqual(["note"]);
  });
});
