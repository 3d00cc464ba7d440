/**
 * A diner file's header: the first non-blank row (or the one below a title), its columns named in Spanish or
 * English, in any order, case, accents or spacing.
 */
import type { Column, Field, Header } from "../../../shared/sales/types";
import type { CellValue } from "../../spreadsheets/read";
import { cellText, headerKey, type Rows } from "./cells";

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
export function missingColumns(
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

/** The first row at or after `from` that is not blank (rows.count when there is none). */
function nonBlankFrom(rows: Rows, from: number): number {
  let at = from;
  while (at < rows.count && rows.isBlank(at)) at++;
  return at;
}

/**
 * Where the header is: the first non-blank row, or the next non-blank one when the first is a title (one cell of
 * text, as a title merged across the columns reads) and that next row holds every column the import needs. Null
 * when every row is blank.
 */
export function findHeader(rows: Rows, defaultCafeId: number | null): { index: number; header: Header } | null {
  let index = nonBlankFrom(rows, 0);
  if (index >= rows.count) return null;
  const first = rows.at(index);
  let header = headerOf(first);
  if (isTitle(first)) {
    const next = nonBlankFrom(rows, index + 1);
    const below = next < rows.count ? headerOf(rows.at(next)) : null;
    if (below && missingColumns(below, defaultCafeId).length === 0) [index, header] = [next, below];
  }
  return { index, header };
}
