/**
 * Migration 0019_sales_figures_clustered on a database that already holds daily totals: the tables come back
 * clustered on their keys (WITHOUT ROWID) with every row, and the six triggers that keep them are there again,
 * exactly as migration 0015 made them.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { migrateDatabase, openDatabase } from "../src/db";
import { migrationsBefore } from "./migrations-before.test-support";

const TRIGGERS = [
  "sale_lines_figures_delete",
  "sale_lines_figures_insert",
  "sale_lines_figures_update",
  "sales_figures_delete",
  "sales_figures_insert",
  "sales_figures_update",
];

test("the daily totals keep every row, become WITHOUT ROWID, and their triggers are back unchanged", () => {
  const db = openDatabase(":memory:");
  const folder = migrationsBefore("0019");
  migrate(db, { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  const client = db.$client;
  const triggerSql = () =>
    client
      .query<{ name: string; sql: string }, []>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%figures%' ORDER BY name",
      )
      .all();
  const before = triggerSql();
  expect(before.map((t) => t.name)).toEqual(TRIGGERS);
  // Two cafes written in SQL, as the tables stood then (the drizzle schema of today has columns they lacked).
  client.exec(`INSERT INTO businesses (name, ruc, fiscal_address) VALUES ('Catering Andino', '20100070970', 'Av. Arequipa 123, Lima');
    INSERT INTO mines (name) VALUES ('Mina Toquepala');
    INSERT INTO units (mine_id, name) VALUES (1, 'Unidad Central');
    INSERT INTO cafes (unit_id, business_id, name, time_zone) VALUES (1, 1, 'Comedor Norte', 'America/Lima'), (1, 1, 'Comedor Sur', 'America/Lima');`);
  const [norte, sur] = [1, 2];
  client.exec(`INSERT INTO daily_sale_figures VALUES (${norte}, '2026-10-01', 3, 0, 5, 5000, 1, 900), (${norte}, '2026-10-01', 0, 1, 2, 4000, 0, 0),
    (${sur}, '2026-10-02', 4, 0, 7, 7000, 0, 0)`);
  client.exec(
    `INSERT INTO daily_service_figures VALUES (${norte}, '2026-10-01', 8, 9, 9000), (${sur}, '2026-10-02', 8, 7, 7000)`,
  );
  const rows = () => ({
    sales: client.query("SELECT * FROM daily_sale_figures ORDER BY 1, 2, 3, 4").all(),
    services: client.query("SELECT * FROM daily_service_figures ORDER BY 1, 2, 3").all(),
  });
  const kept = rows();

  migrateDatabase(db);
  expect(rows()).toEqual(kept);
  expect(kept.sales).toHaveLength(3);
  for (const table of ["daily_sale_figures", "daily_service_figures"]) {
    const { sql } = client.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(table)!;
    expect(sql).toEndWith("WITHOUT ROWID");
  }
  expect(triggerSql()).toEqual(before);
  expect(client.query("SELECT name FROM sqlite_master WHERE name LIKE '%_clustered'").all()).toEqual([]);
});
