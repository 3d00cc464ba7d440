/**
 * The plan: what importing a sheet would do. The header is found, the database read once into maps (world.ts), every
 * row checked (check-row.ts) and the leavers worked out; the preview lists it all, with `plan`, a fingerprint of
 * exactly what would be written. A sheet's latest check is kept while the sheet lives, so that confirming it writes
 * it as checked when nothing it read has changed since (planToWrite).
 */
import type { Db } from "../../../db";
import { reachesCafe, type Scope } from "../../access/scope";
import type { DocumentSettings, DocumentType } from "../../../shared/documents";
import { message, type Message } from "../../../shared/message";
import type { DinerImportPreview, DinerImportProblem, Header } from "../../../shared/sales/types";
import { rowsOf, type Rows } from "./cells";
import { columnsOf, RowChecker } from "./check-row";
import {
  CHECK_PROGRESS_EVERY,
  DEFAULT_DNI_LENGTH,
  MAX_LISTED,
  type DinerImportCounts,
  type DinerImportOptions,
  type DinerSheet,
} from "./contract";
import { findHeader, missingColumns } from "./header";
import { dataStamp, World, type CafeRow, type DinerRow, type DinerValues, type ValueKey } from "./world";

export type Write =
  | { kind: "create"; row: number; documentType: DocumentType; documentNumber: string; values: DinerValues }
  | { kind: "update"; row: number; before: DinerRow; values: DinerValues; changed: ValueKey[] }
  | { kind: "deactivate"; before: DinerRow };

export interface Planned {
  preview: DinerImportPreview;
  writes: Write[];
  /** The cafes the file's rows name (all within the scope): the audit entry of the import is about them. */
  cafeIds: number[];
  counts: DinerImportCounts;
  /** dataStamp of what the check read (null when it read nothing to write from). */
  stamp: string | null;
}

export class Problems {
  readonly listed: DinerImportProblem[] = [];
  count = 0;
  add(row: number, column: string | null, m: Message): void {
    this.count++;
    if (this.listed.length < MAX_LISTED) this.listed.push({ row, column, message: m });
  }
}

/** What checking a sheet gathers: the preview's lists and counts, and the writes. */
export class Findings {
  readonly problems = new Problems();
  readonly unknownColumns: string[] = [];
  readonly blacklisted: DinerImportPreview["blacklisted"] = [];
  readonly changes: DinerImportPreview["changes"] = [];
  readonly leavers: DinerImportPreview["leavers"] = [];
  leaverCount = 0;
  readonly writes: Write[] = [];
  readonly counts: DinerImportCounts = { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
  /** The spreadsheet row of the header, once found. */
  headerRow: number | null = null;

  constructor(readonly sheet: DinerSheet) {}

  /** The plan of these findings, `rows` data rows read (and `cafeIds` and `stamp` when there is something to write). */
  planned(rows: number, cafeIds: number[] = [], stamp: string | null = null): Planned {
    const { problems, counts } = this;
    const preview: DinerImportPreview = {
      sheet: this.sheet.name,
      headerRow: this.headerRow,
      rows,
      created: counts.created,
      updated: counts.updated,
      unchanged: counts.unchanged,
      problems: problems.listed,
      problemCount: problems.count,
      unknownColumns: this.unknownColumns,
      blacklisted: this.blacklisted,
      leavers: this.leavers,
      leaverCount: this.leaverCount,
      changes: this.changes,
      plan: "",
    };
    const planned = { preview, writes: this.writes, cafeIds, counts, stamp };
    preview.plan = fingerprintOf(planned);
    return planned;
  }
}

/**
 * A fingerprint made of values as they are given: each number as 8 bytes (null as a byte of its own) and each text
 * as its length and its UTF-16 code units, into a buffer hashed whenever it fills. A plan of 100,000 writes makes no
 * string per write (the engine's Fingerprint makes a JSON text of each value, which a plan this size would pile up
 * faster than it is collected).
 */
class PlanHash {
  private readonly hash = new Bun.CryptoHasher("sha256");
  private readonly bytes = new Uint8Array(1 << 16);
  private readonly view = new DataView(this.bytes.buffer);
  private at = 0;

  private room(size: number): void {
    if (this.at + size <= this.bytes.length) return;
    this.hash.update(this.bytes.subarray(0, this.at));
    this.at = 0;
  }

  number(value: number | boolean | null): void {
    this.room(9);
    if (value === null) this.bytes[this.at++] = 0;
    else {
      this.bytes[this.at++] = 1;
      this.view.setFloat64(this.at, Number(value));
      this.at += 8;
    }
  }

  text(value: string): void {
    this.number(value.length);
    for (let from = 0; from < value.length;) {
      this.room(2);
      const to = Math.min(value.length, from + ((this.bytes.length - this.at) >> 1));
      for (let i = from; i < to; i++, this.at += 2) this.view.setUint16(this.at, value.charCodeAt(i));
      from = to;
    }
  }

  digest(): string {
    this.hash.update(this.bytes.subarray(0, this.at));
    this.at = 0;
    return this.hash.digest("base64url");
  }
}

const WRITE_CODE = { create: 1, update: 2, deactivate: 3 } as const;

/**
 * The fingerprint of a plan: the counts, every write with the values it starts from and sets, and the problems'
 * count.
 */
function fingerprintOf(planned: Planned): string {
  const hash = new PlanHash();
  const values = (v: DinerValues) => {
    hash.text(v.name);
    hash.text(v.phone);
    hash.number(v.subdealershipId);
    hash.number(v.cafeId);
    hash.number(v.levelId);
    hash.number(v.active);
  };
  const diner = (d: DinerRow) => {
    hash.number(d.id);
    hash.text(d.documentType);
    hash.text(d.documentNumber);
    values(d);
  };
  const { counts } = planned;
  for (const count of [counts.created, counts.updated, counts.unchanged, counts.deactivated]) hash.number(count);
  for (const w of planned.writes) {
    hash.number(WRITE_CODE[w.kind]);
    if (w.kind === "create") {
      hash.text(w.documentType);
      hash.text(w.documentNumber);
      values(w.values);
    } else if (w.kind === "update") {
      diner(w.before);
      values(w.values);
    } else diner(w.before);
  }
  hash.number(planned.preview.problemCount);
  return hash.digest();
}

/** The default cafe when it is one the actor reaches; a problem of the header row otherwise. */
function defaultCafeOf(world: World, scope: Scope, id: number | null, findings: Findings): CafeRow | null {
  if (id === null) return null;
  const cafe = world.cafes.get(id) ?? null;
  if (cafe && reachesCafe(scope, id)) return cafe;
  findings.problems.add(findings.headerRow!, null, message("diners.import_default_cafe_outside_scope"));
  return null;
}

/** How many rows below the header are not blank. */
function countDataRows(rows: Rows, headerIndex: number): number {
  let count = 0;
  for (let i = headerIndex + 1; i < rows.count; i++) if (!rows.isBlank(i)) count++;
  return count;
}

/**
 * The leavers: active diners of the file's subdealerships at the file's cafes who are not in the file. The file's
 * cafes all lie in the scope (a cafe outside it is a row problem), so every leaver does. They are deactivated when
 * the options say so.
 */
function findLeavers(world: World, checker: RowChecker, findings: Findings, deactivate: boolean): void {
  const { fileSubdealerships, fileCafes, inFile } = checker;
  if (!fileSubdealerships.size || !fileCafes.size) return;
  for (const diner of world.dinerList) {
    if (
      !diner.active ||
      inFile.has(diner.id) ||
      !fileSubdealerships.has(diner.subdealershipId) ||
      !fileCafes.has(diner.cafeId)
    )
      continue;
    findings.leaverCount++;
    if (findings.leavers.length < MAX_LISTED)
      findings.leavers.push({
        id: diner.id,
        documentType: diner.documentType,
        documentNumber: diner.documentNumber,
        name: diner.name,
        cafe: world.cafes.get(diner.cafeId)?.name ?? "",
        subdealership: world.subdealerships.get(diner.subdealershipId)?.name ?? "",
      });
    if (deactivate) {
      findings.writes.push({ kind: "deactivate", before: diner });
      findings.counts.deactivated++;
    }
  }
}

/** Checks the rows below the header, yielding every CHECK_PROGRESS_EVERY rows (so an import lets sales in). */
function* checkRows(
  rows: Rows,
  headerIndex: number,
  firstRow: number,
  checker: RowChecker,
  dataRows: number,
  onProgress: DinerImportOptions["onProgress"],
): Generator<void, void> {
  let done = 0;
  onProgress?.("checking", 0, dataRows);
  for (let i = headerIndex + 1; i < rows.count; i++) {
    if (rows.isBlank(i)) continue;
    if (++done % CHECK_PROGRESS_EVERY === 0) {
      onProgress?.("checking", done, dataRows);
      yield;
    }
    checker.check(rows.at(i), firstRow + i);
  }
  onProgress?.("checking", dataRows, dataRows);
}

/**
 * Works out what importing `sheet` would do. The database is read once, in one read transaction, into maps; the rows
 * are then checked against them, yielding every CHECK_PROGRESS_EVERY rows (so an import lets sales in meanwhile).
 */
function* planSteps(db: Db, scope: Scope, sheet: DinerSheet, options: DinerImportOptions): Generator<void, Planned> {
  const settings: DocumentSettings = { dniLength: options.dniLength ?? DEFAULT_DNI_LENGTH };
  const findings = new Findings(sheet);
  const { problems } = findings;
  const defaultCafeId = options.defaultCafeId ?? null;
  const rows = rowsOf(sheet);
  const found = findHeader(rows, defaultCafeId);
  if (!found) {
    problems.add(sheet.firstRow, null, message("diners.import_no_header"));
    return findings.planned(0);
  }
  const headerRow = sheet.firstRow + found.index;
  findings.headerRow = headerRow;
  const header: Header = found.header;
  findings.unknownColumns.push(...header.unknownColumns);
  for (const column of header.repeated)
    problems.add(headerRow, column, message("diners.import_duplicate_column", { column }));

  const { world, stamp } = db.transaction(() => ({ world: new World(db.$client), stamp: dataStamp(db.$client) }), {
    behavior: "deferred",
  });
  const defaultCafe = defaultCafeOf(world, scope, defaultCafeId, findings);
  const missing = missingColumns(header, defaultCafeId);
  for (const field of missing) problems.add(headerRow, null, message(`diners.import_missing_column_${field}`));

  const dataRows = countDataRows(rows, found.index);
  if (missing.length || problems.count) return findings.planned(dataRows);
  if (dataRows === 0) {
    problems.add(headerRow, null, message("diners.import_no_rows"));
    return findings.planned(0);
  }

  const checker = new RowChecker(world, scope, columnsOf(header), settings, defaultCafe, findings);
  yield* checkRows(rows, found.index, sheet.firstRow, checker, dataRows, options.onProgress);
  findLeavers(world, checker, findings, options.deactivateLeavers === true);
  return findings.planned(
    dataRows,
    [...checker.fileCafes].sort((a, b) => a - b),
    stamp,
  );
}

export function plan(db: Db, scope: Scope, sheet: DinerSheet, options: DinerImportOptions): Planned {
  const steps = planSteps(db, scope, sheet, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return kept(db, scope, sheet, options, step.value);
  }
}

export async function planAsync(
  db: Db,
  scope: Scope,
  sheet: DinerSheet,
  options: DinerImportOptions,
): Promise<Planned> {
  const steps = planSteps(db, scope, sheet, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return kept(db, scope, sheet, options, step.value);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface KeptCheck {
  db: Db;
  scope: Scope;
  options: string;
  planned: Planned;
}

/** Each sheet's latest check (a preview, or importDiners' own), kept while the sheet lives. */
const checks = new WeakMap<DinerSheet, KeptCheck>();

/** The options a plan depends on. */
const planOptions = (options: DinerImportOptions) =>
  JSON.stringify([options.defaultCafeId ?? null, options.deactivateLeavers === true, options.dniLength ?? null]);

function kept(db: Db, scope: Scope, sheet: DinerSheet, options: DinerImportOptions, planned: Planned): Planned {
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
export async function planToWrite(
  db: Db,
  scope: Scope,
  sheet: DinerSheet,
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
