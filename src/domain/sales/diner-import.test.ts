/**
 * The diner import in the domain, on sheets built here: headers in both languages, two-column names, document types
 * and leading zeros, every row problem (by row and column, all of them, capped), duplicates naming both rows, scope,
 * the blacklist, leavers, re-import, empty cells, the plan, all-or-nothing writing in chunks with its undo log (a
 * conflict, an exception, a sale meanwhile to one of its invisible diners, a person registered by hand meanwhile, a
 * crashed writer), one writer at a time, audit and progress,
 * and a property: any sheet, valid or mutated, is either imported as it says or refused with nothing written.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blacklist, cafes, dealerships, subdealerships, units, users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migrateDatabase, openDatabase, type Db } from "../../db";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { Conflict, ValidationFailed } from "../errors";
import { type Message } from "../../shared/message";
import { foldText } from "../../shared/fold";
import type { CellValue, SheetRows } from "../spreadsheets/read";
import { dateIn } from "../../shared/calendar";
import {
  ImportRefused,
  importDiners,
  importOfFile,
  MAX_LISTED,
  PlanChanged,
  previewDinerImport,
  previewDinerImportAsync,
  recordRefusedImport,
  recoverDinerImports,
  type DinerImportOptions,
  type DinerImportPreview,
  type DinerImportSource,
} from "./diner-import";
import { createDiner, findDinerByDocument, searchDiners, updateDiner } from "./diners";
import { recordSale } from "./sell";

const NOW = new Date("2026-11-24T15:00:00Z");
const SALE_SETTINGS = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const ACTOR: Actor = { userId: 1, label: "jefa@mesa.test" };
const SOURCE: DinerImportSource = { fileName: "trabajadores.xlsx", sha256: "a".repeat(64), via: "page", jobId: null };

function setup(path = ":memory:") {
  const db = openDatabase(path);
  migrateDatabase(db);
  const w = posWorld(db);
  db.insert(users)
    .values({ id: 1, name: "Jefa", email: "jefa@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW })
    .run();
  return { db, w };
}

const only = (...cafeIds: number[]): Scope => ({
  all: false,
  cafeIds: new Set(cafeIds),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

const sheet = (...rows: CellValue[][]): SheetRows => ({ name: "Hoja1", firstRow: 1, rows });

const HEAD = ["Nombre", "DNI", "Subcontrata", "Comedor"];

interface DinerRecord {
  id: number;
  document_type: string;
  document_number: string;
  name: string;
  name_folded: string | null;
  phone: string;
  subdealership_id: number;
  cafe_id: number;
  level_id: number | null;
  active: number;
}

function allDiners(db: Db): DinerRecord[] {
  return db.$client
    .query(
      "SELECT id, document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id, active FROM diners ORDER BY id",
    )
    .all() as DinerRecord[];
}

function dinerOf(db: Db, number: string): DinerRecord | undefined {
  return allDiners(db).find((d) => d.document_number === number);
}

interface AuditRecord {
  id: number;
  action: string;
  subject_type: string;
  subject_id: number | null;
  before: unknown;
  after: unknown;
  places: string;
}

function auditEntries(db: Db): AuditRecord[] {
  return (
    db.$client
      .query(
        `SELECT a.id, a.action, a.subject_type, a.subject_id, a.before, a.after,
          (SELECT group_concat(p.kind || ':' || p.place_id, ',') FROM audit_places p WHERE p.audit_id = a.id) AS places
         FROM audit_log a ORDER BY a.id`,
      )
      .all() as (AuditRecord & { before: string | null; after: string | null })[]
  ).map((a) => ({
    ...a,
    before: a.before === null ? null : JSON.parse(a.before as string),
    after: a.after === null ? null : JSON.parse(a.after as string),
    places: a.places ?? "",
  }));
}

function ledger(db: Db) {
  return db.$client.query("SELECT * FROM diner_imports ORDER BY id").all() as {
    id: number;
    state: string;
    message_key: string | null;
    message_params: string | null;
    created: number;
    updated: number;
    unchanged: number;
    deactivated: number;
    rows: number;
    problem_count: number;
    via: string;
    file_name: string;
  }[];
}

const undoRows = (db: Db) => (db.$client.query("SELECT count(*) AS n FROM diner_import_undo").get() as { n: number }).n;

/** Everything an import may write, to compare before and after a refusal or an undo. */
function snapshot(db: Db) {
  return { diners: allDiners(db), audit: auditEntries(db).filter((a) => a.action !== "diner.import") };
}

const keyOf = (m: Message) => (typeof m === "string" ? m : m.key);
const problemsOf = (preview: DinerImportPreview) => preview.problems.map((p) => [p.row, p.column, keyOf(p.message)]);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const run = (
  db: Db,
  file: SheetRows,
  options: Partial<DinerImportOptions> & { expectedPlan?: string } = {},
  scope = EVERYTHING,
) => importDiners(db, ACTOR, scope, file, { source: SOURCE, ...options });

describe("headers", () => {
  test("Spanish headers in any order, case, accents and spacing, after blank rows; unknown columns listed", async () => {
    const { db, w } = setup();
    const file: SheetRows = {
      name: "Personal",
      firstRow: 3,
      rows: [
        [null, "  "],
        [],
        [
          "  NIVEL ",
          "teléfono",
          "Observaciones",
          "Nro. Documento",
          "Tipo de Doc",
          "COMEDOR",
          "subconcesionaria",
          "Nombres y Apellidos",
        ],
        ["staff", "987 654 321", "nada", "45000001", "DNI", "comedor norte", "CONTRATA UNO", "Teodoro Ccama"],
        [null, null, null, null, null, null, null, null],
        ["Capataz", null, null, "45000002", "1", "Comedor Sur", "20512345682", "Rosa Huamaní"],
      ],
    };
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(await previewDinerImportAsync(db, EVERYTHING, file)).toEqual(preview);
    expect(preview.unknownColumns).toEqual(["Observaciones"]);
    expect(problemsOf(preview)).toEqual([[8, "NIVEL", "diners.import_level_unknown"]]);
    expect(preview.rows).toBe(2);

    file.rows[5][0] = "laborer";
    const fixed = previewDinerImport(db, EVERYTHING, file);
    expect(fixed.problems).toEqual([]);
    expect(fixed.changes).toEqual([
      {
        row: 6,
        kind: "create",
        documentNumber: "45000001",
        name: "Teodoro Ccama",
        fields: ["name", "documentType", "phone", "subdealership", "cafe", "level"],
      },
      {
        row: 8,
        kind: "create",
        documentNumber: "45000002",
        name: "Rosa Huamaní",
        fields: ["name", "documentType", "subdealership", "cafe", "level"],
      },
    ]);
    await run(db, file, { expectedPlan: fixed.plan });
    expect(dinerOf(db, "45000001")).toMatchObject({
      name: "Teodoro Ccama",
      name_folded: "teodoro ccama",
      phone: "987 654 321",
      cafe_id: w.norte,
      subdealership_id: w.contrata,
      level_id: 2,
      active: 1,
    });
    expect(dinerOf(db, "45000002")).toMatchObject({ cafe_id: w.sur, subdealership_id: w.otraContrata, level_id: 4 });
  });

  test("English headers and their variants", async () => {
    const { db, w } = setup();
    const variants: CellValue[][] = [
      ["Full Name", "Document Number", "Type", "Mobile", "Company", "Home Cafe", "Level"],
      ["name", "document", "document type", "phone", "subdealership", "cafe", "level"],
      ["NOMBRE", "Número de documento", "Tipo documento", "Celular", "Empresa", "Comedor", "Nivel"],
      ["nombre completo", "Documento", "tipo doc", "Móvil", "Subcontrata", "comedor", "nivel"],
      ["Nombre", "dni", "Tipo", "Telefono", "Contrata", "Cafe", "NIVEL"],
    ];
    for (const header of variants) {
      const preview = previewDinerImport(
        db,
        EVERYTHING,
        sheet(header, ["Lucía Condori", "45000010", "DNI", "999111222", "Contrata Uno", "Comedor Norte", "Master"]),
      );
      expect({ header, problems: preview.problems, unknown: preview.unknownColumns }).toEqual({
        header,
        problems: [],
        unknown: [],
      });
      expect(preview.created).toBe(1);
    }
    await run(
      db,
      sheet(variants[0], ["Lucía Condori", "45000010", "DNI", "999111222", "20512345671", "Comedor Norte", "master"]),
    );
    expect(dinerOf(db, "45000010")).toMatchObject({ subdealership_id: w.contrata, level_id: 1, phone: "999111222" });
  });

  test("last names and first names in two columns make the name 'First Last'", async () => {
    const { db } = setup();
    await run(
      db,
      sheet(
        ["Apellidos", "Nombres", "DNI", "Subcontrata", "Comedor"],
        ["Quispe Mamani", "Juana Rosa", "45000020", "Contrata Uno", "Comedor Norte"],
        ["Ccori", null, "45000021", "Contrata Uno", "Comedor Norte"],
      ),
    );
    expect(dinerOf(db, "45000020")?.name).toBe("Juana Rosa Quispe Mamani");
    expect(dinerOf(db, "45000021")?.name).toBe("Ccori");
    const english = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        ["First names", "Last names", "Document", "Company", "Cafe"],
        ["Juana Rosa", "Quispe Mamani", "45000020", "Contrata Uno", "Comedor Norte"],
      ),
    );
    expect([english.unchanged, english.problems]).toEqual([1, []]);
  });

  test("a missing required column is one problem, whatever the number of rows; the default cafe stands for the cafe column", () => {
    const { db, w } = setup();
    const rows = Array.from({ length: 50 }, (_, i) => [`Persona ${i}`, `4600${String(i).padStart(4, "0")}`]);
    const preview = previewDinerImport(db, EVERYTHING, sheet(["Nombre", "DNI", "Extra"], ...rows));
    expect(problemsOf(preview)).toEqual([
      [1, null, "diners.import_missing_column_subdealership"],
      [1, null, "diners.import_missing_column_cafe"],
    ]);
    expect(preview.problemCount).toBe(2);
    expect(preview.rows).toBe(50);
    expect(preview.unknownColumns).toEqual(["Extra"]);

    const noName = previewDinerImport(
      db,
      EVERYTHING,
      sheet(["Documento", "Empresa", "Comedor"], ["45000001", "Contrata Uno", "Comedor Norte"]),
    );
    expect(problemsOf(noName)).toEqual([[1, null, "diners.import_missing_column_name"]]);
    const noDocument = previewDinerImport(db, EVERYTHING, sheet(["Nombre", "Empresa"], ["Ana", "Contrata Uno"]), {
      defaultCafeId: w.norte,
    });
    expect(problemsOf(noDocument)).toEqual([[1, null, "diners.import_missing_column_document"]]);
    const withDefault = previewDinerImport(
      db,
      EVERYTHING,
      sheet(["Nombre", "DNI", "Empresa"], ["Nueva Persona", "45000030", "Contrata Uno"]),
      { defaultCafeId: w.sur },
    );
    expect([withDefault.problems, withDefault.created]).toEqual([[], 1]);
  });

  test("the preview names the sheet read and the header's row", () => {
    const { db } = setup();
    const preview = previewDinerImport(db, EVERYTHING, {
      name: "Comensales",
      firstRow: 1,
      rows: [[null], HEAD, ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Norte"]],
    });
    expect([preview.sheet, preview.headerRow, preview.problems]).toEqual(["Comensales", 2, []]);
    expect(previewDinerImport(db, EVERYTHING, sheet()).headerRow).toBeNull();
  });

  test("a title above the header (a merged cell) is passed over when the next row holds the columns needed", async () => {
    const { db, w } = setup();
    const diner = ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Norte"];
    for (const rows of [
      [["LISTA DE PERSONAL — MARZO 2026", null, null, null], HEAD, diner],
      [["Lista de personal"], [null], HEAD, diner],
    ]) {
      const preview = previewDinerImport(db, EVERYTHING, sheet(...rows));
      expect([preview.problems, preview.created, preview.headerRow]).toEqual([[], 1, rows.length - 1]);
      expect(preview.changes[0].row).toBe(rows.length);
    }
    // The title's row counts for the rows' numbers: a problem names the sheet's row.
    const bad = previewDinerImport(
      db,
      EVERYTHING,
      sheet(["Lista de personal"], HEAD, ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Oeste"]),
    );
    expect(problemsOf(bad)).toEqual([[3, "Comedor", "diners.import_cafe_unknown"]]);
    // With a default cafe, the header needs no cafe column.
    const withDefault = previewDinerImport(
      db,
      EVERYTHING,
      sheet(["Lista de personal"], ["Nombre", "DNI", "Subcontrata"], ["Ana Quispe", "45000001", "Contrata Uno"]),
      { defaultCafeId: w.norte },
    );
    expect([withDefault.problems, withDefault.headerRow]).toEqual([[], 2]);
    await run(db, sheet(["Lista de personal"], HEAD, diner));
    expect(dinerOf(db, "45000001")?.name).toBe("Ana Quispe");
  });

  test("only then: a first row is the header when the next one does not hold the columns needed", () => {
    const { db } = setup();
    const missing = [
      [1, null, "diners.import_missing_column_name"],
      [1, null, "diners.import_missing_column_document"],
      [1, null, "diners.import_missing_column_subdealership"],
      [1, null, "diners.import_missing_column_cafe"],
    ];
    // The next row lacks a column, or is a diner, or the first row has two cells (not a title).
    for (const rows of [
      [["Lista de personal"], ["Nombre", "DNI", "Comedor"], ["Ana Quispe", "45000001", "Comedor Norte"]],
      [["Lista de personal"], ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Norte"]],
      [["Lista de personal", "marzo"], HEAD, ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Norte"]],
      [[20260301], HEAD, ["Ana Quispe", "45000001", "Contrata Uno", "Comedor Norte"]],
    ]) {
      const preview = previewDinerImport(db, EVERYTHING, sheet(...rows));
      expect(preview.headerRow).toBe(1);
      expect(problemsOf(preview).filter((p) => p[2] !== "diners.import_duplicate_column")).toEqual(missing);
    }
  });

  test("an empty sheet, a header without rows and a repeated column are one problem each", () => {
    const { db } = setup();
    expect(problemsOf(previewDinerImport(db, EVERYTHING, sheet()))).toEqual([[1, null, "diners.import_no_header"]]);
    expect(problemsOf(previewDinerImport(db, EVERYTHING, sheet([null], [""])))).toEqual([
      [1, null, "diners.import_no_header"],
    ]);
    expect(problemsOf(previewDinerImport(db, EVERYTHING, sheet(HEAD, [null, " "])))).toEqual([
      [1, null, "diners.import_no_rows"],
    ]);
    expect(
      problemsOf(
        previewDinerImport(
          db,
          EVERYTHING,
          sheet([...HEAD, "documento"], ["Ana", "45000001", "Contrata Uno", "Comedor Norte", "1"]),
        ),
      ),
    ).toEqual([[1, "documento", "diners.import_duplicate_column"]]);
  });
});

describe("documents", () => {
  test("a DNI in a number cell gets its leading zeros back, to the DNI length of the settings", async () => {
    const { db } = setup();
    const file = sheet(
      HEAD,
      ["Cero Adelante", 1234567, "Contrata Uno", "Comedor Norte"],
      ["Dos Ceros", 34567, "Contrata Uno", "Comedor Norte"],
    );
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(preview.changes.map((c) => c.documentNumber)).toEqual(["01234567", "00034567"]);
    await run(db, file);
    expect(dinerOf(db, "01234567")?.name).toBe("Cero Adelante");
    // Again: the same diners, unchanged.
    expect(previewDinerImport(db, EVERYTHING, file).unchanged).toBe(2);
    // DNI_LENGTH 9 pads to nine digits.
    expect(previewDinerImport(db, EVERYTHING, file, { dniLength: 9 }).changes.map((c) => c.documentNumber)).toEqual([
      "001234567",
      "000034567",
    ]);
    // More digits than a DNI has are not one, whatever the cell.
    for (const long of ["123456789", 123456789]) {
      const text = previewDinerImport(
        db,
        EVERYTHING,
        sheet(HEAD, ["Muy Largo", long, "Contrata Uno", "Comedor Norte"]),
      );
      expect(problemsOf(text)).toEqual([[2, "DNI", "validation.document.dni"]]);
      expect(text.problems[0].message).toEqual({ key: "validation.document.dni", params: { length: 8 } });
    }
    // Spaces and dashes go.
    expect(
      previewDinerImport(db, EVERYTHING, sheet(HEAD, ["Cero Adelante", " 0123-4567 ", "Contrata Uno", "Comedor Norte"]))
        .unchanged,
    ).toBe(1);
  });

  test("a 7-digit DNI reads the same from a text cell and from a number cell: its leading zero put back", async () => {
    const { db } = setup();
    // A number cell lost the zero in the spreadsheet; a text cell lost it before (a CSV, a column made text after
    // its zeros were gone): one rule for both, by the digits.
    const file = sheet(
      HEAD,
      ["Como Número", 1234567, "Contrata Uno", "Comedor Norte"],
      ["Como Texto", "7654321", "Contrata Uno", "Comedor Norte"],
      ["Texto Con Espacio", " 765 4322 ", "Contrata Uno", "Comedor Norte"],
    );
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(preview.problems).toEqual([]);
    expect(preview.changes.map((c) => c.documentNumber)).toEqual(["01234567", "07654321", "07654322"]);
    await run(db, file);
    // The same DNI written the other way, or with its zero, is the same diner.
    const again = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        HEAD,
        ["Como Número", "1234567", "Contrata Uno", "Comedor Norte"],
        ["Como Texto", 7654321, "Contrata Uno", "Comedor Norte"],
        ["Texto Con Espacio", "07654322", "Contrata Uno", "Comedor Norte"],
      ),
    );
    expect([again.unchanged, again.created, again.problems]).toEqual([3, 0, []]);
    // The same row twice, once as text and once as a number, is a repeated document.
    const twice = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        HEAD,
        ["Uno", "1234568", "Contrata Uno", "Comedor Norte"],
        ["Dos", 1234568, "Contrata Uno", "Comedor Norte"],
      ),
    );
    expect(problemsOf(twice)).toEqual([[3, "DNI", "diners.import_duplicate_document"]]);
    // Only a DNI: a foreign resident card keeps what was written, and letters are never padded.
    const others = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        ["Nombre", "Tipo de documento", "Documento", "Subcontrata", "Comedor"],
        ["Extranjera", "CE", "1234567", "Contrata Uno", "Comedor Norte"],
        ["Letras", "DNI", "A234567", "Contrata Uno", "Comedor Norte"],
      ),
    );
    expect(problemsOf(others)).toEqual([
      [2, "Documento", "validation.document.ce"],
      [3, "Documento", "validation.document.dni"],
    ]);
  });

  test("document types by name or SUNAT code (1, 4, 7), as text or numbers", async () => {
    const { db } = setup();
    const file = sheet(
      ["Nombre", "Documento", "Tipo de documento", "Empresa", "Comedor"],
      ["Persona Dni", 45000040, 1, "Contrata Uno", "Comedor Norte"],
      ["Persona Ce", "001234567", "CE", "Contrata Uno", "Comedor Norte"],
      ["Persona Ce Dos", "X12345678", 4, "Contrata Uno", "Comedor Norte"],
      ["Persona Pas", "ab-123456", "Pasaporte", "Contrata Uno", "Comedor Norte"],
      ["Persona Pas Dos", "C9876543", "07", "Contrata Uno", "Comedor Norte"],
      ["Persona Pas Tres", "P1234567", "pas", "Contrata Uno", "Comedor Norte"],
    );
    expect(previewDinerImport(db, EVERYTHING, file).problems).toEqual([]);
    await run(db, file);
    expect(
      allDiners(db)
        .filter((d) => d.name.startsWith("Persona"))
        .map((d) => [d.document_type, d.document_number]),
    ).toEqual([
      ["dni", "45000040"],
      ["ce", "001234567"],
      ["ce", "X12345678"],
      ["pas", "AB123456"],
      ["pas", "C9876543"],
      ["pas", "P1234567"],
    ]);
    // One number under two types is two documents: two diners, and no duplicate.
    const twoTypes = sheet(
      ["Nombre", "Documento", "Tipo de documento", "Empresa", "Comedor"],
      ["Mismo Número Dni", "45678901", "DNI", "Contrata Uno", "Comedor Norte"],
      ["Mismo Número Pas", "45678901", "PAS", "Contrata Uno", "Comedor Norte"],
    );
    expect(previewDinerImport(db, EVERYTHING, twoTypes)).toMatchObject({ created: 2, problems: [] });
    await run(db, twoTypes);
    // Without a type, that number is taken as a DNI.
    const untypedTwice = previewDinerImport(
      db,
      EVERYTHING,
      sheet(HEAD, ["Mismo Número Dni", "45678901", "Contrata Uno", "Comedor Norte"]),
    );
    expect([untypedTwice.unchanged, untypedTwice.problems]).toEqual([1, []]);
    // A row without a type finds a number registered under another type.
    const untyped = previewDinerImport(
      db,
      EVERYTHING,
      sheet(HEAD, ["Persona Pas", "AB123456", "Contrata Uno", "Comedor Norte"]),
    );
    expect([untyped.unchanged, untyped.problems]).toEqual([1, []]);
  });
});

describe("row problems", () => {
  test("every problem of every row, by row and column, and nothing written", async () => {
    const { db, w } = setup();
    // A second "Contrata Uno" (of another dealership) and a second "Comedor Norte" (in another unit).
    const otherDealer = db
      .insert(dealerships)
      .values({ name: "Otra Minera", ruc: "20100000001", createdAt: NOW, updatedAt: NOW })
      .returning()
      .get().id;
    db.insert(subdealerships)
      .values({ dealershipId: otherDealer, name: "Contrata Uno", ruc: "20100000002", createdAt: NOW, updatedAt: NOW })
      .run();
    const unit = db.$client.query("SELECT unit_id FROM cafes WHERE id = ?").get(w.norte) as { unit_id: number };
    const mine = db.$client.query("SELECT mine_id FROM units WHERE id = ?").get(unit.unit_id) as { mine_id: number };
    const otherUnit = db.insert(units).values({ mineId: mine.mine_id, name: "Unidad Este" }).returning().get().id;
    db.insert(cafes).values({ unitId: otherUnit, name: "Comedor Este", timeZone: "America/Lima" }).run();
    db.insert(cafes).values({ unitId: otherUnit, name: "Comedor  NORTE", timeZone: "America/Lima" }).run();

    const before = snapshot(db);
    const file = sheet(
      ["Nombre", "DNI", "Tipo", "Teléfono", "Subcontrata", "Comedor", "Nivel"],
      ["", "45000050", "DNI", null, "20512345671", "Comedor Sur", null], // 2: name required (new)
      ["A", "45000051", "DNI", null, "20512345671", "Comedor Sur", null], // 3: name too short
      ["X".repeat(121), "45000052", null, null, "20512345671", "Comedor Sur", null], // 4: name too long
      ["Sin Documento", null, null, null, "20512345671", "Comedor Sur", null], // 5: document required
      ["Mal Documento", "4500005X", null, null, "20512345671", "Comedor Sur", null], // 6: a bad DNI
      ["Mal Tipo", "45000056", "RUC", null, "20512345671", "Comedor Sur", null], // 7: unknown type
      ["Mal Teléfono", "45000057", null, "abc", "20512345671", "Comedor Sur", null], // 8: bad phone
      ["Sin Empresa", "45000058", null, null, null, "Comedor Sur", null], // 9: subdealership required (new)
      ["Empresa Rara", "45000059", null, null, "Contrata Nueve", "Comedor Sur", null], // 10: unknown subdealership
      ["Empresa Doble", "45000060", null, null, "contrata uno", "Comedor Sur", null], // 11: two of that name
      ["Sin Comedor", "45000061", null, null, "20512345671", null, null], // 12: cafe required (new)
      ["Comedor Raro", "45000062", null, null, "20512345671", "Comedor Oeste", null], // 13: unknown cafe
      ["Comedor Doble", "45000063", null, null, "20512345671", "Comedor Norte", null], // 14: two of that name
      ["Nivel Raro", "45000064", null, null, "20512345671", "Comedor Sur", "Gerente"], // 15: unknown level
      ["Varios", "123456789", "DNI", "x", "Nadie", "Ninguno", "Jefe"], // 16: four at once
      ["Con Unidad", "45000065", null, null, "Minera del Sur/Contrata Uno", "Unidad Central/Comedor Norte", null], // 17: fine
    );
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(problemsOf(preview)).toEqual([
      [2, "Nombre", "validation.required"],
      [3, "Nombre", "validation.min_length"],
      [4, "Nombre", "validation.max_length"],
      [5, "DNI", "validation.required"],
      [6, "DNI", "validation.document.dni"],
      [7, "Tipo", "diners.import_document_type_unknown"],
      [8, "Teléfono", "diners.phone_invalid"],
      [9, "Subcontrata", "validation.required"],
      [10, "Subcontrata", "diners.import_subdealership_unknown"],
      [11, "Subcontrata", "diners.import_subdealership_ambiguous"],
      [12, "Comedor", "validation.required"],
      [13, "Comedor", "diners.import_cafe_unknown"],
      [14, "Comedor", "diners.import_cafe_ambiguous"],
      [15, "Nivel", "diners.import_level_unknown"],
      [16, "DNI", "validation.document.dni"],
      [16, "Teléfono", "diners.phone_invalid"],
      [16, "Subcontrata", "diners.import_subdealership_unknown"],
      [16, "Comedor", "diners.import_cafe_unknown"],
      [16, "Nivel", "diners.import_level_unknown"],
    ]);
    expect(preview.problems[9].message).toEqual({
      key: "diners.import_subdealership_ambiguous",
      params: {
        subdealership: "contrata uno",
        choices: "Minera del Sur/Contrata Uno (RUC 20512345671), Otra Minera/Contrata Uno (RUC 20100000002)",
      },
    });
    expect(preview.problems[12].message).toEqual({
      key: "diners.import_cafe_ambiguous",
      params: { cafe: "Comedor Norte", choices: "Unidad Central/Comedor Norte, Unidad Este/Comedor  NORTE" },
    });
    expect(preview.created).toBe(1);

    const error = await rejection(run(db, file));
    expect(error).toBeInstanceOf(ImportRefused);
    expect((error as ImportRefused<DinerImportPreview>).plan.problemCount).toBe(19);
    expect(snapshot(db)).toEqual(before);
    expect(ledger(db).map((l) => [l.state, l.problem_count, l.message_key])).toEqual([
      ["refused", 19, "diners.import_refused_rows"],
    ]);
    expect(auditEntries(db).at(-1)).toMatchObject({
      action: "diner.import",
      after: { file: "trabajadores.xlsx", via: "page", result: "refused", counts: { created: 1 } },
    });
  });

  test("problems are listed up to MAX_LISTED, with the full count", () => {
    const { db } = setup();
    const rows = Array.from({ length: 250 }, (_, i) => [`Persona ${i}`, `12${i}-X`, "Contrata Uno", "Comedor Norte"]);
    const preview = previewDinerImport(db, EVERYTHING, sheet(HEAD, ...rows));
    expect(preview.problems).toHaveLength(MAX_LISTED);
    expect(preview.problemCount).toBe(250);
    expect(preview.problems.at(-1)?.row).toBe(201);
  });

  test("a document repeated in the file is a problem naming both rows", () => {
    const { db } = setup();
    const preview = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        HEAD,
        ["Primera Vez", "45000070", "Contrata Uno", "Comedor Norte"],
        ["Otra Persona", "45000071", "Contrata Uno", "Comedor Norte"],
        ["Segunda Vez", 45000070, "Contrata Dos", "Comedor Sur"],
      ),
    );
    expect(preview.problems).toEqual([
      {
        row: 4,
        column: "DNI",
        message: { key: "diners.import_duplicate_document", params: { row: 4, other: 2, document: "45000070" } },
      },
    ]);
  });
});

describe("scope", () => {
  test("a cafe outside the scope, a diner moved from a cafe outside it, and a default cafe outside it are refused", () => {
    const { db, w } = setup();
    const norteOnly = only(w.norte);
    const preview = previewDinerImport(
      db,
      norteOnly,
      sheet(
        HEAD,
        ["Nueva En Sur", "45000080", "Contrata Uno", "Comedor Sur"], // a cafe outside the scope
        ["Carla Ñahui", "40000003", "Contrata Uno", "Comedor Norte"], // Carla lives at Sur: not theirs to move
        ["Carla Ñahui", "40000001", "Contrata Uno", "Comedor Norte"], // Ana renamed: fine
      ),
    );
    expect(problemsOf(preview)).toEqual([
      [2, "Comedor", "diners.import_cafe_outside_scope"],
      [3, "Comedor", "diners.import_diner_outside_scope"],
    ]);
    expect(preview.problems[1].message).toEqual({
      key: "diners.import_diner_outside_scope",
      params: { name: "Carla Ñahui", cafe: "Comedor Sur" },
    });
    // A blank cafe keeps Carla at Sur, but changing her is not theirs either; repeating her as she is, is.
    const blank = previewDinerImport(
      db,
      norteOnly,
      sheet(HEAD, ["Carla Nueva", "40000003", null, null], ["Carla Ñahui", "40000003", null, null]),
    );
    expect(problemsOf(blank)).toEqual([
      [2, "Comedor", "diners.import_diner_outside_scope"],
      [3, "DNI", "diners.import_duplicate_document"],
    ]);
    const asShe = previewDinerImport(db, norteOnly, sheet(HEAD, ["Carla Ñahui", "40000003", null, null]));
    expect([asShe.problems, asShe.unchanged]).toEqual([[], 1]);
    // The default cafe must be theirs.
    const outside = previewDinerImport(
      db,
      norteOnly,
      sheet(["Nombre", "DNI", "Empresa"], ["Persona", "45000081", "Contrata Uno"]),
      {
        defaultCafeId: w.sur,
      },
    );
    expect(problemsOf(outside)).toEqual([[1, null, "diners.import_default_cafe_outside_scope"]]);
  });
});

describe("what the preview lists", () => {
  test("blacklisted documents are listed and still imported", async () => {
    const { db } = setup();
    db.insert(blacklist)
      .values({
        documentType: "dni",
        documentNumber: "45000090",
        name: "Vetado",
        reason: "Deuda impaga",
        createdAt: NOW,
      })
      .run();
    const file = sheet(
      HEAD,
      ["Vetado Pérez", "45000090", "Contrata Uno", "Comedor Norte"],
      ["Libre", "45000091", "Contrata Uno", "Comedor Norte"],
    );
    const preview = previewDinerImport(db, EVERYTHING, file);
    expect(preview.blacklisted).toEqual([
      { row: 2, documentType: "dni", documentNumber: "45000090", name: "Vetado Pérez", reason: "Deuda impaga" },
    ]);
    await run(db, file);
    expect(dinerOf(db, "45000090")?.active).toBe(1);
  });

  test("leavers are listed, and deactivated only when asked, audited like the page", async () => {
    const { db, w } = setup();
    // Contrata Uno at Norte: Ana is active and not in the file (Darío is inactive, Carla is at Sur, Beto of another).
    const file = sheet(HEAD, ["Nuevo Trabajador", "45000100", "Contrata Uno", "Comedor Norte"]);
    const listed = previewDinerImport(db, EVERYTHING, file);
    expect(listed.leavers).toEqual([
      {
        id: w.ana,
        documentType: "dni",
        documentNumber: "40000001",
        name: "Ana Quispe Mamani",
        cafe: "Comedor Norte",
        subdealership: "Contrata Uno",
      },
    ]);
    expect(listed.leaverCount).toBe(1);
    const asked = previewDinerImport(db, EVERYTHING, file, { deactivateLeavers: true });
    expect(asked.leavers).toEqual(listed.leavers);
    expect(asked.plan).not.toBe(listed.plan);

    const kept = await run(db, file, { expectedPlan: listed.plan });
    expect(kept.counts).toEqual({ created: 1, updated: 0, unchanged: 0, deactivated: 0 });
    expect(dinerOf(db, "40000001")?.active).toBe(1);

    const { counts } = await run(db, file, {
      deactivateLeavers: true,
      expectedPlan: previewDinerImport(db, EVERYTHING, file, { deactivateLeavers: true }).plan,
    });
    expect(counts).toEqual({ created: 0, updated: 0, unchanged: 1, deactivated: 1 });
    expect(dinerOf(db, "40000001")?.active).toBe(0);
    expect(auditEntries(db).filter((a) => a.action === "diner.deactivated")).toEqual([
      expect.objectContaining({
        subject_type: "diner",
        subject_id: w.ana,
        before: { active: true },
        after: { active: false },
        places: `cafe:${w.norte}`,
      }),
    ]);
    // Listed again, Ana is active again.
    const back = await run(db, sheet(HEAD, ["Ana Quispe Mamani", "40000001", "Contrata Uno", "Comedor Norte"]));
    expect(back.counts.updated).toBe(1);
    expect(dinerOf(db, "40000001")?.active).toBe(1);
  });
});

describe("updating", () => {
  test("an empty cell keeps the stored value; a filled one changes it; the default cafe moves a listed diner", async () => {
    const { db, w } = setup();
    await run(
      db,
      sheet(
        ["Nombre", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"],
        ["Ana Quispe Mamani", "40000001", "911222333", "Contrata Uno", "Comedor Norte", "Staff"],
      ),
    );
    expect(dinerOf(db, "40000001")).toMatchObject({ phone: "911222333", level_id: 2 });
    const blanks = sheet(
      ["Nombre", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"],
      [null, "40000001", null, null, null, null],
    );
    const preview = previewDinerImport(db, EVERYTHING, blanks);
    expect([preview.problems, preview.unchanged]).toEqual([[], 1]);
    const changed = previewDinerImport(
      db,
      EVERYTHING,
      sheet(
        ["Nombre", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"],
        [null, "40000001", "900000000", null, null, "Master"],
      ),
    );
    expect(changed.changes).toEqual([
      { row: 2, kind: "update", documentNumber: "40000001", name: "Ana Quispe Mamani", fields: ["phone", "level"] },
    ]);
    // A file for Sur (no cafe column, default cafe Sur) moves Ana there.
    const moved = await run(db, sheet(["Nombre", "DNI", "Empresa"], [null, "40000001", null]), {
      defaultCafeId: w.sur,
    });
    expect(moved.counts.updated).toBe(1);
    expect(dinerOf(db, "40000001")).toMatchObject({ cafe_id: w.sur, phone: "911222333", level_id: 2 });
    const entry = auditEntries(db).findLast((a) => a.action === "diner.updated");
    expect(entry).toMatchObject({
      subject_id: w.ana,
      before: { cafeId: w.norte },
      after: { cafeId: w.sur },
      places: `cafe:${w.norte},cafe:${w.sur}`,
    });
  });

  test("importing the same file again changes nothing and writes no audit entry", async () => {
    const { db } = setup();
    const file = sheet(
      HEAD,
      ["Nuevo Uno", "45000110", "Contrata Uno", "Comedor Norte"],
      ["Ana Quispe Mamani", "40000001", "Contrata Uno", "Comedor Norte"],
    );
    const first = await run(db, file);
    expect(first.counts).toEqual({ created: 1, updated: 0, unchanged: 1, deactivated: 0 });
    const before = { diners: allDiners(db), audit: auditEntries(db) };
    const second = await run(db, file);
    expect(second.counts).toEqual({ created: 0, updated: 0, unchanged: 2, deactivated: 0 });
    expect({ diners: allDiners(db), audit: auditEntries(db) }).toEqual(before);
    expect(ledger(db).map((l) => l.state)).toEqual(["succeeded", "succeeded"]);
    expect(importOfFile(db, SOURCE.sha256)?.id).toBe(second.importId);
  });
});

describe("audit", () => {
  test("each created and changed diner is audited as on the page, and the import once", async () => {
    const { db, w } = setup();
    const { importId } = await run(
      db,
      sheet(
        ["Nombre", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"],
        ["Nueva Persona", "45000120", "911000111", "Contrata Dos", "Comedor Sur", "Employee"],
        ["Ana Quispe", "40000001", null, null, null, null],
      ),
    );
    const entries = auditEntries(db);
    expect(entries.map((a) => a.action)).toEqual(["diner.created", "diner.updated", "diner.import"]);
    const created = dinerOf(db, "45000120")!;
    expect(entries[0]).toMatchObject({
      subject_type: "diner",
      subject_id: created.id,
      before: null,
      after: {
        name: "Nueva Persona",
        documentType: "dni",
        documentNumber: "45000120",
        phone: "911000111",
        subdealershipId: w.otraContrata,
        cafeId: w.sur,
        levelId: 3,
        active: true,
      },
      places: `cafe:${w.sur}`,
    });
    expect(entries[1]).toMatchObject({
      subject_id: w.ana,
      before: { name: "Ana Quispe Mamani" },
      after: { name: "Ana Quispe" },
      places: `cafe:${w.norte}`,
    });
    expect(entries[2]).toMatchObject({
      subject_type: "diner_import",
      subject_id: importId,
      after: {
        file: "trabajadores.xlsx",
        sha256: SOURCE.sha256,
        via: "page",
        jobId: null,
        rows: 2,
        counts: { created: 1, updated: 1, unchanged: 0, deactivated: 0 },
        result: "succeeded",
      },
      places: `cafe:${w.sur}`,
    });
    const actor = db.$client.query("SELECT DISTINCT actor_id, actor_label FROM audit_log").all();
    expect(actor).toEqual([{ actor_id: 1, actor_label: "jefa@mesa.test" }]);
    expect(ledger(db)[0]).toMatchObject({
      state: "succeeded",
      created: 1,
      updated: 1,
      unchanged: 0,
      rows: 2,
      via: "page",
    });
    expect(undoRows(db)).toBe(0);
  });

  test("a file refused before its rows were read is in the ledger and the audit; importOfFile finds the latest", () => {
    const { db } = setup();
    expect(importOfFile(db, "b".repeat(64))).toBeNull();
    const id = recordRefusedImport(
      db,
      ACTOR,
      { fileName: "cifrado.xlsx", sha256: "b".repeat(64), via: "inbox", jobId: null },
      {
        key: "import.encrypted",
      },
    );
    expect(importOfFile(db, "b".repeat(64))).toEqual({ id, state: "refused", finishedAt: expect.any(Date) });
    expect(auditEntries(db)).toEqual([
      expect.objectContaining({
        action: "diner.import",
        subject_id: id,
        after: expect.objectContaining({
          file: "cifrado.xlsx",
          via: "inbox",
          result: "refused",
          message: { key: "import.encrypted" },
        }),
        places: "",
      }),
    ]);
  });
});

describe("the plan", () => {
  test("a diner changed since the preview refuses the confirmation with the new preview, writing nothing", async () => {
    const { db, w } = setup();
    const rows = [
      HEAD,
      ["Ana Renombrada", "40000001", "Contrata Uno", "Comedor Norte"],
      ["Nueva", "45000130", "Contrata Uno", "Comedor Norte"],
    ];
    // As on the page: the preview and the confirmation each read the file.
    const preview = previewDinerImport(db, EVERYTHING, sheet(...rows));
    const file = sheet(...rows);
    updateDiner(
      db,
      ACTOR,
      EVERYTHING,
      w.ana,
      { name: "Ana Cambiada", document_number: "40000001", subdealership_id: w.contrata, cafe_id: w.norte },
      SALE_SETTINGS,
    );
    const before = snapshot(db);
    const error = await rejection(run(db, file, { expectedPlan: preview.plan }));
    expect(error).toBeInstanceOf(PlanChanged);
    expect((error as PlanChanged<DinerImportPreview>).plan.plan).not.toBe(preview.plan);
    expect(snapshot(db)).toEqual(before);
    expect(ledger(db).map((l) => [l.state, l.message_key])).toEqual([
      ["refused", "diners.import_refused_plan_changed"],
    ]);
    // The new preview's plan imports.
    await run(db, file, { expectedPlan: (error as PlanChanged<DinerImportPreview>).plan.plan });
    expect(dinerOf(db, "40000001")?.name).toBe("Ana Renombrada");
  });

  /** A new diner and Ana renamed, with an onProgress that counts how many times the rows are checked. */
  const countedChecks = () => {
    let checks = 0;
    return {
      file: sheet(
        HEAD,
        ["Nueva", "45000130", "Contrata Uno", "Comedor Norte"],
        ["Ana Renombrada", "40000001", "Contrata Uno", "Comedor Norte"],
      ),
      onProgress: (step: string, done: number) => void (step === "checking" && done === 0 && checks++),
      checked: () => checks,
    };
  };

  test("a sheet just checked is written without checking it again when nothing it read has changed", async () => {
    const { db } = setup();
    const { file, onProgress, checked } = countedChecks();
    const preview = previewDinerImport(db, EVERYTHING, file, { onProgress });
    // Sales and other writes elsewhere in the database do not count.
    db.$client.exec("UPDATE cafes SET time_zone = time_zone");
    const { counts } = await run(db, file, { expectedPlan: preview.plan, onProgress });
    expect(checked()).toBe(1);
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 0, deactivated: 0 });
    expect(dinerOf(db, "40000001")?.name).toBe("Ana Renombrada");
    // A check is written once: the same plan confirmed again is checked again (and is no longer the plan).
    expect(await rejection(run(db, file, { expectedPlan: preview.plan, onProgress }))).toBeInstanceOf(PlanChanged);
    expect(checked()).toBe(2);
  });

  test("a change since the check has the rows checked again: a diner edited, one registered, a cafe renamed", async () => {
    const changes: [string, (db: Db, w: ReturnType<typeof setup>["w"]) => void][] = [
      [
        "edited",
        (db, w) =>
          void updateDiner(
            db,
            ACTOR,
            EVERYTHING,
            w.ana,
            { name: "Ana Cambiada", document_number: "40000001", subdealership_id: w.contrata, cafe_id: w.norte },
            SALE_SETTINGS,
          ),
      ],
      // The file's row has no type: the number registered meanwhile as a passport is that diner, not a new DNI.
      [
        "registered",
        (db, w) =>
          void createDiner(
            db,
            ACTOR,
            EVERYTHING,
            {
              name: "Otra",
              document_type: "pas",
              document_number: "45000130",
              subdealership_id: w.contrata,
              cafe_id: w.norte,
            },
            SALE_SETTINGS,
          ),
      ],
      [
        "renamed",
        (db, w) => void db.$client.prepare("UPDATE cafes SET name = 'Comedor Nuevo' WHERE id = ?").run(w.sur),
      ],
    ];
    for (const [what, change] of changes) {
      const { db, w } = setup();
      const { file, onProgress, checked } = countedChecks();
      const preview = previewDinerImport(db, EVERYTHING, file, { onProgress });
      change(db, w);
      const before = snapshot(db);
      const outcome = await run(db, file, { expectedPlan: preview.plan, onProgress }).then(
        () => "imported",
        (error: unknown) => (error instanceof PlanChanged ? "plan changed" : String(error)),
      );
      expect({ what, checked: checked() }).toEqual({ what, checked: 2 });
      if (what === "renamed") {
        // Checked again, the plan is the same (the file does not name that cafe): it is written.
        expect(outcome).toBe("imported");
      } else {
        expect({ what, outcome }).toEqual({ what, outcome: "plan changed" });
        expect(snapshot(db)).toEqual(before);
        expect(ledger(db).map((l) => [l.state, l.message_key])).toEqual([
          ["refused", "diners.import_refused_plan_changed"],
        ]);
      }
    }
  });
});

describe("writing in chunks", () => {
  const many = (count: number, from = 47_000_000) =>
    Array.from(
      { length: count },
      (_, i) => [`Persona ${i}`, String(from + i), "Contrata Uno", "Comedor Norte"] as CellValue[],
    );

  test("a diner registered meanwhile with a document of a later chunk stops the import, saying who and which document", async () => {
    const { db, w } = setup();
    const file = sheet(HEAD, ["Ana Cambiada", "40000001", "Contrata Uno", "Comedor Sur"], ...many(7));
    const preview = previewDinerImport(db, EVERYTHING, file);
    const before = snapshot(db);
    const saving: number[][] = [];
    const error = await rejection(
      run(db, file, {
        chunkSize: 2,
        expectedPlan: preview.plan,
        onProgress: (step, done, total) => {
          if (step !== "saving") return;
          saving.push([done, total]);
          // The new diners go first (47000000 to 47000006), then Ana's change: 47000005 is in the third chunk.
          if (done === 4)
            db.$client
              .query(
                "INSERT INTO diners (document_type, document_number, name, subdealership_id, cafe_id, created_at, updated_at) VALUES ('dni', '47000005', 'Llegó Antes', ?, ?, 0, 0)",
              )
              .run(w.contrata, w.norte);
        },
      }),
    );
    expect(saving).toEqual([
      [0, 8],
      [2, 8],
      [4, 8],
    ]);
    expect(error).toBeInstanceOf(PlanChanged);
    const stopped = { name: "Llegó Antes", document: "DNI 47000005" };
    expect((error as PlanChanged<DinerImportPreview>).detail).toEqual({
      key: "diners.import_stopped_registered",
      params: stopped,
    });
    // Everything is as before, but for the diner registered meanwhile; the undo log is gone.
    const after = snapshot(db);
    expect(after.diners.filter((d) => d.name !== "Llegó Antes")).toEqual(before.diners);
    expect(after.audit).toEqual(before.audit);
    expect(undoRows(db)).toBe(0);
    expect(ledger(db).map((l) => [l.state, l.message_key, JSON.parse(l.message_params!)])).toEqual([
      ["rolled_back", "diners.import_stopped_registered", stopped],
    ]);
    expect(auditEntries(db).at(-1)).toMatchObject({ action: "diner.import", after: { result: "rolled_back" } });
    // The new preview says what the file would do now: 47000005 is there, to be renamed.
    expect((error as PlanChanged<DinerImportPreview>).plan).toMatchObject({ created: 6, updated: 2, unchanged: 0 });
  });

  test("the diners of an unfinished import are found by nobody and sold nothing; its last commit shows them all", async () => {
    const { db, w } = setup();
    const file = sheet(HEAD, ["Ana Cambiada", "40000001", "Contrata Uno", "Comedor Sur"], ...many(6));
    const seen: { done: number; found: number; sale: string; name: number; cafeCount: number }[] = [];
    const sell = (key: string) => {
      try {
        recordSale(
          db,
          ACTOR,
          EVERYTHING,
          {
            key,
            cafe_id: w.norte,
            document_number: "47000000",
            service_date: dateIn("America/Lima", NOW),
            sale_type: "credit",
            lines: [{ service_id: w.alm, quantity: 1 }],
          },
          SALE_SETTINGS,
          { backdate: false },
          undefined,
          NOW,
        );
        return "sold";
      } catch (error) {
        return keyOf((error as ValidationFailed).errors.document_number);
      }
    };
    const visibleAt = (cafeId: number) =>
      db.$client.query("SELECT count(*) FROM visible_diners WHERE cafe_id = ?").values(cafeId)[0][0] as number;
    const norteBefore = visibleAt(w.norte);
    await run(db, file, {
      chunkSize: 2,
      onProgress: (step, done) => {
        if (step !== "saving" || done === 0 || done === 7) return;
        seen.push({
          done,
          found: [...Array(6).keys()].filter((i) => findDinerByDocument(db, { type: "dni", number: `4700000${i}` }))
            .length,
          sale: sell(`meanwhile-${done}`),
          name: searchDiners(db, EVERYTHING, "Persona").length,
          cafeCount: visibleAt(w.norte),
        });
      },
    });
    expect(seen).toEqual(
      [2, 4, 6].map((done) => ({ done, found: 0, sale: "sales.diner_unknown", name: 0, cafeCount: norteBefore })),
    );
    // Written whole: all six at once, and the first sale to one of them goes through.
    expect([...Array(6).keys()].every((i) => findDinerByDocument(db, { type: "dni", number: `4700000${i}` }))).toBe(
      true,
    );
    expect(searchDiners(db, EVERYTHING, "Persona")).toHaveLength(6);
    expect(sell("meanwhile-after")).toBe("sold");
  });

  test("registering by hand a document an unfinished import already wrote stops the import: the person by hand stays", async () => {
    const { db, w } = setup();
    const file = sheet(HEAD, ...many(6));
    let registered = 0;
    const error = await rejection(
      run(db, file, {
        chunkSize: 2,
        onProgress: (step, done) => {
          if (step === "saving" && done === 4)
            registered = createDiner(
              db,
              ACTOR,
              EVERYTHING,
              {
                name: "Rosa A Mano",
                document_type: "dni",
                document_number: "47000001",
                subdealership_id: w.contrata,
                cafe_id: w.norte,
              },
              { dniLength: 8 },
            ).id;
        },
      }),
    );
    expect(error).toBeInstanceOf(PlanChanged);
    const stopped = { name: "Rosa A Mano", document: "DNI 47000001" };
    expect((error as PlanChanged<DinerImportPreview>).detail).toEqual({
      key: "diners.import_stopped_registered",
      params: stopped,
    });
    // Nothing of the import is left; the person registered by hand is, with their own audit entry.
    expect(
      allDiners(db)
        .filter((d) => d.document_number.startsWith("4700000"))
        .map((d) => [d.id, d.name]),
    ).toEqual([[registered, "Rosa A Mano"]]);
    expect(
      auditEntries(db)
        .filter((a) => a.action === "diner.created")
        .map((a) => a.subject_id),
    ).toEqual([registered]);
    expect(ledger(db).map((l) => [l.state, l.message_key, JSON.parse(l.message_params!)])).toEqual([
      ["rolled_back", "diners.import_stopped_registered", stopped],
    ]);
    // The preview of the same file now updates Rosa (renamed to the file's name) and creates the five others.
    expect((error as PlanChanged<DinerImportPreview>).plan).toMatchObject({ created: 5, updated: 1 });
  });

  test("editing a diner to a document an unfinished import already wrote stops the import as well", async () => {
    const { db, w } = setup();
    const ana = dinerOf(db, "40000001")!;
    const error = await rejection(
      run(db, sheet(HEAD, ...many(6)), {
        chunkSize: 2,
        onProgress: (step, done) => {
          if (step === "saving" && done === 2)
            updateDiner(
              db,
              ACTOR,
              EVERYTHING,
              ana.id,
              {
                name: ana.name,
                document_type: "dni",
                document_number: "47000000",
                subdealership_id: w.contrata,
                cafe_id: w.norte,
              },
              { dniLength: 8 },
            );
        },
      }),
    );
    expect((error as PlanChanged<DinerImportPreview>).detail).toMatchObject({
      key: "diners.import_stopped_registered",
      params: { name: ana.name, document: "DNI 47000000" },
    });
    expect(
      allDiners(db)
        .filter((d) => d.document_number.startsWith("4700000"))
        .map((d) => d.id),
    ).toEqual([ana.id]);
  });

  test("an exception mid-way undoes everything and is thrown; a sale to one of its diners meanwhile was refused", async () => {
    const { db, w } = setup();
    const file = sheet(HEAD, ...many(6));
    const before = snapshot(db);
    let meanwhile: unknown = null;
    const error = await rejection(
      run(db, file, {
        chunkSize: 2,
        onProgress: (step, done) => {
          if (step !== "saving") return;
          if (done === 2)
            meanwhile = (() => {
              try {
                return recordSale(
                  db,
                  ACTOR,
                  EVERYTHING,
                  {
                    key: "import-meanwhile-1",
                    cafe_id: w.norte,
                    document_number: "47000000",
                    service_date: dateIn("America/Lima", NOW),
                    sale_type: "credit",
                    lines: [{ service_id: w.alm, quantity: 1 }],
                  },
                  SALE_SETTINGS,
                  { backdate: false },
                  undefined,
                  NOW,
                );
              } catch (refusal) {
                return refusal;
              }
            })();
          if (done === 4) throw new Error("disk on fire");
        },
      }),
    );
    expect((error as Error).message).toBe("disk on fire");
    expect(meanwhile).toBeInstanceOf(ValidationFailed);
    expect(snapshot(db)).toEqual(before);
    const [entry] = ledger(db);
    expect([entry.state, entry.message_key, JSON.parse(entry.message_params!)]).toEqual([
      "rolled_back",
      "diners.import_rolled_back_error",
      { detail: "disk on fire" },
    ]);
    expect(undoRows(db)).toBe(0);
  });

  test("a failure in the first chunk leaves the import failed, nothing written", async () => {
    const { db, w } = setup();
    const file = sheet(HEAD, ...many(3));
    const preview = previewDinerImport(db, EVERYTHING, file);
    const before = snapshot(db);
    const error = await rejection(
      run(db, file, {
        expectedPlan: preview.plan,
        onProgress: (step, done) => {
          if (step === "saving" && done === 0)
            db.$client
              .query(
                "INSERT INTO diners (document_type, document_number, name, subdealership_id, cafe_id, created_at, updated_at) VALUES ('dni', '47000002', 'Primero', ?, ?, 0, 0)",
              )
              .run(w.contrata, w.norte);
        },
      }),
    );
    expect(error).toBeInstanceOf(PlanChanged);
    expect(snapshot(db).diners.filter((d) => d.name !== "Primero")).toEqual(before.diners);
    expect(ledger(db).map((l) => l.state)).toEqual(["failed"]);
  });

  test("only one import writes at a time", async () => {
    const { db } = setup();
    let second: unknown = null;
    await run(db, sheet(HEAD, ...many(4)), {
      chunkSize: 1,
      onProgress: (step, done) => {
        if (step === "saving" && done === 1)
          second = run(db, sheet(HEAD, ...many(2, 48_000_000))).catch((error: unknown) => error);
      },
    });
    const refusal = await (second as unknown as Promise<unknown>);
    expect(refusal).toBeInstanceOf(Conflict);
    expect((refusal as Conflict).detail).toEqual({ key: "diners.import_busy", params: undefined });
    expect(dinerOf(db, "48000000")).toBeUndefined();
    expect(dinerOf(db, "47000003")).toBeDefined();
  });

  test("progress: checking every thousand rows, saving per chunk", async () => {
    const { db } = setup();
    const calls: [string, number, number][] = [];
    await run(db, sheet(HEAD, ...many(2500)), {
      chunkSize: 1000,
      onProgress: (step, done, total) => calls.push([step, done, total]),
    });
    expect(calls).toEqual([
      ["checking", 0, 2500],
      ["checking", 1000, 2500],
      ["checking", 2000, 2500],
      ["checking", 2500, 2500],
      ["saving", 0, 2500],
      ["saving", 1000, 2500],
      ["saving", 2000, 2500],
      ["saving", 2500, 2500],
    ]);
    expect(allDiners(db)).toHaveLength(2504);
    expect(auditEntries(db)).toHaveLength(2501);
  });
});

describe("recovery", () => {
  test("an import whose process died mid-way is undone once its lease runs out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mesa-diner-recovery-"));
    try {
      const path = join(dir, "mesa.sqlite");
      const { db } = setup(path);
      const before = snapshot(db);
      // A writer in another process, killed after its second chunk.
      const script = `
        import { openDatabase } from ${JSON.stringify(join(import.meta.dir, "../../db"))};
        import { importDiners } from ${JSON.stringify(join(import.meta.dir, "diner-import"))};
        const db = openDatabase(${JSON.stringify(path)});
        const rows = [["Nombre", "DNI", "Subcontrata", "Comedor"], ["Ana Otra", "40000001", "Contrata Dos", "Comedor Sur"]];
        for (let i = 0; i < 6; i++) rows.push(["Persona " + i, String(49000000 + i), "Contrata Uno", "Comedor Norte"]);
        await importDiners(db, { userId: 1, label: "jefa@mesa.test" }, { all: true, cafeIds: new Set(), headquartersIds: new Set(), businessIds: new Set() },
          { name: "Hoja1", firstRow: 1, rows }, {
            source: { fileName: "caida.xlsx", sha256: "c".repeat(64), via: "inbox" },
            chunkSize: 2,
            onProgress: (step, done) => { if (step === "saving" && done === 4) process.exit(9); },
          });
      `;
      const child = Bun.spawnSync([process.execPath, "-e", script], { stderr: "pipe" });
      expect({ code: child.exitCode, stderr: child.stderr.toString() }).toEqual({ code: 9, stderr: "" });
      expect(ledger(db).map((l) => l.state)).toEqual(["writing"]);
      // The new diners go first: two chunks wrote four of them, invisible.
      expect(allDiners(db).length).toBe(before.diners.length + 4);
      expect(db.$client.query("SELECT count(*) FROM visible_diners").values()[0][0]).toBe(before.diners.length);
      expect(undoRows(db)).toBe(2);

      // Its lease still runs: nothing is undone yet.
      expect(recoverDinerImports(db)).toBe(0);
      const later = new Date(Date.now() + 16_000);
      expect(recoverDinerImports(db, later)).toBe(1);
      expect(snapshot(db)).toEqual(before);
      expect(undoRows(db)).toBe(0);
      expect(ledger(db).map((l) => [l.state, l.message_key])).toEqual([
        ["rolled_back", "diners.import_rolled_back_stopped"],
      ]);
      expect(auditEntries(db)).toEqual([
        expect.objectContaining({
          action: "diner.import",
          after: expect.objectContaining({ file: "caida.xlsx", result: "rolled_back" }),
        }),
      ]);
      expect(recoverDinerImports(db, later)).toBe(0);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("property: a clean import or a refusal with nothing written", () => {
  const SUBS = ["Contrata Uno", "contrata dos", "20512345671", "20512345682"];
  const CAFES = ["Comedor Norte", "comedor sur", "Unidad Central/Comedor Norte"];
  const LEVELS = ["Master", "staff", "EMPLOYEE", null];
  const row = fc.record({
    first: fc.constantFrom("Ana", "Rosa", "Juan", "Teodoro", "Lucía"),
    last: fc.constantFrom("Quispe", "Ccama", "Huamán", "Ñahui"),
    dni: fc.integer({ min: 1, max: 99_999_999 }),
    asNumber: fc.boolean(),
    sub: fc.constantFrom(...SUBS),
    cafe: fc.constantFrom(...CAFES),
    level: fc.constantFrom(...LEVELS),
    phone: fc.option(fc.integer({ min: 900_000_000, max: 999_999_999 }), { nil: null }),
  });
  const mutation = fc.oneof(
    fc.record({
      kind: fc.constant("cell" as const),
      row: fc.nat(),
      column: fc.nat(6),
      value: fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.boolean()),
    }),
    fc.record({ kind: fc.constant("header" as const), column: fc.nat(6), value: fc.string({ maxLength: 12 }) }),
    fc.record({ kind: fc.constant("duplicate" as const), row: fc.nat() }),
  );

  test("random valid and mutated rows", async () => {
    // Each run starts from a copy of one migrated database (migrating is most of a run's time).
    const dir = mkdtempSync(join(tmpdir(), "mesa-diner-property-"));
    const template = join(dir, "template.sqlite");
    const made = setup(template).db.$client;
    made.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    made.close();
    let runs = 0;
    const fresh = () => {
      const path = join(dir, `run-${++runs}.sqlite`);
      copyFileSync(template, path);
      return openDatabase(path);
    };
    const HEADER = ["Nombres", "Apellidos", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"];
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 12 }),
        fc.array(mutation, { maxLength: 3 }),
        async (rows, mutations) => {
          const db = fresh();
          const cells: CellValue[][] = [
            [...HEADER],
            ...rows.map((r) => {
              const dni = String(r.dni).padStart(8, "0");
              return [r.first, r.last, r.asNumber ? r.dni : dni, r.phone, r.sub, r.cafe, r.level];
            }),
          ];
          for (const m of mutations) {
            if (m.kind === "header") cells[0][m.column] = m.value;
            else if (m.kind === "cell") cells[1 + (m.row % rows.length)][m.column] = m.value;
            else cells.push([...cells[1 + (m.row % rows.length)]]);
          }
          const file = sheet(...cells);
          const before = snapshot(db);
          const preview = previewDinerImport(db, EVERYTHING, file);
          let outcome: unknown;
          try {
            outcome = await run(db, file, { expectedPlan: preview.plan, chunkSize: 3 });
          } catch (error) {
            outcome = error;
          }
          if (outcome instanceof ImportRefused || preview.problemCount > 0) {
            expect(outcome).toBeInstanceOf(ImportRefused);
            expect(preview.problems.length).toBeGreaterThan(0);
            expect(snapshot(db)).toEqual(before);
            db.$client.close();
            return;
          }
          // A clean import: every row's diner is there with what the row says.
          const { counts } = outcome as { counts: { created: number; updated: number; unchanged: number } };
          expect(counts.created + counts.updated + counts.unchanged).toBe(preview.rows);
          const header = cells[0].map((h) => foldText(String(h ?? "")));
          const at = (name: string) => header.indexOf(name);
          for (const r of cells.slice(1)) {
            const raw = r[at("dni")];
            // A DNI of fewer digits gets its leading zeros back, from a number cell or from text.
            const text = String(raw).trim();
            const number = /^[0-9]+$/.test(text) ? text.padStart(8, "0") : text;
            const diner = dinerOf(db, number);
            expect(diner).toBeDefined();
            const name = [r[at("nombres")], r[at("apellidos")]]
              .map((c) => String(c ?? "").trim())
              .filter(Boolean)
              .join(" ");
            if (name) expect(diner!.name).toBe(name.replace(/\s+/g, " "));
            expect(diner!.active).toBe(1);
          }
          expect(undoRows(db)).toBe(0);
          // Again: nothing changes.
          const again = previewDinerImport(db, EVERYTHING, file);
          expect([again.created, again.updated, again.problemCount]).toEqual([0, 0, 0]);
          db.$client.close();
        },
      ),
      { numRuns: 80 },
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("levels by the names people read", () => {
  test("a built-in level is found by its Spanish name too: Obrero is Laborer, Empleado is Employee", async () => {
    const { db } = setup();
    await run(
      db,
      sheet(
        ["Nombre", "DNI", "Celular", "Subcontrata", "Comedor", "Nivel"],
        ["Ana Quispe Mamani", "40000001", null, "Contrata Uno", "Comedor Norte", "Obrero"],
        ["Beto Huamán", "40000002", null, "Contrata Uno", "Comedor Norte", "empleado"],
      ),
    );
    expect(dinerOf(db, "40000001")).toMatchObject({ level_id: 4 });
    expect(dinerOf(db, "40000002")).toMatchObject({ level_id: 3 });
  });
});
