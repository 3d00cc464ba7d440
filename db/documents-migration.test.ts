/**
 * Migration 0008_documents on a database that already holds users and blacklist entries: every number is
 * normalized, gets a type (8 digits: DNI, anything else: passport), and bars exactly the accounts it barred before.
 */
import { expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { migrateDatabase, MIGRATIONS_FOLDER, openDatabase } from "../src/db";
import { isUserBlacklisted } from "../src/domain/access/blacklist";
import { findUserById } from "../src/domain/accounts/users";

/** The migrations before 0008_documents, in a folder of their own. */
function migrationsBeforeDocuments(): string {
  const folder = mkdtempSync(join(tmpdir(), "mesa-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  rmSync(join(folder, "0008_documents.sql"));
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8"));
  journal.entries = journal.entries.filter((entry: { tag: string }) => entry.tag < "0008");
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

test("existing documents are normalized and typed, and every bar still reaches the accounts it reached", () => {
  const db = openDatabase(":memory:");
  const folder = migrationsBeforeDocuments();
  migrate(db, { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  const client = db.$client;
  const addUser = (name: string, document: string | null) =>
    client
      .query<{ id: number }, [string, string, string | null]>(
        "INSERT INTO users (name, email, password_hash, document_number, created_at, updated_at) VALUES (?, ?, 'x', ?, 0, 0) RETURNING id",
      )
      .get(name, `${name.toLowerCase().replace(/\W/g, "")}@mesa.test`, document)!.id;
  const bar = (document: string, userId: number | null = null) =>
    client
      .query(
        "INSERT INTO blacklist (document_number, name, reason, user_id, created_at) VALUES (?, 'Persona', 'Motivo', ?, 0)",
      )
      .run(document, userId);
  const rosa = addUser("Rosa", "01234567");
  const jean = addUser("Jean", "X-99887766");
  const ana = addUser("Ana", "AB-12");
  const dash = addUser("Guion", "-");
  const none = addUser("Nadie", null);
  bar("01234567");
  bar("X-99887766");
  // Two entries that normalizing would make one keep their numbers, and so does the user who has one of them.
  bar("AB-12");
  bar("A-B12");
  bar("4455-6677", none);

  migrateDatabase(db);
  const users = client
    .query("SELECT name, document_type AS type, document_number AS number FROM users ORDER BY id")
    .all();
  expect(users).toEqual([
    { name: "Rosa", type: "dni", number: "01234567" },
    { name: "Jean", type: "pas", number: "X99887766" },
    { name: "Ana", type: "pas", number: "AB-12" },
    { name: "Guion", type: null, number: null },
    { name: "Nadie", type: null, number: null },
  ]);
  expect(
    client
      .query("SELECT document_type AS type, document_number AS number, user_id AS userId FROM blacklist ORDER BY id")
      .all(),
  ).toEqual([
    { type: "dni", number: "01234567", userId: null },
    { type: "pas", number: "X99887766", userId: null },
    { type: "pas", number: "AB-12", userId: null },
    { type: "pas", number: "A-B12", userId: null },
    { type: "dni", number: "44556677", userId: none },
  ]);
  for (const id of [rosa, jean, ana, none])
    expect({ id, barred: isUserBlacklisted(db, findUserById(db, id)!) }).toEqual({ id, barred: true });
  expect(isUserBlacklisted(db, findUserById(db, dash)!)).toBe(false);
  // The type is checked, and a number is barred once per type.
  const barTyped = (type: string, number: string) =>
    client
      .query(
        "INSERT INTO blacklist (document_type, document_number, name, reason, created_at) VALUES (?, ?, 'Persona', 'Motivo', 0)",
      )
      .run(type, number);
  expect(() => barTyped("dni", "01234567")).toThrow(/UNIQUE constraint failed/);
  expect(() => barTyped("ruc", "20100934729")).toThrow(/CHECK constraint failed/);
  barTyped("pas", "01234567");
});
