/**
 * What the point of sale's one input holds when Enter comes: a document to look up, a name to search, or digits that
 * cannot be any document (a scanner's misread, "1234"). Digits are never a name: a number of the wrong length says
 * what is wrong with it (a DNI has DNI_LENGTH digits, a foreign-resident card 9 to 12, a passport 6 to 12), so the
 * cashier scans again instead of reading "nobody is called «1234»". Free of database imports: the browser uses it
 * before it asks the server anything.
 */
import { documentRule, normalizeDocumentNumber, type DocumentSettings } from "../documents";
import { message, type Message } from "../message";

export type ScanReading =
  /** A number some document type may have: looked up. `note` says why it is not a DNI when it is all digits. */
  | { kind: "document"; number: string; note: Message | null }
  /** Digits no document has this many of: refused before anything is asked. */
  | { kind: "wrong-length"; number: string; problem: Message }
  /** Anything else: a name to search. */
  | { kind: "name"; text: string };

/** The digits the other types may have when they are all digits (their rules allow letters too). */
const OTHER_LENGTHS = {
  ce: documentRule("ce", { dniLength: 8 }).params,
  pas: documentRule("pas", { dniLength: 8 }).params,
};

/** Whether what was typed reads as a document number (as the server decides): letters and digits, five digits or more. */
export function looksLikeDocument(text: string): boolean {
  const cleaned = normalizeDocumentNumber(text);
  return /^[A-Z0-9]{5,20}$/.test(cleaned) && (cleaned.match(/\d/g)?.length ?? 0) >= 5;
}

/** Reads what the input holds (see the module's comment). */
export function readScan(text: string, settings: DocumentSettings): ScanReading {
  const trimmed = text.trim();
  const number = normalizeDocumentNumber(trimmed);
  // Digits, perhaps with the spaces and dashes a number is written with: a document, never a name.
  if (/^[\d\s-]+$/.test(trimmed) && /^\d+$/.test(number)) {
    const length = number.length;
    const params = {
      number,
      count: length,
      dni: settings.dniLength,
      ce_min: OTHER_LENGTHS.ce.min,
      ce_max: OTHER_LENGTHS.ce.max,
      pas_min: OTHER_LENGTHS.pas.min,
      pas_max: OTHER_LENGTHS.pas.max,
      max: Math.max(OTHER_LENGTHS.ce.max, OTHER_LENGTHS.pas.max, settings.dniLength),
    };
    if (length === settings.dniLength) return { kind: "document", number, note: null };
    const other =
      (length >= OTHER_LENGTHS.ce.min && length <= OTHER_LENGTHS.ce.max) ||
      (length >= OTHER_LENGTHS.pas.min && length <= OTHER_LENGTHS.pas.max);
    if (other) return { kind: "document", number, note: message("dinners.scan.not_a_dni", params) };
    return {
      kind: "wrong-length",
      number,
      problem: message(length < settings.dniLength ? "dinners.scan.too_short" : "dinners.scan.too_long", params),
    };
  }
  if (looksLikeDocument(trimmed)) return { kind: "document", number, note: null };
  return { kind: "name", text: trimmed };
}
