/**
 * The demo sales' money (docs/cash.md): every demo sale was made at its cafe's till; every cash-type one was paid,
 * the payments adding up to its total, spread over cash (some with change), Yape, Plin and card with references; the
 * demo cafes take those methods; and a demo sale's key, asked again with the request it answers, is that sale (the
 * digest is recordSale's).
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sales } from "../schema";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase } from "../../src/db";
import { cafePaymentMethodList } from "../../src/domain/cash/payment-methods";
import { EVERYTHING } from "../../src/domain/access/scope";
import { findUserByEmail } from "../../src/domain/accounts/users";
import { readSale } from "../../src/domain/sales/queries";
import { recordSale } from "../../src/domain/sales/sell";
import { runSeeders } from "./index";

test("demo sales have their till and payments, and their keys replay", async () => {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  const config = loadConfig({ DEMO_DATA: "true", NODE_ENV: "test" });
  await runSeeders(db, config);
  const q = <T>(sql: string) => db.$client.query<T, []>(sql).all();
  expect(
    q<{ n: number }>(
      "SELECT count(*) AS n FROM sales s LEFT JOIN sale_tills t ON t.sale_id = s.id WHERE t.sale_id IS NULL",
    )[0].n,
  ).toBe(0);
  expect(
    q<{ n: number }>(
      "SELECT count(*) AS n FROM sales s WHERE s.sale_type = 'cash' AND s.total_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM sale_payments p WHERE p.sale_id = s.id)",
    )[0].n,
  ).toBe(0);
  expect(
    q<{ n: number }>(
      "SELECT count(*) AS n FROM sale_payments p JOIN sales s ON s.id = p.sale_id WHERE s.sale_type = 'credit'",
    )[0].n,
  ).toBe(0);
  const methods = q<{ code: string; withChange: number; withReference: number }>(
    "SELECT method_code AS code, sum(change_cents > 0) AS withChange, sum(reference IS NOT NULL) AS withReference FROM sale_payments GROUP BY 1 ORDER BY 1",
  );
  expect(methods.map((m) => m.code)).toEqual(["card", "cash", "plin", "yape"]);
  expect(methods.find((m) => m.code === "cash")!.withChange).toBeGreaterThan(0);
  for (const m of methods.filter((m) => m.code !== "cash")) expect(m.withReference).toBeGreaterThan(0);

  const cashSale = db.select().from(sales).where(eq(sales.saleType, "cash")).limit(1).get()!;
  expect(cafePaymentMethodList(db, cashSale.cafeId).map((m) => m.code)).toEqual(["cash", "yape", "plin", "card"]);
  // The request that sale answers, asked again with its key: the same sale, nothing new.
  const view = readSale(db, cashSale.id)!;
  const cashier = findUserByEmail(db, "cajero@mesa.test")!;
  const payment = view.payments[0];
  const replay = recordSale(
    db,
    { userId: cashier.id, label: cashier.email },
    EVERYTHING,
    {
      key: cashSale.requestKey,
      cafe_id: cashSale.cafeId,
      document_type: cashSale.documentType,
      document_number: cashSale.documentNumber,
      ...(cashSale.dinerId === null ? { visitor_name: cashSale.dinerName } : {}),
      service_date: cashSale.serviceDate,
      sale_type: "cash",
      other_unit_confirmed: cashSale.otherUnit,
      lines: view.lines.map((l) => ({ service_id: l.serviceId, quantity: l.quantity })),
      payments: [
        {
          method: payment.methodCode,
          amount_cents: payment.amountCents,
          ...(payment.tenderedCents !== null ? { tendered_cents: payment.tenderedCents } : {}),
          ...(payment.reference !== null ? { reference: payment.reference } : {}),
        },
      ],
    },
    {
      dniLength: config.dniLength,
      igvRateBasisPoints: config.igvRateBasisPoints,
      otherUnitFactorPercent: config.otherUnitFactorPercent,
    },
    { backdate: true },
  );
  expect(replay.replayed).toBe(true);
  expect(replay.sale.id).toBe(cashSale.id);
});
