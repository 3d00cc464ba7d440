/**
 * One row of a diner file checked against the database as loaded (world.ts): its document (the key), name, phone,
 * subdealership, cafe and level, each problem noted by row and column; a row without a problem becomes a write (a
 * diner to create or to update) or is counted unchanged.
 */
import { reachesCafe, type Scope } from "../../access/scope";
import {
  documentProblem,
  normalizeDocumentNumber,
  type DocumentSettings,
  type DocumentType,
} from "../../../shared/documents";
import { message, type Message } from "../../../shared/message";
import type { Column, Field, Header } from "../../../shared/sales/types";
import type { CellValue } from "../../spreadsheets/read";
import { cellText, DIGITS, documentTypeOf, joinNames, nameKey, PHONE } from "./cells";
import { MAX_LISTED } from "./contract";
import type { Findings } from "./plan";
import {
  ByDocument,
  FIELD_NAME,
  resolveCafe,
  resolveSubdealership,
  VALUE_KEYS,
  type CafeRow,
  type DinerRow,
  type DinerValues,
  type Resolved,
  type SubdealershipRow,
  type ValueKey,
  type World,
} from "./world";

const TYPE_CODE: Record<DocumentType, number> = { dni: 0, ce: 1, pas: 2 };

/** The file's columns the check reads (the document's, the name's and the subdealership's always there). */
interface Columns {
  document: Column;
  type?: Column;
  phone?: Column;
  subdealership: Column;
  cafe?: Column;
  level?: Column;
  nameParts: Column[];
}

export function columnsOf(header: Header): Columns {
  const col = (field: Field) => header.columns.get(field);
  return {
    document: col("document")!,
    type: col("documentType"),
    phone: col("phone"),
    subdealership: col("subdealership")!,
    cafe: col("cafe"),
    level: col("level"),
    nameParts: header.nameParts,
  };
}

/**
 * Checks rows one by one (`check`), gathering into `findings`, and remembers what the leavers are worked out from:
 * the diners the file names, and its subdealerships and cafes.
 */
export class RowChecker {
  /** The diners the file names (their ids). */
  readonly inFile = new Set<number>();
  /** The cafes the file's rows name without a problem (all within the scope). */
  readonly fileCafes = new Set<number>();
  readonly fileSubdealerships = new Set<number>();

  // documentProblem compiles its pattern on every call, and its rules look at a number's type, length and kind of
  // characters only: its answer is kept per type, length and kind.
  private readonly numberProblems = new Map<number, Message | null>();
  // The columns whose few values repeat on every row (type, subdealership, cafe, level): each cell's text is worked
  // out once per distinct value.
  private readonly texts = new Map<CellValue | undefined, string>();
  private readonly levelMemo = new Map<string, { id: number; name: string } | null>();
  private readonly cafeMemo = new Map<string, Resolved<CafeRow>>();
  private readonly subMemo = new Map<string, Resolved<SubdealershipRow>>();
  private readonly seen = new ByDocument<{ documentType: DocumentType; row: number }>();
  private readonly nameHeader: string;

  constructor(
    private readonly world: World,
    private readonly scope: Scope,
    private readonly columns: Columns,
    private readonly settings: DocumentSettings,
    private readonly defaultCafe: CafeRow | null,
    private readonly findings: Findings,
  ) {
    this.nameHeader = columns.nameParts[0].header;
  }

  /** Checks one row (`row`: its number in the spreadsheet). */
  check(cells: CellValue[], row: number): void {
    const problems = this.findings.problems;
    const before = problems.count;
    const { documentType, documentNumber, existing, valid } = this.document(cells, row);
    const name = this.name(cells, row, existing);
    const phone = this.phone(cells, row, existing);
    const subdealershipId = this.subdealership(cells, row, existing);
    const { cafeId, named } = this.cafe(cells, row, existing);
    const levelId = this.level(cells, row, existing);

    if (subdealershipId !== null) this.fileSubdealerships.add(subdealershipId);
    // Only cafes within the scope are named without a problem: the leavers are all within it.
    if (cafeId !== null && named) this.fileCafes.add(cafeId);
    if (
      problems.count > before ||
      !documentType ||
      !valid ||
      name === null ||
      subdealershipId === null ||
      cafeId === null
    )
      return;
    const values: DinerValues = { name, phone, subdealershipId, cafeId, levelId, active: true };
    this.record(row, documentType, documentNumber, existing, values);
  }

  private numberProblem(type: DocumentType, number: string): Message | null {
    const kind = DIGITS.test(number) ? 0 : /^[A-Z0-9]+$/.test(number) ? 1 : -1;
    if (kind < 0 || number.length > 1000) return documentProblem({ type, number }, this.settings);
    const key = (TYPE_CODE[type] * 2 + kind) * 1024 + number.length;
    let problem = this.numberProblems.get(key);
    if (problem === undefined)
      this.numberProblems.set(key, (problem = documentProblem({ type, number }, this.settings)));
    return problem;
  }

  private repeatedText(cell: CellValue | undefined): string {
    let text = this.texts.get(cell);
    if (text === undefined) this.texts.set(cell, (text = cellText(cell)));
    return text;
  }

  /** The document: the key, with the diner it names (when registered) and whether the row may be written. */
  private document(cells: CellValue[], row: number) {
    const { problems } = this.findings;
    const { document: column, type: typeColumn } = this.columns;
    const typeText = typeColumn ? this.repeatedText(cells[typeColumn.index]) : "";
    const raw = cells[column.index];
    let documentNumber = typeof raw === "number" ? cellText(raw) : normalizeDocumentNumber(cellText(raw));
    let documentType: DocumentType | null = null;
    if (typeText) {
      documentType = documentTypeOf(typeText);
      if (!documentType)
        problems.add(row, typeColumn!.header, message("diners.import_document_type_unknown", { type: typeText }));
    } else {
      // No type: the type this number is registered with, else a DNI.
      documentType = this.world.diners.onlyType(documentNumber) ?? "dni";
    }
    // A DNI of fewer digits lost its leading zeros — in the spreadsheet (a number cell) or before it (a CSV, a column
    // made text afterwards): they are put back, whatever the cell.
    const { dniLength } = this.settings;
    if (documentType === "dni" && documentNumber.length < dniLength && DIGITS.test(documentNumber))
      documentNumber = documentNumber.padStart(dniLength, "0");
    let existing: DinerRow | null = null;
    let valid = false;
    if (!documentNumber) problems.add(row, column.header, message("validation.required"));
    else if (documentType) {
      const wrong = this.numberProblem(documentType, documentNumber);
      if (wrong) problems.add(row, column.header, wrong);
      else {
        existing = this.world.diners.get(documentType, documentNumber) ?? null;
        const other = this.seen.get(documentType, documentNumber);
        if (other !== undefined) {
          problems.add(
            row,
            column.header,
            message("diners.import_duplicate_document", { row, other: other.row, document: documentNumber }),
          );
        } else {
          valid = true;
          this.seen.set(documentNumber, { documentType, row });
          if (existing) this.inFile.add(existing.id);
        }
      }
    }
    return { documentType, documentNumber, existing, valid };
  }

  /** The name, from one column or "Nombres Apellidos"; a registered diner's when the cell is blank. */
  private name(cells: CellValue[], row: number, existing: DinerRow | null): string | null {
    const { problems } = this.findings;
    const parts = this.columns.nameParts;
    const text =
      parts.length === 1
        ? cellText(cells[parts[0].index])
        : joinNames(cellText(cells[parts[0].index]), cellText(cells[parts[1].index]));
    if (text) {
      if (text.length < 2) problems.add(row, this.nameHeader, message("validation.min_length", { min: 2 }));
      else if (text.length > 120) problems.add(row, this.nameHeader, message("validation.max_length", { max: 120 }));
      else return text;
    } else if (!existing) problems.add(row, this.nameHeader, message("validation.required"));
    return existing?.name ?? null;
  }

  private phone(cells: CellValue[], row: number, existing: DinerRow | null): string {
    const column = this.columns.phone;
    const phone = existing?.phone ?? "";
    if (!column) return phone;
    const raw = cells[column.index];
    const text = typeof raw === "number" && Number.isInteger(raw) ? String(raw) : cellText(raw);
    if (!text) return phone;
    const { problems } = this.findings;
    if (text.length > 30) problems.add(row, column.header, message("validation.max_length", { max: 30 }));
    else if (!PHONE.test(text)) problems.add(row, column.header, message("diners.phone_invalid"));
    else return text;
    return phone;
  }

  private subdealership(cells: CellValue[], row: number, existing: DinerRow | null): number | null {
    const column = this.columns.subdealership;
    const text = this.repeatedText(cells[column.index]);
    if (!text) {
      if (!existing) this.findings.problems.add(row, column.header, message("validation.required"));
      return existing?.subdealershipId ?? null;
    }
    let found = this.subMemo.get(text);
    if (!found) this.subMemo.set(text, (found = resolveSubdealership(this.world, text)));
    if (found.ok) return found.value.id;
    this.findings.problems.add(row, column.header, found.problem);
    return null;
  }

  /** The cafe: the cell, else the default cafe, else (a diner already registered) where they are. */
  private cafe(cells: CellValue[], row: number, existing: DinerRow | null): { cafeId: number | null; named: boolean } {
    const { problems } = this.findings;
    const column = this.columns.cafe;
    const text = column ? this.repeatedText(cells[column.index]) : "";
    const header = column?.header ?? null;
    if (text) {
      let found = this.cafeMemo.get(text);
      if (!found) this.cafeMemo.set(text, (found = resolveCafe(this.world, text)));
      if (!found.ok) problems.add(row, header, found.problem);
      else if (!reachesCafe(this.scope, found.value.id))
        problems.add(row, header, message("diners.import_cafe_outside_scope", { cafe: text }));
      else return { cafeId: found.value.id, named: true };
      return { cafeId: null, named: false };
    }
    if (this.defaultCafe) return { cafeId: this.defaultCafe.id, named: true };
    if (!existing) problems.add(row, header, message("validation.required"));
    return { cafeId: existing?.cafeId ?? null, named: false };
  }

  private level(cells: CellValue[], row: number, existing: DinerRow | null): number | null {
    const column = this.columns.level;
    const levelId = existing?.levelId ?? null;
    if (!column) return levelId;
    const text = this.repeatedText(cells[column.index]);
    if (!text) return levelId;
    let level = this.levelMemo.get(text);
    if (level === undefined) this.levelMemo.set(text, (level = this.world.levels.get(nameKey(text)) ?? null));
    if (level) return level.id;
    this.findings.problems.add(row, column.header, message("diners.import_level_unknown", { level: text }));
    return levelId;
  }

  /** A row without a problem: a diner to create, to update, or unchanged; and blacklisted or not. */
  private record(
    row: number,
    documentType: DocumentType,
    documentNumber: string,
    existing: DinerRow | null,
    values: DinerValues,
  ): void {
    const { counts, writes, changes, blacklisted, problems } = this.findings;
    const barred = this.world.blacklist.get(documentType, documentNumber);
    if (barred) blacklisted.push({ row, documentType, documentNumber, name: values.name, reason: barred.reason });
    if (!existing) {
      counts.created++;
      writes.push({ kind: "create", row, documentType, documentNumber, values });
      if (changes.length < MAX_LISTED)
        changes.push({
          row,
          kind: "create",
          documentNumber,
          name: values.name,
          fields: [
            "name",
            "documentType",
            ...(values.phone ? (["phone"] as const) : []),
            "subdealership",
            "cafe",
            ...(values.levelId !== null ? (["level"] as const) : []),
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
    if (!reachesCafe(this.scope, existing.cafeId)) {
      problems.add(
        row,
        this.columns.cafe?.header ?? this.columns.document.header,
        message("diners.import_diner_outside_scope", {
          name: existing.name,
          cafe: this.world.cafes.get(existing.cafeId)?.name ?? "",
        }),
      );
      return;
    }
    counts.updated++;
    writes.push({ kind: "update", row, before: existing, values, changed });
    if (changes.length < MAX_LISTED)
      changes.push({
        row,
        kind: "update",
        documentNumber,
        name: values.name,
        fields: changed.map((k) => FIELD_NAME[k]),
      });
  }
}
