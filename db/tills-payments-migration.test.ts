/**
 * Migration 0027_tills_and_payments on a database built at migration 0026 with cafes and sales: every cafe gets its
 * till "Caja 1" and takes cash, a cafe made afterwards too, the built-in payment methods are there, and `sales`
 * keeps its daily figures' triggers (the new facts live in tables of their own, `sales` is not rebuilt).
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { migrateDatabase, openDatabase } from "../src/db";
import { migrationsBefore } from "./migrations-before.test-support";

test("every cafe, old or new, has a till and takes cash; the sales triggers stay", () => {
  const db = openDatabase(":memory:");
  const folder = migrationsBefore("0027");
  migrate(db, { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  const client = db.$client;
  client.exec(`INSERT INTO businesses (id, name, ruc) VALUES (1, 'Catering Andino', '20100070970');
    INSERT INTO mines (name) VALUES ('Mina Toquepala');
    INSERT INTO units (mine_id, name) VALUES (1, 'Unidad Central');
    INSERT INTO cafes (id, unit_id, business_id, name) VALUES (1, 1, 1, 'Comedor Norte'), (2, 1, 1, 'Comedor Sur');`);
  const salesTriggers = () =>
    client
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('sales', 'sale_lines') ORDER BY name",
      )
      .all()
      .map((r) => r.name);
  const before = salesTriggers();
  expect(before.length).toBeGreaterThan(0);

  migrateDatabase(db);
  expect(salesTriggers()).toEqual(before);
  const tillsOf = () =>
    client.query<{ cafe: number; name: string }, []>("SELECT cafe_id AS cafe, name FROM tills ORDER BY cafe_id").all();
  const cashAt = () =>
    client
      .query<{ cafe: number }, []>(
        "SELECT c.cafe_id AS cafe FROM cafe_payment_methods c JOIN payment_methods m ON m.id = c.method_id WHERE m.code = 'cash' ORDER BY c.cafe_id",
      )
      .all()
      .map((r) => r.cafe);
  expect(tillsOf()).toEqual([
    { cafe: 1, name: "Caja 1" },
    { cafe: 2, name: "Caja 1" },
  ]);
  expect(cashAt()).toEqual([1, 2]);
  expect(
    client
      .query<{ code: string }, []>("SELECT code FROM payment_methods ORDER BY sort_order")
      .all()
      .map((r) => r.code),
  ).toEqual(["cash", "yape", "plin", "card", "transfer"]);

  client.exec("INSERT INTO cafes (id, unit_id, business_id, name) VALUES (3, 1, 1, 'Comedor Nuevo')");
  expect(tillsOf().at(-1)).toEqual({ cafe: 3, name: "Caja 1" });
  expect(cashAt()).toEqual([1, 2, 3]);
  // A cafe that never sold goes with its till.
  client.exec("DELETE FROM cafes WHERE id = 3");
  expect(tillsOf().map((t) => t.cafe)).toEqual([1, 2]);
});
