/**
 * The diner import in the domain: headers in both languages, documents, every row problem, scope, the blacklist,
 * leavers, re-import, the plan, all-or-nothing writing in chunks with its undo log, recovery, audit and progress.
 */
import { describe, expect, test } from "bun:test";
import { migrateDatabase, openDatabase } from "../../db";
import { posWorld } from "../../../tests/support/pos";
import { EVERYTHING } from "../access/scope";
import type { Actor } from "../audit";
import type { CellValue, SheetRows } from "../spreadsheets/read";
import { importDiners, importOfFile, previewDinerImport } from "./diner-import";

const ACTOR: Actor = { userId: null, label: "cli" };
const SOURCE = { fileName: "trabajadores.xlsx", sha256: "a".repeat(64), via: "cli" as const };

function setup() {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  const w = posWorld(db);
  return { db, w };
}

const sheet = (...rows: CellValue[][]): SheetRows => ({ name: "Hoja1", firstRow: 1, rows });

describe("importing diners", () => {
  test("a Spanish file with two name columns creates and updates by document, keeping leading zeros", async () => {
    const { db, w } = setup();
    const file = sheet(
      ["Nombres", "Apellidos", "DNI", "Subcontrata", "Comedor", "Nivel", "Celular"],
      ["Juan", "Pérez", 1234567, "contrata uno", "COMEDOR NORTE", "staff", 987654321],
      ["Ana", "Quispe Mamani", "40000001", "20512345671", "Unidad Central/Comedor Sur", null, null],
    );
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(preview.problems).toEqual([]);
    expect([preview.created, preview.updated, preview.unchanged]).toEqual([1, 1, 0]);
    const { counts } = await importDiners(db, ACTOR, EVERYTHING, file, { source: SOURCE, expectedPlan: preview.plan });
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 0, deactivated: 0 });
    const juan = db.$client.query("SELECT * FROM diners WHERE document_number = '01234567'").get() as {
      name: string;
      cafe_id: number;
      phone: string;
    };
    expect(juan).toMatchObject({ name: "Juan Pérez", cafe_id: w.norte, phone: "987654321" });
    expect(importOfFile(db, SOURCE.sha256)?.state).toBe("succeeded");
  });
});
