/**
 * Paying at the till (docs/cash.md): a cash-type sale's payments add up to its total, the server works out the
 * change, references are asked where the method needs them, the methods are the cafe's, the till is the cafe's, a
 * credit sale takes none; a refused request writes nothing, and a retry with another tender is another request.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { paymentMethods, salePayments, sales, saleTills, users } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { posWorld } from "../../../tests/support/pos";
import { EVERYTHING } from "../access/scope";
import { listAudit } from "../audit";
import { describeAuditRows } from "../audit-view";
import type { Actor } from "../audit";
import { Conflict } from "../errors";
import { refusalOf } from "../../../tests/support/errors";
import { recordSale, type SaleSettings } from "../sales/sell";
import { cafePaymentMethodList, listPaymentMethods, setCafePaymentMethods } from "./payment-methods";
import { createTill, listTills, updateTill } from "./tills";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const NOW = new Date("2026-11-24T15:00:00Z");
const CASHIER: Actor = { userId: 1, label: "caja@mesa.test" };
let keys = 0;

function setup() {
  const db = migratedDatabase();
  const w = posWorld(db);
  db.insert(users)
    .values({ id: 1, name: "Cajera Uno", email: "caja@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW })
    .run();
  const methodId = (code: string) => listPaymentMethods(db).find((m) => m.code === code)!.id;
  // Norte takes cash, Yape and card.
  setCafePaymentMethods(db, CASHIER, EVERYTHING, w.norte, {
    method_ids: [methodId("cash"), methodId("yape"), methodId("card")],
  });
  const sell = (input: Record<string, unknown>, key = `pay-${++keys}-${Math.random().toString(36).slice(2)}`) =>
    recordSale(
      db,
      CASHIER,
      EVERYTHING,
      {
        key,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: "2026-11-24",
        sale_type: "cash",
        lines: [{ service_id: w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: false },
      undefined,
      NOW,
    ).sale;
  const count = (table: typeof sales | typeof salePayments) => db.select().from(table).all().length;
  return { db, w, sell, count };
}

describe("the payments of a cash-type sale", () => {
  test("with none named, the total is paid in cash exactly, at the cafe's first till", () => {
    const { sell } = setup();
    const sale = sell({});
    expect(sale.totalCents).toBe(1500);
    expect(sale.tillName).toBe("Caja 1");
    expect(sale.payments).toEqual([
      {
        methodCode: "cash",
        methodName: "Efectivo",
        amountCents: 1500,
        tenderedCents: 1500,
        changeCents: 0,
        reference: null,
      },
    ]);
  });

  test("cash handed over: the server works out the change, and the sale reads back the same", () => {
    const { db, sell } = setup();
    const sale = sell({ payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }] });
    expect(sale.payments[0]).toMatchObject({ amountCents: 1500, tenderedCents: 2000, changeCents: 500 });
    const stored = db.select().from(salePayments).where(eq(salePayments.saleId, sale.id)).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ methodCode: "cash", inDrawer: true, tenderedCents: 2000, changeCents: 500 });
    expect(db.select().from(saleTills).where(eq(saleTills.saleId, sale.id)).get()?.tillName).toBe("Caja 1");
  });

  test("split between Yape (with its operation number) and cash; the audit says it in words", () => {
    const { db, sell } = setup();
    const sale = sell({
      payments: [
        { method: "yape", amount_cents: 1000, reference: " 98765432 " },
        { method: "cash", amount_cents: 500, tendered_cents: 1000 },
      ],
    });
    expect(sale.payments.map((p) => [p.methodCode, p.amountCents, p.changeCents, p.reference])).toEqual([
      ["yape", 1000, null, "98765432"],
      ["cash", 500, 500, null],
    ]);
    const found = listAudit(db, { scope: EVERYTHING, companyWide: true }, { page: 1, perPage: 10, locale: "es" });
    const entry = describeAuditRows(db, found.rows, { locale: "es", currency: "PEN" }).find(
      (e) => e.action === "sale.created",
    )!;
    expect(entry.changes.find((c) => c.field === "Pagos")?.after).toBe("Yape S/\u00a010.00, Efectivo S/\u00a05.00");
    expect(entry.changes.find((c) => c.field === "Caja")?.after).toBe("Caja 1");
  });

  test("each refusal says why, and nothing is written", () => {
    const { sell, count, w } = setup();
    const refused: [Record<string, unknown>, Record<string, string>][] = [
      [
        { payments: [{ method: "cash", amount_cents: 1000 }] },
        { payments: "The payments add up to S/\u00a010.00: S/\u00a05.00 short of the total of S/\u00a015.00." },
      ],
      [
        { payments: [{ method: "cash", amount_cents: 2000 }] },
        {
          payments:
            "The payments add up to S/\u00a020.00, more than the total of S/\u00a015.00: for cash, give what was handed over and Mesa works out the change.",
        },
      ],
      [
        { payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 1000 }] },
        {
          "payments.0.tendered_cents":
            "What was handed over (S/\u00a010.00) does not cover the S/\u00a015.00 of this payment.",
        },
      ],
      [
        { payments: [{ method: "yape", amount_cents: 1500 }] },
        { "payments.0.reference": "A payment by Yape needs its operation or voucher number." },
      ],
      [
        { payments: [{ method: "card", amount_cents: 1500, reference: "12" }] },
        { "payments.0.reference": "The operation number has 4 to 40 letters, digits or dashes." },
      ],
      [
        { payments: [{ method: "card", amount_cents: 1500, reference: "V-123456", tendered_cents: 2000 }] },
        { "payments.0.tendered_cents": "Only a cash payment gets change." },
      ],
      [
        { payments: [{ method: "plin", amount_cents: 1500, reference: "123456" }] },
        { "payments.0.method": "plin is not switched on at this cafe." },
      ],
      [
        { sale_type: "credit", payments: [{ method: "cash", amount_cents: 1500 }] },
        { payments: "A credit sale takes no payments: the subdealership pays for it." },
      ],
      [{ till_id: 999 }, { till_id: "That till is not an active till of this cafe: choose this device's till again." }],
    ];
    for (const [input, errors] of refused) expect(refusalOf(() => sell(input))).toEqual(errors);
    // A negative or fractional amount is not a payment.
    for (const amount of [-100, 0, 12.5])
      expect(Object.keys(refusalOf(() => sell({ payments: [{ method: "cash", amount_cents: amount }] })))).toEqual([
        "payments.0.amount_cents",
      ]);
    // The other cafe's till is not this cafe's.
    const surTill = listTills(setup().db, EVERYTHING, w.sur)[0];
    expect(Object.keys(refusalOf(() => sell({ till_id: surTill.id + 1000 })))).toEqual(["till_id"]);
    expect(count(sales)).toBe(0);
    expect(count(salePayments)).toBe(0);
  });

  test("a retry with the same tender is the same sale; with another tender it is refused (409)", () => {
    const { sell, count } = setup();
    const payments = [{ method: "cash", amount_cents: 1500, tendered_cents: 2000 }];
    const first = sell({ payments }, "retry-key-0001");
    expect(sell({ payments }, "retry-key-0001").id).toBe(first.id);
    expect(() =>
      sell({ payments: [{ method: "cash", amount_cents: 1500, tendered_cents: 5000 }] }, "retry-key-0001"),
    ).toThrow(Conflict);
    expect(count(sales)).toBe(1);
    expect(count(salePayments)).toBe(1);
  });

  test("a cafe that does not take cash needs the payments named", () => {
    const { db, w, sell } = setup();
    const yape = db.select().from(paymentMethods).where(eq(paymentMethods.code, "yape")).get()!;
    setCafePaymentMethods(db, CASHIER, EVERYTHING, w.norte, { method_ids: [yape.id] });
    expect(cafePaymentMethodList(db, w.norte).map((m) => m.code)).toEqual(["yape"]);
    expect(refusalOf(() => sell({}))).toEqual({ payments: "Say how it is paid: this cafe does not take cash." });
    expect(sell({ payments: [{ method: "yape", amount_cents: 1500, reference: "44556677" }] }).payments).toHaveLength(
      1,
    );
  });
});

describe("tills", () => {
  test("a sale is made at the till it names; a till switched off takes no sales; the last active one stays", () => {
    const { db, w, sell } = setup();
    const [caja1] = listTills(db, EVERYTHING, w.norte);
    const barra = createTill(db, CASHIER, EVERYTHING, w.norte, { name: "Barra" });
    expect(sell({ till_id: barra.id }).tillName).toBe("Barra");
    expect(refusalOf(() => createTill(db, CASHIER, EVERYTHING, w.norte, { name: "Barra" }))).toEqual({
      name: "There is already a till “Barra” at this cafe.",
    });
    updateTill(db, CASHIER, EVERYTHING, barra.id, { name: "Barra", active: false });
    expect(Object.keys(refusalOf(() => sell({ till_id: barra.id })))).toEqual(["till_id"]);
    expect(refusalOf(() => updateTill(db, CASHIER, EVERYTHING, caja1.id, { name: "Caja 1", active: false }))).toEqual({
      active: "“Caja 1” is the cafe's only active till: register another before switching it off.",
    });
    // A credit sale keeps its till too.
    expect(sell({ sale_type: "credit" }).tillName).toBe("Caja 1");
  });
});
