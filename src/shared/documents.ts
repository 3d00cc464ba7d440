/**
 * Identity documents: one value type for users, the blacklist and diners. A document is a type and a number; the
 * number is checked by its type and kept as text, so a DNI's leading zeros stay (never a number).
 *
 * - DNI: the national id, digits only; its length is the DNI_LENGTH setting (8 by default, Peru's).
 * - CE (carné de extranjería, the foreign-resident card): 9 to 12 letters or digits. The cards Migraciones issues
 *   today carry a 9-digit number; SUNAT's electronic formats take up to 12 letters or digits for this type, which
 *   older cards need, so Mesa accepts 9 to 12.
 * - Passport: 6 to 12 letters or digits (SUNAT's formats take up to 12).
 *
 * Numbers are stored normalized: trimmed, upper case, without spaces or dashes ("12-345 678" → "12345678").
 * This module has no dependencies beyond messages, so the browser imports it for the type list.
 */
import type { TranslationKey } from "./i18n";
import type { Message } from "./message";

export const DOCUMENT_TYPES = ["dni", "ce", "pas"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The type a form or command assumes when none is given. */
export const DEFAULT_DOCUMENT_TYPE: DocumentType = "dni";

export interface Document {
  type: DocumentType;
  /** Normalized: upper case letters and digits only. */
  number: string;
}

/** The settings a document check needs (DNI_LENGTH). */
export interface DocumentSettings {
  dniLength: number;
}

/**
 * Each type's code in SUNAT's catalogue of identity documents (catálogo No. 06: 1 DNI, 4 carné de extranjería,
 * 7 pasaporte), the codes client companies' spreadsheets use. The catalogue's codes are text (it also has letter
 * codes such as "A"), so they are kept as text here.
 */
export const SUNAT_DOCUMENT_CODES: Record<DocumentType, string> = { dni: "1", ce: "4", pas: "7" };

/** The type of a SUNAT code ("1", "4", "7"; "01" as some spreadsheets write it), or null for any other code. */
export function documentTypeOfSunatCode(code: string): DocumentType | null {
  const wanted = code.trim().replace(/^0+(?=.)/, "");
  return DOCUMENT_TYPES.find((type) => SUNAT_DOCUMENT_CODES[type] === wanted) ?? null;
}

export function isDocumentType(value: unknown): value is DocumentType {
  return typeof value === "string" && (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** Trimmed, upper case, without spaces or dashes: the form numbers are stored and compared in. */
export function normalizeDocumentNumber(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "");
}

/** The lengths of the alphanumeric types. */
const ALPHANUMERIC: Record<Exclude<DocumentType, "dni">, { min: number; max: number }> = {
  ce: { min: 9, max: 12 },
  pas: { min: 6, max: 12 },
};

/**
 * A type's rule as a message ("El DNI debe tener 8 dígitos."): the error of a bad number, and the hint the forms
 * show under the number.
 */
export function documentRule(
  type: DocumentType,
  settings: DocumentSettings,
): { key: TranslationKey; params: Record<string, number> } {
  if (type === "dni") return { key: "validation.document.dni", params: { length: settings.dniLength } };
  return { key: `validation.document.${type}`, params: { ...ALPHANUMERIC[type] } };
}

/** Why a normalized number is not a valid number of its type (a message for the number's field), or null. */
export function documentProblem(document: Document, settings: DocumentSettings): Message | null {
  const pattern =
    document.type === "dni"
      ? `^[0-9]{${settings.dniLength}}$`
      : `^[A-Z0-9]{${ALPHANUMERIC[document.type].min},${ALPHANUMERIC[document.type].max}}$`;
  return new RegExp(pattern).test(document.number) ? null : documentRule(document.type, settings);
}

/** Whether two documents are the same: same type and same (normalized) number. */
export function sameDocument(a: Document, b: Document): boolean {
  return a.type === b.type && a.number === b.number;
}
