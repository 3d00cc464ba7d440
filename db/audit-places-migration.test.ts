/**
 * Migration 0020_audit_places_clustered on a database that already holds audit entries with places: the places come
 * back clustered on their key (WITHOUT ROWID) with every row, with the index by place, the kind's check and the
 * cascade from their entry.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { migrateDatabase, openDatabase } from "../src/db";
import { migrationsBefore } from "./migrations-before.test-support";

test("the places of audit entries keep every row and become WITHOUT ROWID, with their index, check and cascade", () => {
  const db = openDatabase(":memory:");
  const folder = migrationsBefore("0020");
  migrate(db, { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  const client = db.$client;
  client.exec(`INSERT INTO audit_log (id, actor_label, action, subject_type, subject_id, created_at) VALUES
    (1, 'Ana', 'diner.created', 'diner', 7, 1700000000000), (2, 'Ana', 'diner.updated', 'diner', 7, 1700000001000)`);
  client.exec(`INSERT INTO audit_places (audit_id, kind, place_id) VALUES (1, 'cafe', 3), (2, 'cafe', 3), (2, 'cafe', 4),
    (2, 'unit', 1)`);
  const rows = () => client.query("SELECT audit_id, kind, place_id FROM audit_places ORDER BY 1, 2, 3").values();
  const kept = rows();

  migrateDatabase(db);
  expect(rows()).toEqual(kept);
  const { sql } = client.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'audit_places'").get()!;
  expect(sql).toEndWith("WITHOUT ROWID");
  expect(client.query("SELECT name FROM sqlite_master WHERE name LIKE '%_clustered'").all()).toEqual([]);
  // The entries of one cafe are found by the index by place.
  const plan = client
    .query("EXPLAIN QUERY PLAN SELECT audit_id FROM audit_places WHERE kind = 'cafe' AND place_id = 3")
    .values()
    .map((row) => String(row.at(-1)));
  expect(plan.join(" ")).toContain("audit_places_place_index");
  expect(() => client.exec("INSERT INTO audit_places VALUES (1, 'planet', 1)")).toThrow(/CHECK constraint failed/);
  expect(() => client.exec("INSERT INTO audit_places VALUES (1, 'cafe', 3)")).toThrow(/UNIQUE constraint failed/);
  client.exec("DELETE FROM audit_log WHERE id = 2");
  expect(rows()).toEqual([[1, "cafe", 3]]);
});
