/**
 * Migration 0023_receipt_series on a database built at migration 0022 with sales: every number issued is kept, each
 * cafe's current series and next number move into the registry, a series sales were numbered in belongs to the cafe
 * that sold in it first (two cafes that shared one: it goes on after the highest number either took), and sales
 * after the migration take their numbers from the registry.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { cafeServices, services } from "./schema";
import { migrateDatabase, openDatabase } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import { CLI_ACTOR } from "../src/domain/audit";
import { ValidationFailed } from "../src/domain/errors";
import { setPosSettings } from "../src/domain/sales/point-of-sale";
import { recordSale } from "../src/domain/sales/sell";
import { migrationsBefore } from "./migrations-before.test-support";

const NOW = new Date("2026-11-24T15:00:00Z");

test("every number issued is kept, the series move into the registry, and sales go on from there", () => {
  const db = openDatabase(":memory:");
  const folder = migrationsBefore("0023");
  migrate(db, { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  const client = db.$client;
  // As the tables stood at 0022 (written in SQL: today's schema has no next_ticket_number). Norte and Sur of
  // Catering Andino both ended up on T001 (Sur changed its series and went on at its own counter); Este sold T003
  // under Andino, then moved to Servicios Sur and went on there; Oeste has no business; Nuevo has a series, no sales;
  // Viejo sold in X1 and moved on to T006 (its counter at 3), and Otro then took X1 without selling in it.
  client.exec(`INSERT INTO businesses (id, name, ruc) VALUES (1, 'Catering Andino', '20100070970'), (2, 'Servicios Sur', '20604382158');
    INSERT INTO mines (name) VALUES ('Mina Toquepala');
    INSERT INTO units (mine_id, name) VALUES (1, 'Unidad Central');
    INSERT INTO cafes (id, unit_id, business_id, name, time_zone) VALUES
      (1, 1, 1, 'Comedor Norte', 'America/Lima'), (2, 1, 1, 'Comedor Sur', 'America/Lima'),
      (3, 1, 2, 'Comedor Este', 'America/Lima'), (4, 1, NULL, 'Comedor Oeste', 'America/Lima'),
      (5, 1, 1, 'Comedor Nuevo', 'America/Lima'), (6, 1, 1, 'Comedor Viejo', 'America/Lima'),
      (7, 1, 1, 'Comedor Otro', 'America/Lima');
    UPDATE cafes SET ticket_series = 'T001', next_ticket_number = 4 WHERE id = 1;
    UPDATE cafes SET ticket_series = 'T001', next_ticket_number = 6 WHERE id = 2;
    UPDATE cafes SET next_ticket_number = 5 WHERE id = 3;
    UPDATE cafes SET ticket_series = 'T009' WHERE id = 5;
    UPDATE cafes SET next_ticket_number = 3 WHERE id = 6;
    UPDATE cafes SET ticket_series = 'X1' WHERE id = 7;`);
  const sale = client.prepare(
    `INSERT INTO sales (cafe_id, receipt_type, series, number, sale_type, service_date, sold_at, request_key,
       request_digest, document_type, document_number, diner_name, business_id, business_name, business_ruc, cafe_name,
       igv_rate_basis_points, base_cents, igv_cents, total_cents, cashier_name)
     VALUES (?1, 'ticket', ?2, ?3, 'cash', '2026-11-20', 1763650000000, 'key-' || ?1 || '-' || ?2 || '-' || ?3, 'x',
       'dni', '45000001', 'Visitante', ?4, 'Negocio', '20100070970', 'Comedor', 1800, 847, 153, 1000, 'Caja')`,
  );
  const sold = (cafe: number, series: string, numbers: number[], business: number) => {
    for (const n of numbers) sale.run(cafe, series, n, business);
  };
  sold(1, "T001", [1, 2], 1);
  sold(2, "T002", [1, 2], 1);
  sold(1, "T001", [3], 1);
  sold(2, "T001", [3, 4, 5], 1);
  sold(3, "T003", [1, 2], 1);
  sold(3, "T003", [3, 4], 2);
  sold(6, "X1", [1, 2], 1);
  const salesNow = () => client.query("SELECT * FROM sales ORDER BY id").all();
  const kept = salesNow();
  expect(kept).toHaveLength(14);

  migrateDatabase(db);

  expect(salesNow()).toEqual(kept);
  expect(
    client
      .query("SELECT business_id, kind, series, cafe_id, next_number FROM receipt_series ORDER BY business_id, series")
      .all(),
  ).toEqual([
    // Norte sold in T001 first: it keeps it, after the highest number Norte and Sur took in it.
    { business_id: 1, kind: "ticket", series: "T001", cafe_id: 1, next_number: 6 },
    { business_id: 1, kind: "ticket", series: "T002", cafe_id: 2, next_number: 3 },
    { business_id: 1, kind: "ticket", series: "T003", cafe_id: 3, next_number: 3 },
    { business_id: 1, kind: "ticket", series: "T006", cafe_id: 6, next_number: 3 },
    { business_id: 1, kind: "ticket", series: "T009", cafe_id: 5, next_number: 1 },
    { business_id: 1, kind: "ticket", series: "X1", cafe_id: 6, next_number: 3 },
    { business_id: 2, kind: "ticket", series: "T003", cafe_id: 3, next_number: 5 },
  ]);
  expect(client.query("SELECT id, ticket_series, boleta_series FROM cafes ORDER BY id").all()).toEqual([
    { id: 1, ticket_series: "T001", boleta_series: "" },
    { id: 2, ticket_series: "", boleta_series: "" },
    { id: 3, ticket_series: "T003", boleta_series: "" },
    { id: 4, ticket_series: "T004", boleta_series: "" },
    { id: 5, ticket_series: "T009", boleta_series: "" },
    { id: 6, ticket_series: "T006", boleta_series: "" },
    { id: 7, ticket_series: "", boleta_series: "" },
  ]);
  const columns = client.query<{ name: string }, []>("SELECT name FROM pragma_table_info('cafes')").all();
  expect(columns.map((c) => c.name)).not.toContain("next_ticket_number");
  expect(
    client.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'cafes' ORDER BY name").all(),
  ).toEqual([
    { name: "cafes_series_follow_business" },
    { name: "cafes_series_on_insert" },
    { name: "cafes_till_and_cash_on_insert" },
  ]);

  // Sales from now on: a cash lunch for a visitor at each cafe.
  const lunch = db
    .insert(services)
    .values({ code: "ALM", name: "Almuerzo", type: "lunch", createdAt: NOW, updatedAt: NOW })
    .returning()
    .get().id;
  for (const cafeId of [1, 2, 3, 5, 7])
    db.insert(cafeServices).values({ cafeId, serviceId: lunch, priceCents: 1500, updatedAt: NOW }).run();
  let keys = 0;
  const sell = (cafeId: number) =>
    recordSale(
      db,
      CLI_ACTOR,
      EVERYTHING,
      {
        key: `after-0023-${++keys}`,
        cafe_id: cafeId,
        document_number: "45000002",
        visitor_name: "Visitante Dos",
        service_date: "2026-11-24",
        sale_type: "cash",
        lines: [{ service_id: lunch, quantity: 1 }],
      },
      { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 },
      { backdate: false },
      undefined,
      NOW,
    ).sale;
  expect(sell(1).ticket).toBe("T001-00000006");
  expect(sell(3)).toMatchObject({ ticket: "T003-00000005", businessName: "Servicios Sur" });
  expect(sell(5).ticket).toBe("T009-00000001");
  // Otro named X1, which Viejo had sold in: X1 stays Viejo's.
  expect(() => sell(7)).toThrow(ValidationFailed);
  expect(() => setPosSettings(db, CLI_ACTOR, EVERYTHING, 7, { ticket_series: "X1" }, NOW)).toThrow(ValidationFailed);
  // Sur lost T001 to Norte: it sells again once it has a series, and its own T002 goes on at its number.
  expect(() => sell(2)).toThrow(ValidationFailed);
  setPosSettings(db, CLI_ACTOR, EVERYTHING, 2, { ticket_series: "T002" }, NOW);
  expect(sell(2).ticket).toBe("T002-00000003");
  // T001 stays Norte's: Sur cannot have it back.
  expect(() => setPosSettings(db, CLI_ACTOR, EVERYTHING, 2, { ticket_series: "T001" }, NOW)).toThrow(ValidationFailed);
});
