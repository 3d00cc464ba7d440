/**
 * Knowing what an uploaded file really is, by its bytes rather than its name: a zip (.xlsx or .ods, told apart by
 * their entries), an OLE Compound File (.xls, or an encrypted .xlsx), or UTF-8 text (CSV). Anything else is not a
 * spreadsheet, and says so in one message.
 */
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey } from "../../shared/i18n";

function refuse(key: TranslationKey): never {
  throw new ValidationFailed({ file: message(key) });
}

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

const ZIP = ascii("PK\x03\x04");
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];
/** Text files that are documents, not tables (binary formats are caught by their NUL bytes). */
const DOCUMENTS = [ascii("%PDF-"), ascii("{\\rtf")];

/** The container a file's bytes announce. */
export type Container = "zip" | "compound-file" | "text";

/**
 * The container of `bytes`, from its first bytes. Text is only a candidate here: `decodeText` checks all of it.
 * Throws ValidationFailed keyed `file`: import.empty, import.not_a_spreadsheet, import.csv_encoding (UTF-16 text,
 * which Excel writes as "Unicode text"), import.markup (a web page or an XML file under a spreadsheet's name).
 */
export function detectContainer(bytes: Uint8Array, fileName: string): Container {
  if (bytes.length === 0) refuse("import.empty");
  if (startsWith(bytes, ZIP)) return "zip";
  if (startsWith(bytes, COMPOUND_FILE)) return "compound-file";
  if (UTF16_BOMS.some((bom) => startsWith(bytes, bom))) refuse("import.csv_encoding");
  if (DOCUMENTS.some((magic) => startsWith(bytes, magic))) refuse("import.not_a_spreadsheet");
  // A NUL byte is never in text: images, executables, archives and random bytes have them early on.
  const head = bytes.subarray(0, 4096);
  if (head.includes(0)) refuse("import.not_a_spreadsheet");
  // A web page or an XML document saved with a spreadsheet's name (some systems export "Excel" that way). The name
  // breaks the tie: a file called .csv is read as CSV whatever its first character.
  if (!/\.csv$/i.test(fileName)) {
    let at = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
    while (at < head.length && (head[at] === 0x20 || (head[at] >= 0x09 && head[at] <= 0x0d))) at++;
    if (head[at] === 0x3c) refuse("import.markup");
  }
  return "text";
}

/** Control characters that text files do hold: tab, line feed, vertical tab, form feed, carriage return, DOS EOF. */
const isTextControl = (byte: number) => (byte >= 0x09 && byte <= 0x0d) || byte === 0x1a;

/**
 * The text of a CSV file: UTF-8, its byte order mark removed. Throws ValidationFailed keyed `file`:
 * import.not_a_spreadsheet when it holds a NUL byte or is no text at all, import.csv_encoding when it is text in
 * another encoding (Windows-1252, what Excel's plain "CSV" writes on many systems), import.empty when nothing is left.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.includes(0)) refuse("import.not_a_spreadsheet");
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    // Not UTF-8: text in a one-byte encoding has no control characters but the usual ones; binary data does.
    for (const byte of body) if (byte < 0x20 && !isTextControl(byte)) refuse("import.not_a_spreadsheet");
    refuse("import.csv_encoding");
  }
  if (text.trim() === "") refuse("import.empty");
  return text;
}

const ODS_MIMETYPES = [
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.spreadsheet-template",
];

/**
 * Which workbook a checked zip holds, by its entries: an OpenDocument spreadsheet names itself in its `mimetype`
 * entry; an Office Open XML workbook has `[Content_Types].xml` and its parts under `xl/`. Any other zip (a Word
 * document, an OpenDocument text, an archive of photos) is not a spreadsheet.
 */
export function zipWorkbookKind(names: string[], mimetype: string | null): "xlsx" | "ods" {
  if (mimetype !== null && ODS_MIMETYPES.includes(mimetype.trim())) return "ods";
  if (mimetype === null && names.includes("[Content_Types].xml") && names.some((name) => name.startsWith("xl/")))
    return "xlsx";
  refuse("import.not_a_spreadsheet");
}
