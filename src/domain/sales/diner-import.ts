/**
 * Diner spreadsheets (issue 15): the weekly lists of workers client companies send, loaded from the Dinners page's
 * Excel dialog, `./mesa import:diners` and the inbox. The first sheet's first non-blank row is the header, in
 * Spanish or English, in any order, case, accents or spacing; each row below it is a diner, upserted by document.
 *
 * Check first, then all or nothing. `previewDinerImport` reads every row against the database (subdealerships,
 * cafes, levels, diners and the blacklist, each loaded once into a map) and says what would be created, updated or
 * left unchanged, every problem by row and column, the blacklisted documents, the leavers, and `plan`, a fingerprint
 * of exactly what would be written. `importDiners` checks again and, when there is no problem (and the plan is the
 * one confirmed), writes; a sheet this process checked, when nothing the check read has changed since (the command
 * line, the inbox), is written as checked, without checking it again (planToWrite).
 *
 * Short locks: the write is cut in chunks, each its own IMMEDIATE transaction sized to hold the write lock about
 * CHUNK_MS, with a pause between them in which sales get in (another process's sale asks for the lock every
 * millisecond: beginImmediate in src/db.ts), and a longer one now and then for other writers. Each chunk writes, in
 * the same transaction, what undoes it (diner_import_undo), and renews the import's lease in the ledger
 * (diner_imports). Should anything fail mid-way — a diner changed by someone else meanwhile (every update is guarded
 * by the values it was planned from), an exception, a crash — the undo log puts the diners and their audit entries
 * back, and the ledger says rolled_back. A crashed writer's import is undone by `recoverDinerImports`, run before
 * each import and at every start, once its lease has run out. Only one import writes at a time.
 *
 * Cells: an empty cell keeps the stored value. The default cafe (the dialog's choice, `--cafe`) stands for a blank
 * cafe cell or a missing cafe column on every row, so a diner listed in a file for that cafe is moved there. A
 * diner listed while inactive is active again: the list names the people who work now, as the leavers are those
 * it no longer names.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Database } from "bun:sqlite";
import { immediateTransaction, type Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { COMPANY_WIDE, recordAudit, type Actor } from "../audit";
import {
  documentProblem,
  documentTypeOfSunatCode,
  normalizeDocumentNumber,
  type DocumentSettings,
  type DocumentType,
} from "../../shared/documents";
import { Conflict } from "../errors";
import { message, type Message } from "../../shared/message";
import type { TranslationParams } from "../../shared/i18n";
import { foldText } from "../../shared/fold";
import { BUILT_IN_LEVELS } from "../../shared/food/built-in-levels";
import type { CellValue, SheetRows } from "../spreadsheets/read";
import type {
  Column,
  DinerField,
  DinerImportPreview,
  DinerImportProblem,
  Field,
  Header,
} from "../../shared/sales/types";
export type { DinerField, DinerImportPreview, DinerImportProblem } from "../../shared/sales/types";

// ---------------------------------------------------------------------------------------------------------------
// The contract (docs: /tmp/briefs/diner-import-contract.md, section 2)

/** The most problems, leavers and changes a preview lists; the counts cover them all. */
export const MAX_LISTED = 200;
/** How long a writer's lease lasts: a writer silent for longer is taken as stopped, and its import is undone. */
export const LEASE_MS = 60_000;
/**
 * How long one write transaction should hold the database's write lock (unless the caller says: `chunkMs`). Each
 * chunk is sized from how fast the one before it went (FIRST_CHUNK_ROWS first, then between MIN_CHUNK_ROWS and
 * MAX_CHUNK_ROWS): on a slower or busier machine the chunks are smaller, so a sale never waits long behind one.
 * Every commit writes again each index page its rows touched (new diners' names land all over the index by cafe and
 * name), so fewer, larger chunks write less: 200 ms wrote 100,000 diners about a fifth faster than 100 ms in
 * `npm run bench:diners`. An import in the server's own process (the Dinners page's job) holds its event loop
 * meanwhile too, so it asks for less (SERVER_CHUNK_MS).
 */
export const CHUNK_MS = 200;
/** The chunks of an import that runs in the server's process: its requests wait for each one. */
export const SERVER_CHUNK_MS = 50;
const FIRST_CHUNK_ROWS = 1000;
const MIN_CHUNK_ROWS = 100;
const MAX_CHUNK_ROWS = 10_000;
/**
 * The pause between chunks, lock free: longer than a waiting sale's poll (beginImmediate asks every
 * WRITE_LOCK_POLL_MS), so it gets in.
 */
export const CHUNK_PAUSE_MS = 4;
/**
 * After LONG_PAUSE_EVERY_MS of writing, a longer pause: other writers wait with SQLite's own busy handler, which
 * sleeps up to 100 ms between its tries, and may miss the short pauses; in this one they all get in.
 */
const LONG_PAUSE_EVERY_MS = 2000;
const LONG_PAUSE_MS = 120;
/** The page cache (KiB) while writing: a chunk's pages (its diners' index entries lie all over) stay in memory. */
const WRITE_CACHE_KIB = 64 * 1024;
/** How often (in rows) checking reports its progress. */
const CHECK_PROGRESS_EVERY = 1000;
/** The DNI length when the caller gives none: DNI_LENGTH's default. */
const DEFAULT_DNI_LENGTH = 8;

export interface DinerImportOptions {
  /** Cafe for rows whose cafe cell is blank or whose file has no cafe column (--cafe, the dialog's choice). */
  defaultCafeId?: number | null;
  /** Deactivate the leavers (active diners of the file's subdealerships at its cafes who are not in the file). */
  deactivateLeavers?: boolean;
  onProgress?: (step: "checking" | "saving", done: number, total: number) => void;
  /** Digits of a DNI (the DNI_LENGTH setting, config.dniLength): a DNI of fewer digits is padded with zeros. 8 when not given. */
  dniLength?: number;
  /** Rows per write transaction, for tests (when not given, chunks are sized to hold the lock about `chunkMs`). */
  chunkSize?: number;
  /** How long a chunk should hold the write lock: CHUNK_MS when not given (SERVER_CHUNK_MS in the server). */
  chunkMs?: number;
}

export interface DinerImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
}

export interface DinerImportSource {
  fileName: string;
  sha256: string;
  via: "page" | "cli" | "inbox";
  jobId?: number | null;
}

export type DinerImportState = "writing" | "succeeded" | "refused" | "failed" | "rolled_back";

/** Rows to fix: nothing was written. */
export class DinerImportRefused extends Error {
  constructor(readonly preview: DinerImportPreview) {
    super(`The diners file has problems (${preview.problemCount}): nothing was imported`);
  }
}

/** The data changed since the preview that was confirmed: nothing was written; `preview` is what it would do now. */
export class DinerImportPlanChanged extends Error {
  constructor(readonly preview: DinerImportPreview) {
    super("The diner import plan changed since it was previewed");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Headers

/** Each column's names, folded (lower case, no accents, punctuation as spaces). */
const HEADER_NAMES: Record<Field, string[]> = {
  name: ["name", "full name", "nombre", "nombre completo", "nombres y apellidos", "apellidos y nombres"],
  lastNames: ["apellidos", "apellido", "last name", "last names", "surname", "surnames"],
  firstNames: ["nombres", "first name", "first names", "given names"],
  document: [
    "document",
    "document number",
    "dni",
    "documento",
    "nro documento",
    "nro de documento",
    "numero de documento",
    "numero documento",
    "n documento",
    "no documento",
    "num documento",
    "doc",
    "nro doc",
    "documento de identidad",
    "id number",
  ],
  documentType: [
    "document type",
    "type of document",
    "tipo de documento",
    "tipo documento",
    "tipo doc",
    "tipo de doc",
    "tipo",
    "type",
  ],
  phone: [
    "phone",
    "phone number",
    "telephone",
    "mobile",
    "cell phone",
    "telefono",
    "celular",
    "movil",
    "numero de telefono",
  ],
  subdealership: [
    "subdealership",
    "subcontrata",
    "subconcesionaria",
    "contrata",
    "empresa",
    "company",
    "contractor",
    "ruc",
  ],
  cafe: ["cafe", "home cafe", "comedor", "comedor de origen", "unidad comedor", "unit cafe"],
  level: ["level", "nivel"],
};

const FIELD_BY_HEADER = new Map<string, Field>(
  Object.entries(HEADER_NAMES).flatMap(([field, names]) => names.map((name) => [name, field as Field] as const)),
);

/** A header as compared: folded, with punctuation ("Nro.", "N°", "Unidad/Comedor") read as spaces. */
function headerKey(text: string): string {
  return foldText(text)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function headerOf(row: CellValue[]): Header {
  const columns = new Map<Field, Column>();
  const unknownColumns: string[] = [];
  const repeated: string[] = [];
  row.forEach((cell, index) => {
    const header = cellText(cell);
    if (!header) return;
    const field = FIELD_BY_HEADER.get(headerKey(header));
    if (!field) unknownColumns.push(header);
    else if (columns.has(field)) repeated.push(header);
    else columns.set(field, { index, header });
  });
  // "Apellidos" and "Nombres" in two columns make the name "Nombres Apellidos" (as a person is called); one of them
  // alone is the name column. A Name column of its own wins, and the other two are then ignored.
  const name = columns.get("name");
  const first = columns.get("firstNames");
  const last = columns.get("lastNames");
  let nameParts: Column[];
  if (name) {
    for (const part of [first, last]) if (part) unknownColumns.push(part.header);
    nameParts = [name];
  } else nameParts = [first, last].filter((c) => c !== undefined);
  return { columns, unknownColumns, repeated, nameParts };
}

/** The columns an import needs that a header lacks (the cafe's, unless there is a default cafe). */
function missingColumns(
  header: Header,
  defaultCafeId: number | null,
): ("name" | "document" | "subdealership" | "cafe")[] {
  const missing: ("name" | "document" | "subdealership" | "cafe")[] = [];
  if (header.nameParts.length === 0) missing.push("name");
  if (!header.columns.has("document")) missing.push("document");
  if (!header.columns.has("subdealership")) missing.push("subdealership");
  if (!header.columns.has("cafe") && defaultCafeId === null) missing.push("cafe");
  return missing;
}

/** A row that is a title: one cell of text, as a title merged across the columns reads. */
function isTitle(row: CellValue[]): boolean {
  let texts = 0;
  for (const cell of row) {
    if (cell === null || cell === undefined || (typeof cell === "string" && cell.trim() === "")) continue;
    if (typeof cell !== "string" || ++texts > 1) return false;
  }
  return texts === 1;
}

/** The first row at or after `from` that is not blank (rows.length when there is none). */
function nonBlankFrom(rows: CellValue[][], from: number): number {
  let at = from;
  while (at < rows.length && isBlankRow(rows[at])) at++;
  return at;
}

/** A DNI as its digits: one of fewer digits than DNI_LENGTH gets its leading zeros back (docs/diner-imports.md). */
const DIGITS = /^[0-9]+$/;

/** A name as compared (subdealerships, cafes, levels): folded, single spaces. */
const nameKey = (text: string) => foldText(text).replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------------------------------
// Cells

/** Spaces a cell's text loses: at either end, doubled, or other than a plain space. */
const MESSY_SPACE = /^\s|\s$|\s\s|[^\S ]/;

function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  // An export writes text that would start a formula behind an apostrophe: read it back as it was.
  const cell = value.length > 1 && value.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return MESSY_SPACE.test(cell) ? cell.replace(/\s+/g, " ").trim() : cell;
}

const DOCUMENT_TYPE_NAMES = new Map<string, DocumentType>([
  ["dni", "dni"],
  ["l e", "dni"],
  ["documento nacional de identidad", "dni"],
  ["ce", "ce"],
  ["c e", "ce"],
  ["carne de extranjeria", "ce"],
  ["carnet de extranjeria", "ce"],
  ["foreign resident card", "ce"],
  ["pas", "pas"],
  ["pasaporte", "pas"],
  ["passport", "pas"],
]);

function documentTypeOf(text: string): DocumentType | null {
  return DOCUMENT_TYPE_NAMES.get(headerKey(text)) ?? documentTypeOfSunatCode(text);
}

const PHONE = /^[0-9+() -]*$/;

const joinNames = (first: string, last: string) => (first && last ? `${first} ${last}` : first || last);

// ---------------------------------------------------------------------------------------------------------------
// What the database holds, loaded once

interface DinerRow {
  id: number;
  documentType: DocumentType;
  documentNumber: string;
  name: string;
  phone: string;
  subdealershipId: number;
  cafeId: number;
  levelId: number | null;
  active: boolean;
}

/** The values an import sets (documents are the key and never change). */
interface DinerValues {
  name: string;
  phone: string;
  subdealershipId: number;
  cafeId: number;
  levelId: number | null;
  active: boolean;
}

const VALUE_KEYS = ["name", "phone", "subdealershipId", "cafeId", "levelId", "active"] as const;
type ValueKey = (typeof VALUE_KEYS)[number];
/** A changed value as the preview names it. */

const FIELD_NAME: Record<ValueKey, DinerField> = {
  name: "name",
  phone: "phone",
  subdealershipId: "subdealership",
  cafeId: "cafe",
  levelId: "level",
  active: "active",
};

interface CafeRow {
  id: number;
  name: string;
  unit: string;
  mine: string;
}

interface SubdealershipRow {
  id: number;
  name: string;
  ruc: string;
  dealership: string;
}

/**
 * Things kept by document, looked up by the number first: nearly every number has one type, so a lookup hashes the
 * number alone (a key joining type and number costs more than the rest of a row's check).
 */
class ByDocument<T extends { documentType: DocumentType }> {
  private readonly first = new Map<string, T>();
  /** Under `type:number`, those whose number is already kept under another type. */
  private readonly others = new Map<string, T>();

  set(number: string, value: T): void {
    const first = this.first.get(number);
    if (!first || first.documentType === value.documentType) this.first.set(number, value);
    else this.others.set(`${value.documentType}:${number}`, value);
  }

  get(type: DocumentType, number: string): T | undefined {
    const first = this.first.get(number);
    if (!first || first.documentType === type) return first;
    return this.others.get(`${type}:${number}`);
  }

  /** The type of the only thing kept under `number`, or null (none, or several types). */
  onlyType(number: string): DocumentType | null {
    const first = this.first.get(number);
    if (!first || this.others.size === 0) return first?.documentType ?? null;
    for (const type of ["dni", "ce", "pas"] as const)
      if (type !== first.documentType && this.others.has(`${type}:${number}`)) return null;
    return first.documentType;
  }
}

class World {
  readonly diners = new ByDocument<DinerRow>();
  readonly dinerList: DinerRow[] = [];
  readonly cafes = new Map<number, CafeRow>();
  readonly cafesByName = new Map<string, CafeRow[]>();
  readonly subdealerships = new Map<number, SubdealershipRow>();
  readonly subdealershipsByRuc = new Map<string, SubdealershipRow>();
  readonly subdealershipsByName = new Map<string, SubdealershipRow[]>();
  readonly levels = new Map<string, { id: number; name: string }>();
  readonly blacklist = new ByDocument<{ documentType: DocumentType; name: string; reason: string }>();

  constructor(client: Database) {
    for (const [id, documentType, documentNumber, name, phone, subdealershipId, cafeId, levelId, active] of client
      .prepare(
        "SELECT id, document_type, document_number, name, phone, subdealership_id, cafe_id, level_id, active FROM diners",
      )
      .values() as [number, DocumentType, string, string, string, number, number, number | null, number][]) {
      const diner: DinerRow = {
        id,
        documentType,
        documentNumber,
        name,
        phone,
        subdealershipId,
        cafeId,
        levelId,
        active: active === 1,
      };
      this.diners.set(documentNumber, diner);
      this.dinerList.push(diner);
    }
    for (const [id, name, unit, mine] of client
      .prepare(
        "SELECT c.id, c.name, u.name, m.name FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id",
      )
      .values() as [number, string, string, string][]) {
      const cafe = { id, name, unit, mine };
      this.cafes.set(id, cafe);
      push(this.cafesByName, nameKey(name), cafe);
    }
    for (const [id, name, ruc, dealership] of client
      .prepare("SELECT s.id, s.name, s.ruc, d.name FROM subdealerships s JOIN dealerships d ON d.id = s.dealership_id")
      .values() as [number, string, string, string][]) {
      const sub = { id, name, ruc, dealership };
      this.subdealerships.set(id, sub);
      this.subdealershipsByRuc.set(ruc, sub);
      push(this.subdealershipsByName, nameKey(name), sub);
    }
    for (const [id, name] of client.prepare("SELECT id, name FROM levels").values() as [number, string][])
      this.levels.set(nameKey(name), { id, name });
    // A built-in level is found by the name the pages show in either language too ("Obrero" is Laborer).
    for (const level of [...this.levels.values()]) {
      const words = BUILT_IN_LEVELS.get(level.name);
      if (!words) continue;
      for (const label of [words.es, words.en])
        if (!this.levels.has(nameKey(label))) this.levels.set(nameKey(label), level);
    }
    for (const [type, number, name, reason] of client
      .prepare("SELECT document_type, document_number, name, reason FROM blacklist")
      .values() as [DocumentType, string, string, string][])
      this.blacklist.set(number, { documentType: type, name, reason });
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

type Resolved<T> = { ok: true; value: T } | { ok: false; problem: Message };

/** A cafe written "Cafe", "Unit/Cafe" or "Mine/Unit/Cafe" (accents, case and spacing ignored). */
function resolveCafe(world: World, written: string): Resolved<CafeRow> {
  const parts = written.split("/").map(nameKey);
  let found: CafeRow[] = [];
  if (parts.length <= 3 && parts.every(Boolean)) {
    const [cafe, unit, mine] = [...parts].reverse();
    found = world.cafesByName.get(cafe) ?? [];
    if (unit !== undefined) found = found.filter((c) => nameKey(c.unit) === unit);
    if (mine !== undefined) found = found.filter((c) => nameKey(c.mine) === mine);
  }
  // A cafe really called "A/B" is found by its whole name.
  if (found.length === 0 && parts.length > 1) found = world.cafesByName.get(nameKey(written)) ?? [];
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length === 0) return { ok: false, problem: message("diners.import_cafe_unknown", { cafe: written }) };
  const units = new Set(found.map((c) => nameKey(`${c.unit}/${c.name}`)));
  const choices = found
    .slice(0, 10)
    .map((c) => (units.size === found.length ? `${c.unit}/${c.name}` : `${c.mine}/${c.unit}/${c.name}`))
    .join(", ");
  return { ok: false, problem: message("diners.import_cafe_ambiguous", { cafe: written, choices }) };
}

/** A subdealership written as its RUC, its name, or "Dealership/Subdealership". */
function resolveSubdealership(world: World, written: string): Resolved<SubdealershipRow> {
  const byRuc = world.subdealershipsByRuc.get(written.replace(/[\s-]/g, ""));
  if (byRuc) return { ok: true, value: byRuc };
  let found = world.subdealershipsByName.get(nameKey(written)) ?? [];
  const slash = written.indexOf("/");
  if (found.length === 0 && slash > 0) {
    const dealership = nameKey(written.slice(0, slash));
    found = (world.subdealershipsByName.get(nameKey(written.slice(slash + 1))) ?? []).filter(
      (s) => nameKey(s.dealership) === dealership,
    );
  }
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length === 0)
    return { ok: false, problem: message("diners.import_subdealership_unknown", { subdealership: written }) };
  const choices = found
    .slice(0, 10)
    .map((s) => `${s.dealership}/${s.name} (RUC ${s.ruc})`)
    .join(", ");
  return { ok: false, problem: message("diners.import_subdealership_ambiguous", { subdealership: written, choices }) };
}

// ---------------------------------------------------------------------------------------------------------------
// The plan

type Write =
  | { kind: "create"; row: number; documentType: DocumentType; documentNumber: string; values: DinerValues }
  | { kind: "update"; row: number; before: DinerRow; values: DinerValues; changed: ValueKey[] }
  | { kind: "deactivate"; before: DinerRow };

interface Planned {
  preview: DinerImportPreview;
  writes: Write[];
  /** The cafes the file's rows name (all within the scope): the audit entry of the import is about them. */
  cafeIds: number[];
  counts: DinerImportCounts;
  /** dataStamp of what the check read (null when it read nothing to write from). */
  stamp: string | null;
}

class Problems {
  readonly listed: DinerImportProblem[] = [];
  count = 0;
  add(row: number, column: string | null, m: Message): void {
    this.count++;
    if (this.listed.length < MAX_LISTED) this.listed.push({ row, column, message: m });
  }
}

function isBlankRow(cells: CellValue[] | undefined): boolean {
  if (!cells) return true;
  for (const cell of cells) {
    if (cell === null || cell === undefined || cell === "") continue;
    if (typeof cell !== "string" || cell.trim() !== "") return false;
  }
  return true;
}

/**
 * Works out what importing `sheet` would do. The database is read once, in one read transaction, into maps; the rows
 * are then checked against them, yielding every CHECK_PROGRESS_EVERY rows (so an import lets sales in meanwhile).
 */
function* planSteps(db: Db, scope: Scope, sheet: SheetRows, options: DinerImportOptions): Generator<void, Planned> {
  const settings: DocumentSettings = { dniLength: options.dniLength ?? DEFAULT_DNI_LENGTH };
  const onProgress = options.onProgress;
  const problems = new Problems();
  const unknownColumns: string[] = [];
  const blacklisted: DinerImportPreview["blacklisted"] = [];
  const changes: DinerImportPreview["changes"] = [];
  const writes: Write[] = [];
  const counts: DinerImportCounts = { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
  const empty = (rows = 0): Planned => ({
    preview: finish(rows, [], 0),
    writes: [],
    cafeIds: [],
    counts,
    stamp: null,
  });
  let headerAt: number | null = null;
  const finish = (rows: number, leavers: DinerImportPreview["leavers"], leaverCount: number): DinerImportPreview => ({
    sheet: sheet.name,
    headerRow: headerAt,
    rows,
    created: counts.created,
    updated: counts.updated,
    unchanged: counts.unchanged,
    problems: problems.listed,
    problemCount: problems.count,
    unknownColumns,
    blacklisted,
    leavers,
    leaverCount,
    changes,
    plan: "",
  });

  // The header: the first non-blank row, or the next non-blank one when the first is a title (one cell of text, as
  // a title merged across the columns reads) and that next row holds every column the import needs.
  const defaultCafeId = options.defaultCafeId ?? null;
  const rows = sheet.rows;
  let headerIndex = nonBlankFrom(rows, 0);
  if (headerIndex >= rows.length) {
    problems.add(sheet.firstRow, null, message("diners.import_no_header"));
    return withPlan(empty());
  }
  let header = headerOf(rows[headerIndex]);
  if (isTitle(rows[headerIndex])) {
    const next = nonBlankFrom(rows, headerIndex + 1);
    const below = next < rows.length ? headerOf(rows[next]) : null;
    if (below && missingColumns(below, defaultCafeId).length === 0) [headerIndex, header] = [next, below];
  }
  const headerRow = sheet.firstRow + headerIndex;
  headerAt = headerRow;
  const { columns, nameParts } = header;
  unknownColumns.push(...header.unknownColumns);
  for (const column of header.repeated)
    problems.add(headerRow, column, message("diners.import_duplicate_column", { column }));

  const { world, stamp } = db.transaction(() => ({ world: new World(db.$client), stamp: dataStamp(db.$client) }), {
    behavior: "deferred",
  });
  let defaultCafe: CafeRow | null = null;
  if (defaultCafeId !== null) {
    defaultCafe = world.cafes.get(defaultCafeId) ?? null;
    if (!defaultCafe || !reachesCafe(scope, defaultCafeId)) {
      problems.add(headerRow, null, message("diners.import_default_cafe_outside_scope"));
      defaultCafe = null;
    }
  }
  const missing = missingColumns(header, defaultCafeId);
  for (const field of missing) problems.add(headerRow, null, message(`diners.import_missing_column_${field}`));

  let dataRows = 0;
  for (let i = headerIndex + 1; i < rows.length; i++) if (!isBlankRow(rows[i])) dataRows++;
  if (missing.length || problems.count) return withPlan(empty(dataRows));
  if (dataRows === 0) {
    problems.add(headerRow, null, message("diners.import_no_rows"));
    return withPlan(empty());
  }

  const col = (field: Field) => columns.get(field);
  const documentColumn = col("document")!;
  const typeColumn = col("documentType");
  const phoneColumn = col("phone");
  const subColumn = col("subdealership")!;
  const cafeColumn = col("cafe");
  const levelColumn = col("level");
  const nameHeader = nameParts[0].header;

  // documentProblem compiles its pattern on every call, and its rules look at a number's type, length and kind of
  // characters only: its answer is kept per type, length and kind.
  const numberProblems = new Map<number, Message | null>();
  const TYPE_CODE: Record<DocumentType, number> = { dni: 0, ce: 1, pas: 2 };
  const numberProblem = (type: DocumentType, number: string): Message | null => {
    const kind = DIGITS.test(number) ? 0 : /^[A-Z0-9]+$/.test(number) ? 1 : -1;
    if (kind < 0 || number.length > 1000) return documentProblem({ type, number }, settings);
    const key = (TYPE_CODE[type] * 2 + kind) * 1024 + number.length;
    let problem = numberProblems.get(key);
    if (problem === undefined) numberProblems.set(key, (problem = documentProblem({ type, number }, settings)));
    return problem;
  };
  // The columns whose few values repeat on every row (type, subdealership, cafe, level): each cell's text is worked
  // out once per distinct value.
  const texts = new Map<CellValue | undefined, string>();
  const repeatedText = (cell: CellValue | undefined): string => {
    let text = texts.get(cell);
    if (text === undefined) texts.set(cell, (text = cellText(cell)));
    return text;
  };
  const levelMemo = new Map<string, { id: number; name: string } | null>();
  const cafeMemo = new Map<string, Resolved<CafeRow>>();
  const subMemo = new Map<string, Resolved<SubdealershipRow>>();
  const seen = new ByDocument<{ documentType: DocumentType; row: number }>();
  const inFile = new Set<number>();
  const fileCafes = new Set<number>();
  const fileSubs = new Set<number>();

  let done = 0;
  onProgress?.("checking", 0, dataRows);
  // One row's check, a plain function: the generator around it only counts rows and yields (JavaScriptCore
  // optimises a generator's body less).
  const checkRow = (cells: CellValue[], row: number): void => {
    const before = problems.count;

    // The document: the key.
    const typeText = typeColumn ? repeatedText(cells[typeColumn.index]) : "";
    const rawDocument = cells[documentColumn.index];
    let documentNumber =
      typeof rawDocument === "number" ? cellText(rawDocument) : normalizeDocumentNumber(cellText(rawDocument));
    let documentType: DocumentType | null = null;
    if (typeText) {
      documentType = documentTypeOf(typeText);
      if (!documentType)
        problems.add(row, typeColumn!.header, message("diners.import_document_type_unknown", { type: typeText }));
    } else {
      // No type: the type this number is registered with, else a DNI.
      documentType = world.diners.onlyType(documentNumber) ?? "dni";
    }
    // A DNI of fewer digits lost its leading zeros — in the spreadsheet (a number cell) or before it (a CSV, a column
    // made text afterwards): they are put back, whatever the cell.
    if (documentType === "dni" && documentNumber.length < settings.dniLength && DIGITS.test(documentNumber))
      documentNumber = documentNumber.padStart(settings.dniLength, "0");
    let existing: DinerRow | null = null;
    let valid = false;
    if (!documentNumber) problems.add(row, documentColumn.header, message("validation.required"));
    else if (documentType) {
      const wrong = numberProblem(documentType, documentNumber);
      if (wrong) problems.add(row, documentColumn.header, wrong);
      else {
        existing = world.diners.get(documentType, documentNumber) ?? null;
        const other = seen.get(documentType, documentNumber);
        if (other !== undefined) {
          problems.add(
            row,
            documentColumn.header,
            message("diners.import_duplicate_document", { row, other: other.row, document: documentNumber }),
          );
        } else {
          valid = true;
          seen.set(documentNumber, { documentType, row });
          if (existing) inFile.add(existing.id);
        }
      }
    }

    // The name, from one column or "Nombres Apellidos".
    const nameText =
      nameParts.length === 1
        ? cellText(cells[nameParts[0].index])
        : joinNames(cellText(cells[nameParts[0].index]), cellText(cells[nameParts[1].index]));
    let dinerName: string | null = existing?.name ?? null;
    if (nameText) {
      if (nameText.length < 2) problems.add(row, nameHeader, message("validation.min_length", { min: 2 }));
      else if (nameText.length > 120) problems.add(row, nameHeader, message("validation.max_length", { max: 120 }));
      else dinerName = nameText;
    } else if (!existing) problems.add(row, nameHeader, message("validation.required"));

    let phone = existing?.phone ?? "";
    if (phoneColumn) {
      const raw = cells[phoneColumn.index];
      const text = typeof raw === "number" && Number.isInteger(raw) ? String(raw) : cellText(raw);
      if (text) {
        if (text.length > 30) problems.add(row, phoneColumn.header, message("validation.max_length", { max: 30 }));
        else if (!PHONE.test(text)) problems.add(row, phoneColumn.header, message("diners.phone_invalid"));
        else phone = text;
      }
    }

    let subdealershipId: number | null = existing?.subdealershipId ?? null;
    const subText = repeatedText(cells[subColumn.index]);
    if (subText) {
      let found = subMemo.get(subText);
      if (!found) subMemo.set(subText, (found = resolveSubdealership(world, subText)));
      if (found.ok) subdealershipId = found.value.id;
      else {
        problems.add(row, subColumn.header, found.problem);
        subdealershipId = null;
      }
    } else if (!existing) problems.add(row, subColumn.header, message("validation.required"));

    // The cafe: the cell, else the default cafe, else (a diner already registered) where they are.
    let cafeId: number | null = existing?.cafeId ?? null;
    const cafeText = cafeColumn ? repeatedText(cells[cafeColumn.index]) : "";
    const cafeHeader = cafeColumn?.header ?? null;
    let named = false;
    if (cafeText) {
      let found = cafeMemo.get(cafeText);
      if (!found) cafeMemo.set(cafeText, (found = resolveCafe(world, cafeText)));
      if (!found.ok) {
        problems.add(row, cafeHeader, found.problem);
        cafeId = null;
      } else if (!reachesCafe(scope, found.value.id)) {
        problems.add(row, cafeHeader, message("diners.import_cafe_outside_scope", { cafe: cafeText }));
        cafeId = null;
      } else {
        cafeId = found.value.id;
        named = true;
      }
    } else if (defaultCafe) {
      cafeId = defaultCafe.id;
      named = true;
    } else if (!existing) problems.add(row, cafeHeader, message("validation.required"));

    let levelId: number | null = existing?.levelId ?? null;
    if (levelColumn) {
      const text = repeatedText(cells[levelColumn.index]);
      if (text) {
        let level = levelMemo.get(text);
        if (level === undefined) levelMemo.set(text, (level = world.levels.get(nameKey(text)) ?? null));
        if (level) levelId = level.id;
        else problems.add(row, levelColumn.header, message("diners.import_level_unknown", { level: text }));
      }
    }

    if (subdealershipId !== null) fileSubs.add(subdealershipId);
    // Only cafes within the scope are named without a problem: the leavers are all within it.
    if (cafeId !== null && named) fileCafes.add(cafeId);
    if (
      problems.count > before ||
      !documentType ||
      !valid ||
      dinerName === null ||
      subdealershipId === null ||
      cafeId === null
    )
      return;

    const values: DinerValues = { name: dinerName, phone, subdealershipId, cafeId, levelId, active: true };
    const barred = world.blacklist.get(documentType, documentNumber);
    if (barred) blacklisted.push({ row, documentType, documentNumber, name: dinerName, reason: barred.reason });
    if (!existing) {
      counts.created++;
      writes.push({ kind: "create", row, documentType, documentNumber, values });
      if (changes.length < MAX_LISTED)
        changes.push({
          row,
          kind: "create",
          documentNumber,
          name: dinerName,
          fields: [
            "name",
            "documentType",
            ...(phone ? (["phone"] as const) : []),
            "subdealership",
            "cafe",
            ...(levelId !== null ? (["level"] as const) : []),
          ],
        });
      return;
    }
    const changed: ValueKey[] = [];
    for (const k of VALUE_KEYS) if (existing[k] !== values[k]) changed.push(k);
    if (changed.length === 0) {
      counts.unchanged++;
      return;
    }
    // A diner whose home cafe lies outside the scope is not the importer's to change or move.
    if (!reachesCafe(scope, existing.cafeId)) {
      problems.add(
        row,
        cafeHeader ?? documentColumn.header,
        message("diners.import_diner_outside_scope", {
          name: existing.name,
          cafe: world.cafes.get(existing.cafeId)?.name ?? "",
        }),
      );
      return;
    }
    counts.updated++;
    writes.push({ kind: "update", row, before: existing, values, changed });
    if (changes.length < MAX_LISTED)
      changes.push({ row, kind: "update", documentNumber, name: dinerName, fields: changed.map((k) => FIELD_NAME[k]) });
  };
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const cells = rows[i];
    if (isBlankRow(cells)) continue;
    if (++done % CHECK_PROGRESS_EVERY === 0) {
      onProgress?.("checking", done, dataRows);
      yield;
    }
    checkRow(cells, sheet.firstRow + i);
  }
  onProgress?.("checking", dataRows, dataRows);

  // Leavers: active diners of the file's subdealerships at the file's cafes who are not in the file. The file's cafes
  // all lie in the scope (a cafe outside it is a row problem), so every leaver does.
  const leavers: DinerImportPreview["leavers"] = [];
  let leaverCount = 0;
  if (fileSubs.size && fileCafes.size)
    for (const diner of world.dinerList) {
      if (!diner.active || inFile.has(diner.id) || !fileSubs.has(diner.subdealershipId) || !fileCafes.has(diner.cafeId))
        continue;
      leaverCount++;
      if (leavers.length < MAX_LISTED)
        leavers.push({
          id: diner.id,
          documentType: diner.documentType,
          documentNumber: diner.documentNumber,
          name: diner.name,
          cafe: world.cafes.get(diner.cafeId)?.name ?? "",
          subdealership: world.subdealerships.get(diner.subdealershipId)?.name ?? "",
        });
      if (options.deactivateLeavers) {
        writes.push({ kind: "deactivate", before: diner });
        counts.deactivated++;
      }
    }
  return withPlan({
    preview: finish(dataRows, leavers, leaverCount),
    writes,
    cafeIds: [...fileCafes].sort((a, b) => a - b),
    counts,
    stamp,
  });
}

/** Fills in the fingerprint: every write with the values it starts from and sets, and the counts. */
function withPlan(planned: Planned): Planned {
  const hash = createHash("sha256");
  const values = (v: DinerValues) =>
    `${v.name}\u001f${v.phone}\u001f${v.subdealershipId}\u001f${v.cafeId}\u001f${v.levelId}\u001f${v.active}`;
  const row = (d: DinerRow) => `${d.id}\u001f${d.documentType}\u001f${d.documentNumber}\u001f${values(d)}`;
  // Hashed a few hundred writes at a time: one call per write costs more than the hashing.
  let text = JSON.stringify(planned.counts);
  for (const w of planned.writes) {
    if (w.kind === "create") text += `\u001ec\u001f${w.documentType}\u001f${w.documentNumber}\u001f${values(w.values)}`;
    else if (w.kind === "update") text += `\u001eu\u001f${row(w.before)}\u001f${values(w.values)}`;
    else text += `\u001ed\u001f${row(w.before)}`;
    if (text.length > 65_536) {
      hash.update(text);
      text = "";
    }
  }
  if (planned.preview.problemCount) text += `\u001ep\u001f${planned.preview.problemCount}`;
  hash.update(text);
  planned.preview.plan = hash.digest("base64url");
  return planned;
}

function plan(db: Db, scope: Scope, sheet: SheetRows, options: DinerImportOptions): Planned {
  const steps = planSteps(db, scope, sheet, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return kept(db, scope, sheet, options, step.value);
  }
}

async function planAsync(db: Db, scope: Scope, sheet: SheetRows, options: DinerImportOptions): Promise<Planned> {
  const steps = planSteps(db, scope, sheet, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return kept(db, scope, sheet, options, step.value);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * What a plan is worked out from, as one text that changes whenever any of it changes: the diners (the last id
 * given, how many there are, the latest change: every change of a diner sets its updated_at) and the names of the
 * cafes, subdealerships and levels the file's cells are resolved against.
 */
function dataStamp(client: Database): string {
  const row = client
    .prepare(
      `SELECT json_array(
        (SELECT seq FROM sqlite_sequence WHERE name = 'diners'), (SELECT count(*) FROM diners),
        (SELECT max(updated_at) FROM diners),
        (SELECT group_concat(c.id || '|' || c.name || '|' || u.name || '|' || m.name, char(30))
          FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id),
        (SELECT group_concat(s.id || '|' || s.name || '|' || s.ruc || '|' || d.name, char(30))
          FROM subdealerships s JOIN dealerships d ON d.id = s.dealership_id),
        (SELECT group_concat(id || '|' || name, char(30)) FROM levels)) AS stamp`,
    )
    .get() as { stamp: string };
  return row.stamp;
}

interface KeptCheck {
  db: Db;
  scope: Scope;
  options: string;
  planned: Planned;
}

/** Each sheet's latest check (a preview, or importDiners' own), kept while the sheet lives. */
const checks = new WeakMap<SheetRows, KeptCheck>();

/** The options a plan depends on. */
const planOptions = (options: DinerImportOptions) =>
  JSON.stringify([options.defaultCafeId ?? null, options.deactivateLeavers === true, options.dniLength ?? null]);

function kept(db: Db, scope: Scope, sheet: SheetRows, options: DinerImportOptions, planned: Planned): Planned {
  checks.set(sheet, { db, scope, options: planOptions(options), planned });
  return planned;
}

/**
 * The plan to write. The same sheet's check is written as it is when it was made on this database, for this scope
 * and these options, gave the plan confirmed, and nothing it read has changed since (its dataStamp): checking the
 * rows again would give the very same plan. The command line and the inbox check, then write at once. Otherwise the
 * rows are checked again. Either way a change made after this point is caught by the guarded writes (every update
 * is made only if the diner still has the values it was planned from, every new diner is refused by the unique
 * document) and undoes the import.
 */
async function planToWrite(
  db: Db,
  scope: Scope,
  sheet: SheetRows,
  options: DinerImportOptions & { expectedPlan?: string },
): Promise<Planned> {
  // A check is written once: after that it describes the diners as they were before it.
  const check = checks.get(sheet);
  checks.delete(sheet);
  if (
    check &&
    options.expectedPlan !== undefined &&
    check.planned.preview.plan === options.expectedPlan &&
    check.db === db &&
    check.scope === scope &&
    check.options === planOptions(options) &&
    check.planned.stamp !== null &&
    check.planned.stamp === dataStamp(db.$client)
  )
    return check.planned;
  const planned = await planAsync(db, scope, sheet, options);
  checks.delete(sheet);
  return planned;
}

/** What importing `sheet` would do, without writing anything. */
export function previewDinerImport(
  db: Db,
  scope: Scope,
  sheet: SheetRows,
  options: DinerImportOptions = {},
): DinerImportPreview {
  return plan(db, scope, sheet, options).preview;
}

/**
 * previewDinerImport, yielding to the event loop every CHECK_PROGRESS_EVERY rows: for a background job, so the
 * process keeps serving (sales among them) while a large file is checked.
 */
export async function previewDinerImportAsync(
  db: Db,
  scope: Scope,
  sheet: SheetRows,
  options: DinerImportOptions = {},
): Promise<DinerImportPreview> {
  return (await planAsync(db, scope, sheet, options)).preview;
}

// ---------------------------------------------------------------------------------------------------------------
// The ledger

type MessageParts = { key: string | null; params: string | null };

function messageParts(m: Message | null): MessageParts {
  if (m === null) return { key: null, params: null };
  if (typeof m === "string") return { key: m, params: null };
  return { key: m.key, params: m.params ? JSON.stringify(m.params) : null };
}

function insertLedger(
  db: Db,
  actor: Actor,
  source: DinerImportSource,
  state: DinerImportState,
  fields: {
    rows?: number;
    counts?: DinerImportCounts;
    problemCount?: number;
    message?: Message | null;
    leaseOwner?: string | null;
    leaseUntil?: number | null;
    finished: boolean;
  },
  now: number,
): number {
  const m = messageParts(fields.message ?? null);
  const counts = fields.counts ?? { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
  const result = db.$client
    .prepare(
      `INSERT INTO diner_imports (file_name, sha256, via, job_id, actor_id, actor_label, state, rows, created, updated,
        unchanged, deactivated, problem_count, message_key, message_params, lease_owner, lease_until, started_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      source.fileName,
      source.sha256,
      source.via,
      source.jobId ?? null,
      actor.userId,
      actor.label,
      state,
      fields.rows ?? 0,
      counts.created,
      counts.updated,
      counts.unchanged,
      counts.deactivated,
      fields.problemCount ?? 0,
      m.key,
      m.params,
      fields.leaseOwner ?? null,
      fields.leaseUntil ?? null,
      now,
      fields.finished ? now : null,
    );
  return Number(result.lastInsertRowid);
}

function finishLedger(
  db: Db,
  importId: number,
  state: DinerImportState,
  counts: DinerImportCounts | null,
  m: Message | null,
  now: number,
): void {
  const parts = messageParts(m);
  db.$client
    .prepare(
      `UPDATE diner_imports SET state = ?, message_key = ?, message_params = ?, lease_owner = NULL, lease_until = NULL,
        finished_at = ?, created = COALESCE(?, created), updated = COALESCE(?, updated),
        unchanged = COALESCE(?, unchanged), deactivated = COALESCE(?, deactivated) WHERE id = ?`,
    )
    .run(
      state,
      parts.key,
      parts.params,
      now,
      counts?.created ?? null,
      counts?.updated ?? null,
      counts?.unchanged ?? null,
      counts?.deactivated ?? null,
      importId,
    );
}

function auditImport(
  db: Db,
  actor: Actor,
  importId: number,
  source: DinerImportSource,
  cafeIds: readonly number[],
  after: Record<string, unknown>,
  now: Date,
): void {
  recordAudit(
    db,
    actor,
    {
      action: "diner.import",
      subjectType: "diner_import",
      subjectId: importId,
      places: cafeIds.length ? cafeIds.map((cafeId) => ({ cafeId })) : COMPANY_WIDE,
      after: { file: source.fileName, sha256: source.sha256, via: source.via, jobId: source.jobId ?? null, ...after },
    },
    now,
  );
}

/** Records an import refused before its rows could be read (file-level message), in the ledger and the audit. */
export function recordRefusedImport(db: Db, actor: Actor, source: DinerImportSource, reason: Message): number {
  const now = new Date();
  return db.transaction(
    () => {
      const id = insertLedger(db, actor, source, "refused", { message: reason, finished: true }, now.getTime());
      auditImport(db, actor, id, source, [], { result: "refused", message: reason }, now);
      return id;
    },
    { behavior: "immediate" },
  );
}

/** The ledger entry of a file's bytes (the inbox's "seen before" check): the latest one, or null. */
export function importOfFile(
  db: Db,
  sha256: string,
): { id: number; state: DinerImportState; finishedAt: Date | null } | null {
  const row = db.$client
    .prepare("SELECT id, state, finished_at FROM diner_imports WHERE sha256 = ? ORDER BY id DESC LIMIT 1")
    .values(sha256)[0] as [number, DinerImportState, number | null] | undefined;
  return row ? { id: row[0], state: row[1], finishedAt: row[2] === null ? null : new Date(row[2]) } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** Someone changed the diners meanwhile: a guarded update found other values, or an insert found the document taken. */
class ChangedMeanwhile extends Error {}

/** The import's lease was taken over (its writer was taken as stopped and recovery undoes it). */
class LeaseLost extends Error {}

function isConflict(error: unknown): boolean {
  return (
    error instanceof ChangedMeanwhile ||
    (error instanceof Error && /UNIQUE constraint failed: diners\.|FOREIGN KEY constraint failed/.test(error.message))
  );
}

interface UndoChange {
  id: number;
  before: Partial<DinerValues>;
  after: Partial<DinerValues>;
}

const SQL = {
  updateDiner: `UPDATE diners SET name = ?, name_folded = ?, phone = ?, subdealership_id = ?, cafe_id = ?, level_id = ?,
    active = ?, updated_at = ? WHERE id = ? AND name = ? AND phone = ? AND subdealership_id = ? AND cafe_id = ?
    AND level_id IS ? AND active = ?`,
  insertUndo: `INSERT INTO diner_import_undo (import_id, created_from, created_to, audit_from, audit_to, changed)
    VALUES (?, ?, ?, ?, ?, ?)`,
  renewLease: "UPDATE diner_imports SET lease_until = ? WHERE id = ? AND state = 'writing' AND lease_owner = ?",
};

type Bound = string | number | null;

/** Rows per INSERT statement: one statement's fixed cost (binding, stepping, resetting) is shared by this many rows. */
const ROWS_PER_STATEMENT = 64;

/**
 * Inserts `rows` (each `width` values) into `table` with multi-row prepared statements, and returns the rowid of
 * the first: the rows of one transaction get consecutive rowids (AUTOINCREMENT, and no other writer inside it),
 * which is checked. A table WITHOUT ROWID (`rowids` false) has none to return.
 */
function insertRows(
  client: Database,
  table: string,
  columns: string,
  width: number,
  rows: Bound[][],
  rowids = true,
): number {
  if (rows.length === 0) return 0;
  const tuple = `(${Array(width).fill("?").join(", ")})`;
  const statementFor = (n: number) =>
    client.prepare(`INSERT INTO ${table} (${columns}) VALUES ${Array(n).fill(tuple).join(", ")}`);
  const full = statementFor(ROWS_PER_STATEMENT);
  let first = 0;
  let last = 0;
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const batch = rows.slice(at, at + ROWS_PER_STATEMENT);
    const statement = batch.length === ROWS_PER_STATEMENT ? full : statementFor(batch.length);
    last = Number(statement.run(...batch.flat()).lastInsertRowid);
    if (at === 0) first = last - batch.length + 1;
  }
  if (rowids && last !== first + rows.length - 1)
    throw new Error(`The rows inserted into ${table} are not consecutive`);
  return first;
}

/**
 * Writes one chunk in the caller's transaction: the diners, their audit entries (those the Dinners page writes, in
 * recordAudit's format, but inserted many rows per statement: this runs for every row), and the chunk's undo record.
 */
function writeChunk(client: Database, actor: Actor, importId: number, writes: Write[], now: number): void {
  const updateDiner = client.prepare(SQL.updateDiner);
  const audits: Bound[][] = [];
  const auditCafes: number[][] = [];
  const audit = (action: string, subjectId: number, before: unknown, after: unknown, cafes: number[]) => {
    audits.push([
      actor.userId,
      actor.label,
      action,
      "diner",
      subjectId,
      before === null ? null : JSON.stringify(before),
      JSON.stringify(after),
      now,
    ]);
    auditCafes.push(cafes);
  };

  const creates = writes.filter((w) => w.kind === "create");
  const firstDiner = insertRows(
    client,
    "diners",
    "document_type, document_number, name, name_folded, phone, subdealership_id, cafe_id, level_id, active, created_at, updated_at",
    11,
    creates.map((w) => {
      const v = w.values;
      return [
        w.documentType,
        w.documentNumber,
        v.name,
        foldText(v.name),
        v.phone,
        v.subdealershipId,
        v.cafeId,
        v.levelId,
        1,
        now,
        now,
      ];
    }),
  );
  creates.forEach((w, i) => {
    const v = w.values;
    audit(
      "diner.created",
      firstDiner + i,
      null,
      {
        name: v.name,
        documentType: w.documentType,
        documentNumber: w.documentNumber,
        phone: v.phone,
        subdealershipId: v.subdealershipId,
        cafeId: v.cafeId,
        levelId: v.levelId,
        active: v.active,
      },
      [v.cafeId],
    );
  });

  const undo: UndoChange[] = [];
  const update = (before: DinerRow, values: DinerValues, changed: readonly ValueKey[], action: string) => {
    const result = updateDiner.run(
      values.name,
      foldText(values.name),
      values.phone,
      values.subdealershipId,
      values.cafeId,
      values.levelId,
      values.active ? 1 : 0,
      now,
      before.id,
      before.name,
      before.phone,
      before.subdealershipId,
      before.cafeId,
      before.levelId,
      before.active ? 1 : 0,
    );
    if (result.changes !== 1) throw new ChangedMeanwhile(`Diner ${before.id} changed meanwhile`);
    const was = Object.fromEntries(changed.map((k) => [k, before[k]])) as Partial<DinerValues>;
    const is = Object.fromEntries(changed.map((k) => [k, values[k]])) as Partial<DinerValues>;
    undo.push({ id: before.id, before: was, after: is });
    audit(
      action,
      before.id,
      was,
      is,
      before.cafeId === values.cafeId ? [values.cafeId] : [before.cafeId, values.cafeId],
    );
  };
  for (const w of writes) {
    if (w.kind === "update") update(w.before, w.values, w.changed, "diner.updated");
    else if (w.kind === "deactivate") update(w.before, { ...w.before, active: false }, ["active"], "diner.deactivated");
  }

  const firstAudit = insertRows(
    client,
    "audit_log",
    "actor_id, actor_label, action, subject_type, subject_id, before, after, created_at",
    8,
    audits,
  );
  const places: Bound[][] = [];
  auditCafes.forEach((cafes, i) => {
    for (const cafeId of cafes) places.push([firstAudit + i, "cafe", cafeId]);
  });
  insertRows(client, "audit_places", "audit_id, kind, place_id", 3, places, false);
  client
    .prepare(SQL.insertUndo)
    .run(
      importId,
      creates.length ? firstDiner : null,
      creates.length ? firstDiner + creates.length - 1 : null,
      audits.length ? firstAudit : null,
      audits.length ? firstAudit + audits.length - 1 : null,
      JSON.stringify(undo),
    );
}

/**
 * Runs `work` (one chunk's transaction) without waiting for the disk at its commit when `relaxed`: with WAL,
 * synchronous=NORMAL keeps every commit atomic and loses, on a power cut, only the last commits. A chunk other than
 * the last needs no more: its undo record is in its own transaction, so whatever survives is undone by recovery (the
 * import is still "writing"); the last chunk, which says the import succeeded, commits with the connection's own
 * setting (FULL). This saves one disk flush per chunk.
 */
function withoutSync<T>(client: Database, relaxed: boolean, work: () => T): T {
  if (!relaxed) return work();
  const { synchronous } = client.prepare("PRAGMA synchronous").get() as { synchronous: number };
  if (synchronous <= 1) return work();
  client.exec("PRAGMA synchronous = NORMAL");
  try {
    return work();
  } finally {
    client.exec(`PRAGMA synchronous = ${synchronous}`);
  }
}

/**
 * Checks again, and writes when there is no problem (and, when expectedPlan is given, the plan is still that one).
 * Throws DinerImportRefused (rows to fix), DinerImportPlanChanged (the data changed since the preview, or while
 * writing: what was written is undone), or Conflict when another import is writing. Any other failure is thrown
 * after what was written has been undone. Every outcome is recorded in the ledger.
 */
export async function importDiners(
  db: Db,
  actor: Actor,
  scope: Scope,
  sheet: SheetRows,
  options: DinerImportOptions & { source: DinerImportSource; expectedPlan?: string },
): Promise<{ counts: DinerImportCounts; importId: number }> {
  const { source } = options;
  recoverDinerImports(db);
  const planned = await planToWrite(db, scope, sheet, options);
  const { preview, counts, cafeIds } = planned;
  const refuse = (m: Message) =>
    db.transaction(
      () => {
        const at = new Date();
        const id = insertLedger(
          db,
          actor,
          source,
          "refused",
          { rows: preview.rows, counts, problemCount: preview.problemCount, message: m, finished: true },
          at.getTime(),
        );
        auditImport(db, actor, id, source, cafeIds, { rows: preview.rows, counts, result: "refused", message: m }, at);
        return id;
      },
      { behavior: "immediate" },
    );
  if (options.expectedPlan !== undefined && preview.plan !== options.expectedPlan) {
    refuse(message("diners.import_refused_plan_changed"));
    throw new DinerImportPlanChanged(preview);
  }
  if (preview.problemCount) {
    refuse(message("diners.import_refused_rows", { count: preview.problemCount }));
    throw new DinerImportRefused(preview);
  }
  const writes = planned.writes;
  const client = db.$client;
  // Nothing to write (the same file again): the ledger remembers the file; no audit entry, no write to the diners.
  if (writes.length === 0) {
    const importId = insertLedger(
      db,
      actor,
      source,
      "succeeded",
      { rows: preview.rows, counts, finished: true },
      Date.now(),
    );
    options.onProgress?.("saving", 0, 0);
    return { counts, importId };
  }

  // The lease: only one import writes at a time.
  const token = randomUUID();
  const importId = db.transaction(
    () => {
      const busy = client.prepare("SELECT id FROM diner_imports WHERE state = 'writing' LIMIT 1").values()[0];
      if (busy) throw new Conflict(message("diners.import_busy"));
      return insertLedger(
        db,
        actor,
        source,
        "writing",
        { rows: preview.rows, counts, leaseOwner: token, leaseUntil: Date.now() + LEASE_MS, finished: false },
        Date.now(),
      );
    },
    { behavior: "immediate" },
  );

  const now = new Date();
  let size = Math.max(1, options.chunkSize ?? FIRST_CHUNK_ROWS);
  const chunkMs = options.chunkMs ?? CHUNK_MS;
  let written = 0;
  /** The writing time since the last long pause. */
  let sinceLongPause = 0;
  const { cache_size: cacheSize } = client.prepare("PRAGMA cache_size").get() as { cache_size: number };
  client.prepare(`PRAGMA cache_size = -${WRITE_CACHE_KIB}`).run();
  try {
    options.onProgress?.("saving", 0, writes.length);
    while (written < writes.length) {
      const chunk = writes.slice(written, written + size);
      const last = written + chunk.length >= writes.length;
      let lockedAt = 0;
      withoutSync(client, !last, () =>
        immediateTransaction(client, () => {
          lockedAt = performance.now();
          const renewed = client.prepare(SQL.renewLease).run(Date.now() + LEASE_MS, importId, token);
          if (renewed.changes !== 1) throw new LeaseLost("The import's lease was taken over");
          writeChunk(client, actor, importId, chunk, now.getTime());
          if (last) {
            // Done: the import succeeds with its last chunk, and its undo log goes.
            finishLedger(db, importId, "succeeded", counts, null, Date.now());
            auditImport(db, actor, importId, source, cafeIds, { rows: preview.rows, counts, result: "succeeded" }, now);
            client.prepare("DELETE FROM diner_import_undo WHERE import_id = ?").run(importId);
          }
        }),
      );
      const held = performance.now() - lockedAt;
      written += chunk.length;
      options.onProgress?.("saving", written, writes.length);
      if (last) break;
      // The next chunk is sized to hold the lock about chunkMs, as fast as this one went (at most twice as many rows).
      if (options.chunkSize === undefined)
        size = Math.round(
          Math.min(MAX_CHUNK_ROWS, 2 * chunk.length, Math.max(MIN_CHUNK_ROWS, (chunk.length * chunkMs) / held)),
        );
      sinceLongPause += held;
      const pause = sinceLongPause >= LONG_PAUSE_EVERY_MS ? LONG_PAUSE_MS : CHUNK_PAUSE_MS;
      if (pause === LONG_PAUSE_MS) sinceLongPause = 0;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } catch (error) {
    if (error instanceof LeaseLost) throw error;
    const reason: UndoReason = isConflict(error)
      ? { key: "diners.import_rolled_back_changed" }
      : {
          key: "diners.import_rolled_back_error",
          params: { detail: error instanceof Error ? error.message : String(error) },
        };
    const finished = await undoImportAsync(db, importId, token, reason);
    if (finished && isConflict(error))
      throw new DinerImportPlanChanged((await planAsync(db, scope, sheet, options)).preview);
    throw error;
  } finally {
    client.prepare(`PRAGMA cache_size = ${cacheSize}`).run();
  }
  return { counts, importId };
}

// ---------------------------------------------------------------------------------------------------------------
// Undoing

/**
 * Undoes an import's committed chunks, newest first, each in its own short transaction (steps yielded one by one),
 * then records it rolled_back (failed when nothing had been written). Created diners are deleted, except those sold
 * to meanwhile, which are deactivated (the ledger says so); changed diners get their values back unless someone
 * changed them again since; the chunks' audit entries go. Yields once per step; returns whether it finished
 * (false: the lease was lost to someone else, who finishes it).
 */
/** Why an import is undone; each reason has a `_kept` text for when some diners are kept. */
interface UndoReason {
  key: "diners.import_rolled_back_changed" | "diners.import_rolled_back_error" | "diners.import_rolled_back_stopped";
  params?: TranslationParams;
}

function* undoSteps(db: Db, importId: number, token: string, reason: UndoReason): Generator<void, boolean> {
  const client = db.$client;
  const ledger = client
    .prepare("SELECT actor_id, actor_label, file_name, sha256, via, job_id FROM diner_imports WHERE id = ?")
    .values(importId)[0] as [number | null, string, string, string, DinerImportSource["via"], number | null];
  const actor: Actor = { userId: ledger[0], label: ledger[1] };
  const source: DinerImportSource = { fileName: ledger[2], sha256: ledger[3], via: ledger[4], jobId: ledger[5] };
  const kept: { id: number; name: string }[] = [];
  const cafes = new Set<number>();
  let undid = 0;
  const owns = () => client.prepare(SQL.renewLease).run(Date.now() + LEASE_MS, importId, token).changes === 1;
  for (;;) {
    const finished = db.transaction(
      () => {
        if (!owns()) return "lost" as const;
        const entry = client
          .prepare(
            "SELECT id, created_from, created_to, audit_from, audit_to, changed FROM diner_import_undo WHERE import_id = ? ORDER BY id DESC LIMIT 1",
          )
          .values(importId)[0] as
          [number, number | null, number | null, number | null, number | null, string] | undefined;
        if (!entry) return "done" as const;
        const [undoId, createdFrom, createdTo, auditFrom, auditTo, changedJson] = entry;
        undid++;
        const now = Date.now();
        let keptHere: { id: number; name: string; cafeId: number }[] = [];
        if (createdFrom !== null && createdTo !== null) {
          for (const [cafeId] of client
            .prepare("SELECT DISTINCT cafe_id FROM diners WHERE id BETWEEN ? AND ?")
            .values(createdFrom, createdTo) as [number][])
            cafes.add(cafeId);
          // A diner sold to meanwhile cannot be deleted: deactivated instead, keeping the entry of its creation.
          keptHere = (
            client
              .prepare(
                "SELECT d.id, d.name, d.cafe_id FROM diners d WHERE d.id BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM sales s WHERE s.diner_id = d.id)",
              )
              .values(createdFrom, createdTo) as [number, string, number][]
          ).map(([id, name, cafeId]) => ({ id, name, cafeId }));
        }
        const keptIds = JSON.stringify(keptHere.map((d) => d.id));
        if (auditFrom !== null && auditTo !== null)
          client
            .prepare(
              `DELETE FROM audit_log WHERE id BETWEEN ? AND ?
                AND NOT (action = 'diner.created' AND subject_id IN (SELECT value FROM json_each(?)))`,
            )
            .run(auditFrom, auditTo, keptIds);
        if (createdFrom !== null && createdTo !== null)
          client
            .prepare("DELETE FROM diners WHERE id BETWEEN ? AND ? AND id NOT IN (SELECT value FROM json_each(?))")
            .run(createdFrom, createdTo, keptIds);
        for (const d of keptHere) {
          if (
            client.prepare("UPDATE diners SET active = 0, updated_at = ? WHERE id = ? AND active = 1").run(now, d.id)
              .changes
          )
            recordAudit(
              db,
              actor,
              {
                action: "diner.deactivated",
                subjectType: "diner",
                subjectId: d.id,
                places: [{ cafeId: d.cafeId }],
                before: { active: true },
                after: { active: false },
              },
              new Date(now),
            );
          kept.push({ id: d.id, name: d.name });
        }
        for (const change of JSON.parse(changedJson) as UndoChange[]) {
          const keys = Object.keys(change.before) as ValueKey[];
          const column: Record<ValueKey, string> = {
            name: "name",
            phone: "phone",
            subdealershipId: "subdealership_id",
            cafeId: "cafe_id",
            levelId: "level_id",
            active: "active",
          };
          const bind = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v);
          const set = keys.map((k) => `${column[k]} = ?`);
          const values = keys.map((k) => bind(change.before[k]));
          if (keys.includes("name")) {
            set.push("name_folded = ?");
            values.push(foldText(change.before.name!));
          }
          // Only a diner still as the import left it gets its values back: a later edit by someone else stays.
          const where = keys.map((k) => `${column[k]} IS ?`);
          client
            .prepare(`UPDATE diners SET ${set.join(", ")}, updated_at = ? WHERE id = ? AND ${where.join(" AND ")}`)
            .run(
              ...(values as (string | number | null)[]),
              now,
              change.id,
              ...keys.map((k) => bind(change.after[k]) as string | number | null),
            );
          for (const k of ["cafeId"] as const) {
            if (change.before[k] !== undefined) cafes.add(change.before[k]!);
            if (change.after[k] !== undefined) cafes.add(change.after[k]!);
          }
        }
        client.prepare("DELETE FROM diner_import_undo WHERE id = ?").run(undoId);
        return "step" as const;
      },
      { behavior: "immediate" },
    );
    if (finished === "lost") return false;
    if (finished === "done") break;
    yield;
  }
  const state: DinerImportState = undid === 0 ? "failed" : "rolled_back";
  const final: Message = kept.length
    ? message(`${reason.key}_kept`, {
        ...reason.params,
        count: kept.length,
        names: kept
          .slice(0, 10)
          .map((d) => d.name)
          .join(", "),
      })
    : reason;
  db.transaction(
    () => {
      if (!owns()) return;
      const at = new Date();
      finishLedger(db, importId, state, { created: 0, updated: 0, unchanged: 0, deactivated: 0 }, final, at.getTime());
      auditImport(
        db,
        actor,
        importId,
        source,
        [...cafes].sort((a, b) => a - b),
        { result: state, message: final },
        at,
      );
    },
    { behavior: "immediate" },
  );
  return true;
}

async function undoImportAsync(db: Db, importId: number, token: string, reason: UndoReason): Promise<boolean> {
  const steps = undoSteps(db, importId, token, reason);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Undoes the writes of imports whose writer stopped mid-way (its lease ran out); run at every start and before
 * each import. Returns how many imports it undid.
 */
export function recoverDinerImports(db: Db, now: Date = new Date()): number {
  const client = db.$client;
  const stale = client
    .prepare(
      "SELECT id, lease_owner FROM diner_imports WHERE state = 'writing' AND (lease_until IS NULL OR lease_until < ?)",
    )
    .values(now.getTime()) as [number, string | null][];
  let recovered = 0;
  for (const [importId, owner] of stale) {
    const token = randomUUID();
    // Taking the lease over, so a writer that wakes up stops at its next chunk.
    const taken = db.transaction(
      () =>
        client
          .prepare(
            "UPDATE diner_imports SET lease_owner = ?, lease_until = ? WHERE id = ? AND state = 'writing' AND lease_owner IS ?",
          )
          .run(token, Date.now() + LEASE_MS, importId, owner).changes === 1,
      { behavior: "immediate" },
    );
    if (!taken) continue;
    const steps = undoSteps(db, importId, token, { key: "diners.import_rolled_back_stopped" });
    let step = steps.next();
    while (!step.done) step = steps.next();
    if (step.value) recovered++;
  }
  return recovered;
}
