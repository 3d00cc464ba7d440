/**
 * A diner file's cells as the import reads them: a cell's text, a document type's name, a name compared, a blank
 * row; and the rows of a sheet, as arrays or packed, one at a time.
 */
import { foldText } from "../../../shared/fold";
import { documentTypeOfSunatCode, type DocumentType } from "../../../shared/documents";
import { PackedRows } from "../../spreadsheets/packed-rows";
import type { CellValue } from "../../spreadsheets/read";
import type { DinerSheet } from "./contract";

/** A header as compared: folded, with punctuation ("Nro.", "N°", "Unidad/Comedor") read as spaces. */
export function headerKey(text: string): string {
  return foldText(text)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** A DNI as its digits: one of fewer digits than DNI_LENGTH gets its leading zeros back (docs/diner-imports.md). */
export const DIGITS = /^[0-9]+$/;

/** A name as compared (subdealerships, cafes, levels): folded, single spaces. */
export const nameKey = (text: string) => foldText(text).replace(/\s+/g, " ").trim();

/** Spaces a cell's text loses: at either end, doubled, or other than a plain space. */
const MESSY_SPACE = /^\s|\s$|\s\s|[^\S ]/;

export function cellText(value: CellValue | undefined): string {
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

export function documentTypeOf(text: string): DocumentType | null {
  return DOCUMENT_TYPE_NAMES.get(headerKey(text)) ?? documentTypeOfSunatCode(text);
}

export const PHONE = /^[0-9+() -]*$/;

export const joinNames = (first: string, last: string) => (first && last ? `${first} ${last}` : first || last);

export function isBlankRow(cells: CellValue[] | undefined): boolean {
  if (!cells) return true;
  for (const cell of cells) {
    if (cell === null || cell === undefined || cell === "") continue;
    if (typeof cell !== "string" || cell.trim() !== "") return false;
  }
  return true;
}

/** A sheet's rows, one at a time: how many, each one's cells, and whether one is blank. */
export interface Rows {
  count: number;
  at(index: number): CellValue[];
  isBlank(index: number): boolean;
}

export function rowsOf(sheet: DinerSheet): Rows {
  if (sheet instanceof PackedRows)
    return { count: sheet.rowCount, at: (i) => sheet.row(i), isBlank: (i) => sheet.isBlank(i) };
  const rows = sheet.rows;
  return { count: rows.length, at: (i) => rows[i], isBlank: (i) => isBlankRow(rows[i]) };
}
