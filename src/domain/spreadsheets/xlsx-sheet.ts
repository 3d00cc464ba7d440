/**
 * The fast read of the sheet an import reads of an .xlsx, its first visible sheet (readFirstSheet's usual case: a
 * diner list of 100,000 rows).
 *
 * It gives exactly what the general path gives (parse-worker.ts: the content checks of sheet-size.ts, then SheetJS
 * read `dense`, with raw values and `sheetRows`, then `rowsOf`), in a fraction of the time: it inflates the parts with
 * read.ts's bounded `entryContent`, keeps the sheet's XML as one character per byte (its markup is ASCII; a value
 * with other bytes is decoded on its own), and walks the cells by hand instead of making an object of each.
 * Every rule of the general path is followed here the same way, its odd ones included, so that a file never reads one
 * way on one path and another way on the other:
 * - shared strings and inline strings: the first `<t>` of an item, or its rich-text runs joined without their
 *   phonetic runs; entities (`&amp;`, `&#233;`, `&#x41;`) and `_xHHHH_` escapes decoded as the general path decodes
 *   them (a reference past U+FFFF cut to 16 bits, `&#X41;` read as decimal), then CR LF made LF; leading and trailing
 *   spaces kept, whatever `xml:space` says;
 * - `t="str"` values decoded twice (the general path does), numbers read as `parseFloat` reads them, booleans true
 *   only for "1" and "true" (false without a value), `t="d"` dates made serial numbers, errors and unknown types null,
 *   formulas never evaluated (their cached value, or nothing);
 * - rows numbered by their `r` or following the previous one, cells placed by their reference or following the
 *   previous one; rows past `bounds.rows + 1` not read, the first MAX_SHEET_COLUMNS columns kept;
 * - the same refusals in the same order: a cell element (not closed on itself) in a row past `bounds.rows`, then the
 *   cell budget, counted as sheet-size.ts counts them, as they are met; every other part of the zip inflated and
 *   checked as before, in the zip's order; then a value in the row past the limit, then an empty sheet.
 *
 * Whatever it is not certain to read as the general path would (namespace prefixes, Strict OOXML, comments or CDATA,
 * attributes it does not know, a row or cell reference going backwards or out of its row, rich text in a cell, a
 * shared string index it cannot resolve, bytes that are not UTF-8, text whose bytes the general path would decode
 * differently), it answers null, and the caller runs the general path.
 */
import { Buffer, isUtf8 } from "node:buffer";
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import type { TranslationKey, TranslationParams } from "../../shared/i18n";
import { MAX_SHEET_CELLS, MAX_SHEET_COLUMNS } from "./limits";
import { entryContent, type CellValue, type ReadLimits, type SheetRows, type ZipEntry } from "./read";
import { SheetPacker, unpackSheet, type PackedSheet } from "./packed-rows";
import { checkXlsxSheet, firstVisible, xlsxHyperlinkCells, type SheetBounds, type XlsxFirstSheet } from "./sheet-size";

const CONTENT_TYPES_NS = "http://schemas.openxmlformats.org/package/2006/content-types";
/** Transitional SpreadsheetML; a Strict workbook names another namespace and takes the general path. */
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const WORKBOOK_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
  "application/vnd.ms-excel.addin.macroEnabled.main+xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
]);
const SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml";
const BINARY_SHARED_STRINGS_TYPE = "application/vnd.ms-excel.sharedStrings";
/**
 * The parts of [Content_Types].xml the general path reads without a fallback, each kind's first one: styles, sheet
 * metadata, people (of threaded comments), and the extended properties (read when there). A part of these kinds that
 * is missing, or that SheetJS cannot parse, makes it refuse the whole file.
 */
type DeclaredKind = "styles" | "metadata" | "people" | "properties";
const DECLARED_KINDS = new Map<string, DeclaredKind>([
  ["application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml", "styles"],
  ["application/vnd.ms-excel.styles", "styles"],
  ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml", "metadata"],
  ["application/vnd.ms-excel.sheetMetadata", "metadata"],
  ["application/vnd.ms-excel.person+xml", "people"],
  ["application/vnd.openxmlformats-officedocument.extended-properties+xml", "properties"],
]);
const WORKSHEET_RELATIONSHIPS = new Set([
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet",
]);
/** Entries that make the general path read the zip as another kind of file. */
const OTHER_KINDS = new Set(["meta-inf/manifest.xml", "objectdata.xml", "index/document.iwa"]);

/** Thrown inside this file when the general path must read the file; never leaves it. */
class NotCertain extends Error {}
const unsure = (): never => {
  throw new NotCertain();
};

function refuse(key: TranslationKey, params: TranslationParams): never {
  throw new ValidationFailed({ file: message(key, params) });
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true });
const lenientDecoder = new TextDecoder();

/**
 * A piece of the sheet's text (which has one character per byte) as text: its bytes read as UTF-8 (whole
 * characters, as pieces end at markup).
 */
const fromBytes = (text: string): string =>
  WIDE_CHAR.test(text) ? fatalDecoder.decode(Buffer.from(text, "latin1")) : text;

/** UTF-8 text, or not certain: bytes that are not UTF-8 would decode differently on the general path. */
function utf8(bytes: Uint8Array): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return unsure();
  }
}

// ——— Text as the general path decodes it ———

const NAMED_ENTITIES: Record<string, string> = {
  "&quot;": '"',
  "&apos;": "'",
  "&gt;": ">",
  "&lt;": "<",
  "&amp;": "&",
};
/** Entities as the general path matches them: names in any case, decimal or hexadecimal references. */
const ENTITY = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const OOXML_ESCAPE = /_x([\da-fA-F]{4})_/gi;
const CDATA = "<![CDATA[";

/**
 * Decodes XML text the way the general path does: the five named entities (a name in another case gives U+0000, a
 * reference "&#X41;" is read as decimal), numeric references cut to 16 bits, then `_xHHHH_` escapes; CDATA sections
 * are kept as written. With `lineBreaks`, CR LF becomes LF afterwards. `produced`, when given, learns the highest
 * code unit a reference or escape produced.
 */
function decodeText(text: string, lineBreaks: boolean, produced?: { max: number }): string {
  let out = text;
  if (out.indexOf("_") >= 0 || out.indexOf("<") >= 0) out = decodeRaw(out, produced);
  else if (out.indexOf("&") >= 0) out = decodeNamed(out) ?? decodeRaw(out, produced);
  return lineBreaks && out.indexOf("\r") >= 0 ? out.replace(/\r\n/g, "\n") : out;
}

const NAMES = ["amp;", "lt;", "gt;", "quot;", "apos;"];
const NAMED = ["&", "<", ">", '"', "'"];
const ENTITY_LIKE = /(?:quot|apos|gt|lt|amp|#x?[\da-fA-F]+);/iy;

/**
 * The usual case of decodeText, without regular expressions: text whose only references are the five named
 * entities in lower case (an `&` that starts none is kept). Null for any other reference.
 */
function decodeNamed(text: string): string | null {
  let out = "";
  let from = 0;
  for (let at = text.indexOf("&"); at >= 0; at = text.indexOf("&", from)) {
    out += text.slice(from, at);
    let name = 0;
    while (name < NAMES.length && !text.startsWith(NAMES[name], at + 1)) name++;
    if (name < NAMES.length) {
      out += NAMED[name];
      from = at + 1 + NAMES[name].length;
    } else {
      ENTITY_LIKE.lastIndex = at + 1;
      if (ENTITY_LIKE.test(text)) return null;
      out += "&";
      from = at + 1;
    }
  }
  return out + text.slice(from);
}

function decodeRaw(text: string, produced?: { max: number }): string {
  const at = text.indexOf(CDATA);
  if (at === -1) {
    const note = (char: string) => {
      if (produced && char.charCodeAt(0) > produced.max) produced.max = char.charCodeAt(0);
      return char;
    };
    return text
      .replace(ENTITY, (match: string, code: string | undefined) =>
        note(
          NAMED_ENTITIES[match] ||
            String.fromCharCode(parseInt(code as string, match.indexOf("x") > -1 ? 16 : 10)) ||
            match,
        ),
      )
      .replace(OOXML_ESCAPE, (_: string, code: string) => note(String.fromCharCode(parseInt(code, 16))));
  }
  const end = text.indexOf("]]>");
  return decodeRaw(text.slice(0, at), produced) + text.slice(at + 9, end) + decodeRaw(text.slice(end + 3), produced);
}

const isXmlSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/** `text` without the ASCII white space at its ends (what trimming the file's bytes removes from well-formed XML). */
function trimAscii(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

const PLAIN_ITEM = /^[\t\n\v\f\r ]*<(?:\w+:)?t[^>]*>/;
const RICH_ITEM = /<(?:\w+:)?r\b[^<>]*>/;
const TEXT_END = /<\/(?:\w+:)?t>/;
const RUN_TEXT = /<(?:\w+:)?t\b[^<>]*>([^<]*)<\/(?:\w+:)?t>/g;
const ANY_TAG = /<[/?]?[a-zA-Z0-9:_-]+(?:\s+[^"\s?<>/]+\s*=\s*(?:"[^"]*"|'[^']*'|[^'"<>\s=]+))*\s*[/?]?>/gm;
const PHONETIC_OPEN = /<(?:\w+:)?rPh\b[^<>]*>/g;
const PHONETIC_CLOSE = /<\/(?:\w+:)?rPh>/g;
/** A tag holding a character outside ASCII: white space there is matched differently on the general path. */
const TAG_WITH_WIDE_CHAR = /<[^<>]*[^\x00-\x7f][^<>]*>/;

/** `text` without its phonetic runs, as the general path removes them (null when one is never closed). */
function withoutPhonetics(text: string): string | null {
  PHONETIC_OPEN.lastIndex = 0;
  const out: string[] = [];
  let end = 0;
  for (let found = PHONETIC_OPEN.exec(text); found !== null; found = PHONETIC_OPEN.exec(text)) {
    out.push(text.slice(end, found.index));
    PHONETIC_CLOSE.lastIndex = PHONETIC_OPEN.lastIndex;
    if (PHONETIC_CLOSE.exec(text) === null) return null;
    end = PHONETIC_CLOSE.lastIndex;
    PHONETIC_OPEN.lastIndex = end;
  }
  out.push(text.slice(end));
  return out.join("");
}

/**
 * The text of a string item (a shared string's `<si>` content, or a cell's `<is>` content) as the general path reads
 * it: the first `<t>` when the item starts with one, else its runs' `<t>` joined without phonetic runs, else no text.
 */
function itemText(item: string, rich = true): string | undefined {
  if (item === "") return "";
  // The usual items: one <t> and nothing else.
  if (item.charCodeAt(0) === 0x3c && item.charCodeAt(1) === 0x74) {
    const open = item.startsWith("<t>") ? 3 : item.startsWith('<t xml:space="preserve">') ? 24 : 0;
    if (open > 0 && item.endsWith("</t>") && item.indexOf("<", open) === item.length - 4)
      return decodeText(item.slice(open, item.length - 4), true);
  }
  if (TAG_WITH_WIDE_CHAR.test(item)) unsure();
  if (PLAIN_ITEM.test(item)) return decodeText(item.slice(item.indexOf(">") + 1).split(TEXT_END)[0] || "", true);
  if (RICH_ITEM.test(item)) {
    // In a cell, the general path also reads the runs' formatting, and refuses some it does not know.
    if (!rich) unsure();
    const runs = withoutPhonetics(item);
    if (runs === null) return unsure();
    return decodeText((runs.match(RUN_TEXT) || []).join("").replace(ANY_TAG, ""), true);
  }
  return undefined;
}

const PREFIXED_TAG = /<\/?[\w.-]+:/;

/**
 * The shared strings as the general path numbers them: the `<sst>` content cut at each `</si>`, every piece an item
 * (the piece after the last `</si>` too). None when the part has no table.
 */
function sharedStrings(xml: string): (string | undefined)[] {
  const open = /<(?:\w+:)?sst\b[^<>]*>/.exec(xml);
  if (open === null) return [];
  if (!open[0].startsWith("<sst")) unsure();
  const start = open.index + open[0].length;
  const close = xml.indexOf("</sst>", start);
  if (close < 0) {
    if (PREFIXED_TAG.test(xml.slice(start))) unsure();
    return [];
  }
  // Item after item, the usual ones (one <t> of text that needs no decoding) with one regular expression.
  const strings: (string | undefined)[] = [];
  let at = start;
  for (;;) {
    while (at < close && isXmlSpace(xml.charCodeAt(at))) at++;
    if (at >= close) break;
    if (!xml.startsWith("<si>", at)) return piecesOf(xml.slice(start, close));
    PLAIN_SHARED_STRING.lastIndex = at;
    const plain = PLAIN_SHARED_STRING.exec(xml);
    if (plain !== null) {
      strings.push(plain[1]);
      at = PLAIN_SHARED_STRING.lastIndex;
      continue;
    }
    const end = xml.indexOf("</si>", at);
    if (end < 0 || end > close) return piecesOf(xml.slice(start, close));
    strings.push(pieceText(xml.slice(at + 4, end)));
    at = end + 5;
  }
  strings.push("");
  return strings;
}

/** A shared string item that needs nothing decoded. */
const PLAIN_SHARED_STRING = /<si><t(?: xml:space="preserve")?>([^<&_\r]*)<\/t><\/si>/y;

/** The shared strings of any `<sst>` content, cut as the general path cuts it. */
function piecesOf(content: string): (string | undefined)[] {
  return content.split("<si>").join("").split("</si>").map(pieceText);
}

/** The text of one piece of the shared strings, trimmed as the general path trims it. */
function pieceText(text: string): string | undefined {
  if (PREFIXED_TAG.test(text) || text.indexOf("<!") >= 0 || text.indexOf("<?") >= 0) unsure();
  if (/<si\b/.test(text) || text.indexOf("sstItem") >= 0) unsure();
  const piece = trimAscii(text);
  if (piece !== "" && (piece.charCodeAt(0) !== 0x3c || piece.charCodeAt(piece.length - 1) !== 0x3e)) unsure();
  return itemText(piece);
}

// ——— Attributes ———

const ATTRIBUTES = /\s+([\w.:-]+)=(?:"([^"<>]*)"|'([^'<>]*)')/y;
/** Attributes of rows and cells: no quote of either kind in a value, where sheet-size.ts could take it for a tag's. */
const PLAIN_ATTRIBUTES = /\s+([\w.:-]+)=(?:"([^"'<>]*)"|'([^"'<>]*)')/y;

/**
 * The attributes of a tag (the text between its name and its end), keyed as the general path keys them: without a
 * namespace prefix, and cut at an underscore. Not certain when the text holds anything else, or two attributes fall
 * on one key (either in any case, as the general path also keys them in lower case). With `plain` (rows and cells),
 * also not certain about quotes inside values, underscores in names, or a name that is `r` in another case.
 */
function attributesOf(text: string, plain = false): Map<string, string> {
  const found = new Map<string, string>();
  const lower = new Set<string>();
  const pattern = plain ? PLAIN_ATTRIBUTES : ATTRIBUTES;
  pattern.lastIndex = 0;
  let at = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const name = match[1];
    const colon = name.indexOf(":");
    let key = colon >= 0 ? name.slice(colon + 1) : name;
    if (colon < 0 && key.indexOf("_") > 0) key = key.slice(0, key.indexOf("_"));
    if (colon === 5 && name.startsWith("xmlns")) key = `xmlns${key}`;
    const lowerKey = key.toLowerCase();
    if (found.has(key) || lower.has(lowerKey)) unsure();
    if (plain && (name.indexOf("_") >= 0 || (lowerKey === "r" && key !== "r"))) unsure();
    found.set(key, match[2] ?? match[3]);
    lower.add(lowerKey);
    at = pattern.lastIndex;
  }
  if (!/^\s*\/?$/.test(text.slice(at))) unsure();
  return found;
}

/** Each tag `<name ...>` (unprefixed) of `xml` with its attributes; not certain when a prefixed one is there. */
function tagsOf(xml: string, name: string): Map<string, string>[] {
  if (new RegExp(`<[\\w.-]+:${name}\\b`).test(xml)) unsure();
  const tags = [];
  const pattern = new RegExp(`<${name}\\b([^<>]*)>`, "g");
  for (let found = pattern.exec(xml); found !== null; found = pattern.exec(xml)) tags.push(attributesOf(found[1]));
  return tags;
}

const stripSlash = (path: string) => (path.startsWith("/") ? path.slice(1) : path);
const HIDDEN_STATES = new Set(["hidden", "veryHidden"]);

/** The shared strings part and whether dates count from 1904, when the workbook is one this reader reads. */
interface Workbook {
  sharedStrings: string | null;
  date1904: boolean;
}

/** A part's content found as the general path finds it (whatever its case), or null when the zip has none. */
type PartReader = (name: string) => string | null;

/**
 * Checks that the workbook's parts lead to the sheet read (`first`, the first visible one) the way the general path
 * finds it: [Content_Types].xml (its namespace; the workbook part; the shared strings part; the parts the general
 * path reads without a fallback, which must be there and readable), xl/workbook.xml (its namespace, its sheets' and
 * defined names' names, which sheet is the first visible one and its name, every sheet's relationship) and its
 * relationships (that sheet's type and part).
 */
function workbookOf(part: PartReader, declaredPart: PartReader, first: ReadSheet): Workbook {
  const contentTypes = part("[Content_Types].xml") ?? unsure();
  if (PREFIXED_TAG.test(contentTypes)) unsure();
  const types = tagsOf(contentTypes, "Types");
  if (types.length !== 1 || types[0].get("xmlns") !== CONTENT_TYPES_NS) unsure();
  let workbookPart: string | null = null;
  let sharedStringsPart: string | null = null;
  const declared = new Map<DeclaredKind, string | undefined>();
  for (const override of tagsOf(contentTypes, "Override")) {
    const type = override.get("ContentType") ?? "";
    const name = override.get("PartName") ?? "";
    if (WORKBOOK_TYPES.has(type)) workbookPart ??= name;
    if (type === BINARY_SHARED_STRINGS_TYPE && sharedStringsPart === null) unsure();
    if (type === SHARED_STRINGS_TYPE) sharedStringsPart ??= name;
    const kind = DECLARED_KINDS.get(type);
    if (kind !== undefined && !declared.has(kind)) declared.set(kind, override.get("PartName"));
  }
  if (stripSlash(workbookPart ?? "xl/workbook.xml") !== "xl/workbook.xml") unsure();
  for (const [kind, name] of declared) checkDeclaredPart(kind, name, declaredPart);

  const workbook = part("xl/workbook.xml") ?? unsure();
  const roots = tagsOf(workbook, "workbook");
  if (roots.length !== 1 || roots[0].get("xmlns") !== MAIN_NS) unsure();
  const sheets = tagsOf(workbook, "sheet");
  if (sheets.length === 0) unsure();
  // The general path reads every sheet's name, and every defined name's, and fails on one without.
  for (const tag of [...sheets, ...tagsOf(workbook, "definedName")]) if (!tag.has("name")) unsure();
  // The sheet read is the first visible one, found here as sheet-size.ts found it.
  const index = firstVisible(sheets.length, (i) => HIDDEN_STATES.has(sheets[i].get("state") ?? ""));
  if (index !== first.index) unsure();
  const sheet = sheets[index];
  if (decodeText(sheet.get("name") ?? unsure(), false) !== first.name) unsure();
  let date1904 = false;
  for (const properties of tagsOf(workbook, "workbookPr")) {
    const value = properties.get("date1904");
    if (value !== undefined) date1904 = value === "1" || value === "true";
  }

  const relationships = new Map<string, Map<string, string>>();
  for (const relationship of tagsOf(part("xl/_rels/workbook.xml.rels") ?? unsure(), "Relationship"))
    relationships.set(relationship.get("Id") ?? "", relationship);
  for (const other of sheets) if (!relationships.has(other.get("id") ?? unsure())) unsure();
  const relationship = relationships.get(sheet.get("id") as string) as Map<string, string>;
  if (!WORKSHEET_RELATIONSHIPS.has(relationship.get("Type") ?? "") || relationship.has("TargetMode")) unsure();
  const target = decodeText(relationship.get("Target") ?? unsure(), false);
  if (`xl/${target.replace(/[/]?xl\//, "")}` !== first.path) unsure();

  return { sharedStrings: sharedStringsPart === null ? null : stripSlash(sharedStringsPart), date1904 };
}

// ——— Declared parts ———

const COMMENT_OR_DOCTYPE = /<!--|<!DOCTYPE/i;
const NUMBER_FORMAT = /<(?:[\w.-]+:)?numFmt\b([^<>]*)>/g;
const CELL_FORMATS = /<(?:\w+:)?cellXfs\b[^<>]*>/;
const CELL_FORMATS_END = /<\/(?:\w+:)?cellXfs>/g;
const ALIGNMENT = /<(?:[\w.-]+:)?alignment[\s/>]/;
/** A cell format as the general path's parser knows one: `<xf>`, `<xf/>`, or with attributes after a space. */
const CELL_FORMAT = /<(?:\w+:)?xf((?:[ \n\r][^<>]*?)?)\/?>/;
/** A metadata type as that parser counts one (with attributes after a space), and any cell metadata record. */
const METADATA_TYPE = /<(?:\w+:)?metadataType([ \n\r][^<>]*?)\/?>/g;
const METADATA_RECORD = /<(?:[\w.-]+:)?rc\b([^<>]*)>/g;
const POSITIVE = /^[1-9]\d{0,5}$/;
/** The extended properties' heading pairs as Excel writes them: a name and a count, each a variant of its own. */
const HEADING_PAIRS = /<HeadingPairs[\s>]/;
const USUAL_HEADINGS =
  /^\s*<vt:vector\s+size="\d+"\s+baseType="variant"\s*>((?:\s*<vt:variant>\s*<vt:(?:lpstr|i4)>[^<]*<\/vt:(?:lpstr|i4)>\s*<\/vt:variant>)*)\s*<\/vt:vector>\s*$/;
const VARIANT = /<vt:variant>/g;

/** The attributes of a tag's text (between its name and its end, a closing "/" included). */
const attributesOfTag = (text: string) => attributesOf(text.endsWith("/") ? text.slice(0, -1) : text);

/**
 * Not certain unless the general path reads the part of `kind` that [Content_Types].xml declares as `name` without
 * failing: the part is there (in any case), not in binary form, UTF-8, and holds nothing its parser fails on — for
 * the styles, a number format without its code, or a cell format's alignment before any cell format; for the sheet
 * metadata, a cell's metadata naming a type not declared before it; for the extended properties, heading pairs that
 * are not Excel's usual pairs (an odd count of them makes the general path fail). Comments and a DOCTYPE, which the
 * parsers treat on their own, are left to the general path too.
 */
function checkDeclaredPart(kind: DeclaredKind, name: string | undefined, declaredPart: PartReader): void {
  if (!name) unsure();
  const path = stripSlash(name as string);
  if (path.toLowerCase().endsWith(".bin")) unsure();
  const xml = declaredPart(path);
  if (xml === null) {
    // The extended properties are read only when there; the other kinds must be.
    if (kind === "properties") return;
    return unsure();
  }
  if (COMMENT_OR_DOCTYPE.test(xml)) unsure();
  switch (kind) {
    case "styles": {
      NUMBER_FORMAT.lastIndex = 0;
      for (let format = NUMBER_FORMAT.exec(xml); format; format = NUMBER_FORMAT.exec(xml))
        if (!attributesOfTag(format[1]).has("formatCode")) unsure();
      const formats = CELL_FORMATS.exec(xml);
      if (formats === null) return;
      CELL_FORMATS_END.lastIndex = formats.index;
      const end = CELL_FORMATS_END.exec(xml);
      const section = xml.slice(formats.index, end === null ? xml.length : CELL_FORMATS_END.lastIndex);
      const alignment = ALIGNMENT.exec(section);
      if (alignment === null) return;
      const format = CELL_FORMAT.exec(section);
      if (format === null || alignment.index < format.index) unsure();
      attributesOfTag((format as RegExpExecArray)[1]);
      return;
    }
    case "metadata": {
      const types = [...xml.matchAll(METADATA_TYPE)].map((type) => (attributesOfTag(type[1]), type.index));
      // Both in the part's order: the types declared before each record, counted as the records come.
      let before = 0;
      for (const record of xml.matchAll(METADATA_RECORD)) {
        while (before < types.length && types[before] < record.index) before++;
        const type = attributesOfTag(record[1]).get("t") ?? "";
        if (!POSITIVE.test(type) || Number(type) > before) unsure();
      }
      return;
    }
    case "people":
      return;
    case "properties": {
      const start = HEADING_PAIRS.exec(xml);
      if (start === null) return;
      const content = xml.slice(xml.indexOf(">", start.index) + 1, xml.indexOf("</HeadingPairs>", start.index));
      const usual = USUAL_HEADINGS.exec(content) ?? unsure();
      if ((usual[1].match(VARIANT) ?? []).length % 2 !== 0) unsure();
      return;
    }
  }
}

// ——— Cell values ———

const dateBase = Date.UTC(1899, 11, 30, 0, 0, 0);
const timeBase = Date.UTC(1899, 11, 31, 0, 0, 0);
const timeBase1904 = Date.UTC(1904, 0, 1, 0, 0, 0);
const TIME_OF_DAY = /^(\d+):(\d+)(:\d+)?(\.\d+)?$/;
const DAY = /^(\d+)-(\d+)-(\d+)$/;
const DAY_AND_TIME = /^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$/;

/** A `t="d"` value as a date, read as the general path reads it (UTC; a time alone is a time of day 0). */
function parseDate(text: string, date1904: boolean): Date {
  let m = TIME_OF_DAY.exec(text);
  if (m)
    return new Date(
      (date1904 ? timeBase1904 : timeBase) +
        ((parseInt(m[1], 10) * 60 + parseInt(m[2], 10)) * 60 + (m[3] ? parseInt(m[3].slice(1), 10) : 0)) * 1000 +
        (m[4] ? parseInt((m[4] + "000").slice(1, 4), 10) : 0),
    );
  m = DAY.exec(text);
  if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 0, 0, 0, 0));
  m = DAY_AND_TIME.exec(text);
  if (m)
    return new Date(
      Date.UTC(
        +m[1],
        +m[2] - 1,
        +m[3],
        +m[4],
        +m[5],
        (m[6] && parseInt(m[6].slice(1), 10)) || 0,
        (m[7] && parseInt((m[7] + "0000").slice(1, 4), 10)) || 0,
      ),
    );
  return new Date(text);
}

/** A date as a spreadsheet serial number (with the 1900 leap-year bug, as the general path counts). */
function serialOf(date: Date, date1904: boolean): number {
  const days = (date.getTime() - dateBase) / 86_400_000;
  if (date1904) {
    const shifted = days - 1462;
    return shifted < -1402 ? shifted - 1 : shifted;
  }
  return days < 60 ? days - 1 : days;
}

const WIDE_CHAR = /[^\x00-\x7f]/;
const DIGITS = /^\d+$/;
/** The values a raw number can be read from without further thought. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d*)?(?:[Ee][-+]?\d+)?$/;

const finite = (value: number): CellValue => (Number.isFinite(value) ? value : null);

/**
 * The value of one cell, as the general path gives it: `type` its `t` attribute (undefined when absent), `raw` its
 * `<v>` text (undefined when absent or empty), `inline` its `<is>` content (undefined when absent).
 */
function valueOf(
  type: string | undefined,
  raw: string | undefined,
  inline: string | undefined,
  strings: (string | undefined)[] | null,
  date1904: boolean,
): CellValue {
  if (type === undefined && raw === undefined) return null;
  switch (type === undefined || type === "" ? "n" : type) {
    case "n": {
      if (raw === undefined) return null;
      if (PLAIN_NUMBER.test(raw)) return finite(parseFloat(raw));
      if (WIDE_CHAR.test(raw)) return unsure();
      return finite(parseFloat(decodeText(raw, false)));
    }
    case "s": {
      if (raw === undefined) return null;
      if (strings === null || !DIGITS.test(raw)) return unsure();
      const index = parseInt(raw, 10);
      if (index >= strings.length) return unsure();
      const text = strings[index];
      return text === undefined || text === "" ? null : text;
    }
    case "str": {
      if (raw === undefined) return null;
      if (raw.indexOf("&") < 0 && raw.indexOf("_") < 0 && raw.indexOf("\r") < 0) return raw;
      // Decoded twice, the first time from the file's bytes: a reference that gives more than ASCII there would
      // become other characters once the bytes are read as UTF-8.
      const produced = { max: 0 };
      const once = decodeText(raw, false, produced);
      if (produced.max > 0x7f) return unsure();
      const text = decodeText(once, true);
      return text === "" ? null : text;
    }
    case "inlineStr": {
      const text = inline === undefined ? "" : itemText(inline, false);
      return text === undefined || text === "" ? null : text;
    }
    case "b": {
      const text = raw === undefined ? undefined : decodeText(raw, false);
      return text === "1" || text === "true";
    }
    case "d": {
      if (raw === undefined || WIDE_CHAR.test(raw)) return unsure();
      return finite(serialOf(parseDate(decodeText(raw, false), date1904), date1904));
    }
    default:
      return null;
  }
}

// ——— The sheet ———

/** The tags sheet-size.ts counts (rows and cells, with any prefix). */
const COUNTED_TAG = /<\/?(?:[\w.-]+:)?(?:row|c)(?=[\s/>])/;

/** A row's start tag: its attributes, and "/" when it closes itself. */
const ROW = /<row((?:\s+[\w.:-]+=(?:"[^"'<>]*"|'[^"'<>]*'))*)\s*(\/?)>/y;
/** A cell in any form this reader knows: attributes in any order and quotes, white space between its children, an
 * optional formula, value and inline string. Groups: attributes, "/" when closed on itself, the value, the inline
 * string. */
const ANY_CELL =
  /<c((?:\s+[\w.:-]+=(?:"[^"'<>]*"|'[^"'<>]*'))*)\s*(?:(\/)>|>[\t\n\r ]*(?:<f\b[^<>]*?(?:\/>|>[^<]*<\/f>)[\t\n\r ]*)?(?:<v(?:\s+xml:space=(?:"preserve"|'preserve'))?\s*>([^<]*)<\/v>[\t\n\r ]*)?(?:<is>([\s\S]*?)<\/is>[\t\n\r ]*)?<\/c>)/y;
/** A row's attributes beginning with its number, the rest to be looked at for anything the general path could also
 * take for the number. */
const ROW_NUMBER = /^ r="([1-9]\d*)"((?: [A-Za-z][\w.]*(?::[A-Za-z][\w.]*)?="[^"'<>]*")*)$/;
const LOOKS_LIKE_ROW_NUMBER = /[rR]=|_/;
/** The attributes a cell may have (`space` is `xml:space`). */
const CELL_ATTRIBUTES = new Set(["r", "s", "t", "cm", "vm", "ph", "space"]);
const REFERENCE = /^([A-Z]{1,3})([1-9]\d*)$/;
/** What an inline string may not hold for the general path to find it where this reader does. */
const UNSAFE_INLINE = /<\/?[\w.-]+:|<!|<\?|<c[ />]|<v\b|<\/row>/;
/** An `r="` anywhere in a cell without a reference: the general path would take it for the cell's reference. */
const STRAY_REFERENCE = /r=["']/;
const SPACE = /[\t\n\r ]*/y;
/** How many distinct texts with references or non-ASCII bytes a read keeps decoded. */
const DECODED_TEXTS = 50_000;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUOTE = 0x22;
const AMPERSAND = 0x26;
const UNDERSCORE = 0x5f;
const CR = 0x0d;
const SPACE_CHAR = 0x20;
const EQUALS = 0x3d;
const LETTER_C = 0x63;
const LETTER_F = 0x66;
const LETTER_N = 0x6e;
const LETTER_R = 0x72;
const LETTER_S = 0x73;
const LETTER_T = 0x74;
const LETTER_V = 0x76;
const isUpper = (code: number) => code >= 0x41 && code <= 0x5a;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const TYPE_NAME = /^[a-zA-Z]+$/;
const PRESERVE = ' xml:space="preserve"';
const PRESERVED_VALUE = '<v xml:space="preserve">';

function columnOf(letters: string): number {
  let column = 0;
  for (let i = 0; i < letters.length; i++) column = column * 26 + letters.charCodeAt(i) - 64;
  return column - 1;
}

/** A row's number from its start tag's attributes: its `r`, or undefined without one. */
function rowNumberOf(attributes: string): number | undefined {
  if (attributes === "") return undefined;
  const quick = ROW_NUMBER.exec(attributes);
  let number: string | undefined;
  if (quick !== null && !LOOKS_LIKE_ROW_NUMBER.test(quick[2])) number = quick[1];
  else {
    number = attributesOf(attributes, true).get("r");
    if (number === undefined) return undefined;
    if (!DIGITS.test(number) || number.charCodeAt(0) === 0x30) unsure();
  }
  return parseInt(number, 10);
}

const USUAL_ROW = '<row r="';
/** The number usualRow found. */
let usualRowNumber = 0;

/**
 * A row's start tag at `at` as SheetJS writes it, `<row r="7">` (a number of at most 9 digits, no leading zero, no
 * other attribute), read without regular expressions, its number put in usualRowNumber. Returns the offset after it,
 * or -1 when the tag has another form (ROW and rowNumberOf read it then).
 */
function usualRow(xml: string, at: number): number {
  if (!xml.startsWith(USUAL_ROW, at)) return -1;
  let p = at + USUAL_ROW.length;
  let c = xml.charCodeAt(p);
  if (c === 0x30) return -1;
  let number = 0;
  let digits = 0;
  for (; isDigit(c) && digits < 9; c = xml.charCodeAt(++p)) {
    number = number * 10 + c - 0x30;
    digits++;
  }
  if (digits === 0 || c !== QUOTE || xml.charCodeAt(p + 1) !== GT) return -1;
  usualRowNumber = number;
  return p + 2;
}

/** What usualCell found in a cell (one object, filled again for each cell). */
const found = {
  /** Its column (0-based). */
  column: 0,
  closedItself: false,
  type: undefined as string | undefined,
  /** Where its value lies in the sheet's text (both -1 without a value). */
  rawStart: -1,
  rawEnd: -1,
  /** Whether the value holds an `&`, an `_` or a carriage return (text the general path may change). */
  escaped: false,
  /** Whether the value holds bytes beyond ASCII. */
  wide: false,
  /** The value as a shared string index when it is one (digits only), else -1. */
  index: -1,
  inline: undefined as string | undefined,
};

/**
 * A cell at `at` as Mesa's usual writers write it (`<c r="B7" s="1" t="s"><v>3</v></c>`: `r` in row `row`, maybe
 * `s`, maybe `t`, no white space; closed on itself, or an optional formula, value and inline string), read without
 * regular expressions into `found`. Returns the offset after it, or -1 when the cell has another form. (A function of
 * its own, small, so that it is compiled early in a read.)
 */
function usualCell(xml: string, at: number, row: number): number {
  if (xml.charCodeAt(at + 3) !== LETTER_R || xml.charCodeAt(at + 4) !== EQUALS || xml.charCodeAt(at + 5) !== QUOTE)
    return -1;
  let p = at + 6;
  let letters = 0;
  let column = 0;
  let c = xml.charCodeAt(p);
  for (; isUpper(c); c = xml.charCodeAt(++p)) {
    column = column * 26 + c - 64;
    letters++;
  }
  if (letters === 0 || letters > 3 || c === 0x30) return -1;
  // The row digits, which must be this row's as written (no leading zero).
  let number = 0;
  for (; isDigit(c); c = xml.charCodeAt(++p)) number = number * 10 + c - 0x30;
  if (number !== row || c !== QUOTE) return -1;
  c = xml.charCodeAt(++p);
  if (
    c === SPACE_CHAR &&
    xml.charCodeAt(p + 1) === LETTER_S &&
    xml.charCodeAt(p + 2) === EQUALS &&
    xml.charCodeAt(p + 3) === QUOTE
  ) {
    p += 4;
    for (c = xml.charCodeAt(p); isDigit(c); c = xml.charCodeAt(++p));
    if (c !== QUOTE) return -1;
    c = xml.charCodeAt(++p);
  }
  let type: string | undefined;
  if (
    c === SPACE_CHAR &&
    xml.charCodeAt(p + 1) === LETTER_T &&
    xml.charCodeAt(p + 2) === EQUALS &&
    xml.charCodeAt(p + 3) === QUOTE
  ) {
    p += 4;
    const first = xml.charCodeAt(p);
    if (first === LETTER_S && xml.charCodeAt(p + 1) === QUOTE) type = "s";
    else if (first === LETTER_N && xml.charCodeAt(p + 1) === QUOTE) type = "n";
    else if (first === LETTER_S && xml.startsWith('tr"', p + 1)) type = "str";
    else {
      const close = xml.indexOf('"', p);
      type = close < 0 ? "" : xml.slice(p, close);
      if (!TYPE_NAME.test(type)) return -1;
    }
    p += type.length + 1;
    c = xml.charCodeAt(p);
  }
  if (c === SPACE_CHAR && xml.startsWith(PRESERVE, p)) c = xml.charCodeAt((p += PRESERVE.length));
  found.column = column - 1;
  found.type = type;
  found.rawStart = -1;
  found.rawEnd = -1;
  found.escaped = false;
  found.wide = false;
  found.index = -1;
  found.inline = undefined;
  if (c === SLASH) {
    if (xml.charCodeAt(p + 1) !== GT) return -1;
    found.closedItself = true;
    return p + 2;
  }
  if (c !== GT) return -1;
  found.closedItself = false;
  c = xml.charCodeAt(++p);
  if (c === LT && xml.charCodeAt(p + 1) === LETTER_F) {
    // A formula, never evaluated: skipped.
    const after = xml.charCodeAt(p + 2);
    if (after !== GT && after !== SLASH && !isXmlSpace(after)) return -1;
    const tagEnd = xml.indexOf(">", p);
    const nextTag = xml.indexOf("<", p + 1);
    if (tagEnd < 0 || (nextTag >= 0 && nextTag < tagEnd)) return -1;
    if (xml.charCodeAt(tagEnd - 1) === SLASH) p = tagEnd + 1;
    else {
      if (!xml.startsWith("</f>", nextTag)) return -1;
      p = nextTag + 4;
    }
    c = xml.charCodeAt(p);
  }
  // A value (whose spaces are kept or not: the general path keeps them either way).
  const valueStart =
    c !== LT || xml.charCodeAt(p + 1) !== LETTER_V
      ? -1
      : xml.charCodeAt(p + 2) === GT
        ? p + 3
        : xml.startsWith(PRESERVED_VALUE, p)
          ? p + PRESERVED_VALUE.length
          : -1;
  if (valueStart >= 0) {
    p = valueStart;
    found.rawStart = p;
    // Read to the end of the value, learning whether it is a shared string index, and whether it reads the same
    // from the file's bytes as from this text.
    let digits = type === "s" ? 0 : -1;
    let index = 0;
    let escaped = false;
    let wide = false;
    for (c = xml.charCodeAt(p); c !== LT; c = xml.charCodeAt(++p)) {
      if (c !== c) return -1;
      if (c >= 0x80) wide = true;
      else if (c === AMPERSAND || c === UNDERSCORE || c === CR) escaped = true;
      if (digits >= 0) {
        if (isDigit(c) && digits < 9) {
          index = index * 10 + c - 0x30;
          digits++;
        } else digits = -1;
      }
    }
    found.rawEnd = p;
    found.escaped = escaped;
    found.wide = wide;
    if (digits > 0) found.index = index;
    if (xml.charCodeAt(p + 1) !== SLASH || xml.charCodeAt(p + 2) !== LETTER_V || xml.charCodeAt(p + 3) !== GT)
      return -1;
    p += 4;
    c = xml.charCodeAt(p);
  }
  if (c === LT && xml.startsWith("<is>", p)) {
    const close = xml.indexOf("</is>", p + 4);
    if (close < 0) return -1;
    found.inline = xml.slice(p + 4, close);
    p = close + 5;
    c = xml.charCodeAt(p);
  }
  if (c !== LT || xml.charCodeAt(p + 1) !== SLASH || xml.charCodeAt(p + 2) !== LETTER_C || xml.charCodeAt(p + 3) !== GT)
    return -1;
  return p + 4;
}

interface SheetScan {
  /** The rows read, packed as they are read (rows without a value between two that have one are empty). */
  rows: SheetPacker;
  width: number;
  /** Whether a value lies in the row past `bounds.rows` that is still read (the general path then refuses). */
  beyond: boolean;
}

/**
 * Reads the first sheet's XML: its values, and the checks sheet-size.ts makes on it, in the same order (a cell in a
 * row past the limit, then the cell budget), refused as they are met. Rows end at the last one with a value.
 *
 * A cell as Mesa's usual writers write it (`<c r="B7" s="1" t="s"><v>3</v></c>`: `r` in this row, maybe `s`, maybe
 * `t`, no white space; closed on itself, or an optional formula, value and inline string) is read without regular
 * expressions, its usual values (a shared string index, a plain number, text without references) without a detour;
 * any other cell goes through ANY_CELL and valueOf. So is a row's start tag as SheetJS writes it (`<row r="7">`); any
 * other goes through ROW and rowNumberOf.
 */
function scanSheet(
  sheet: Buffer,
  name: string,
  bounds: SheetBounds,
  strings: (string | undefined)[] | null,
  date1904: boolean,
): SheetScan {
  const maxCells = bounds.cells ?? MAX_SHEET_CELLS;
  const counted = bounds.countedRows ?? bounds.rows + 1;
  // The rows the general path reads: one past the limit.
  const readRows = bounds.rows + 1;
  const rows = new SheetPacker();
  const scan: SheetScan = { rows, width: 0, beyond: false };

  const open = sheetDataOpen(sheet);
  // The general path ends the data at the first end tag after the start, prefixed or not; a prefixed one before this
  // one stops the reading below.
  const end = open ? sheet.indexOf("</sheetData>", open.end) : -1;
  if (!open || end < 0) {
    // No sheet data: no cells, provided nothing else in the part looks like one.
    if (COUNTED_TAG.test(latin1(sheet, 0, sheet.length))) unsure();
    return scan;
  }
  if (!open.text.startsWith("<sheetData")) unsure();
  if (COUNTED_TAG.test(latin1(sheet, 0, open.index)) || COUNTED_TAG.test(latin1(sheet, end, sheet.length))) unsure();

  let row = 0;
  let inRow = false;
  let rowClosedItself = false;
  let read = false;
  let column = -1;
  // The cells SheetJS creates for the sheet's hyperlinks count first, as checkXlsxSheet counts them.
  let cells = sheet.includes("hyperlink") ? xlsxHyperlinkCells(latin1(sheet, 0, sheet.length)) : 0;
  if (cells > maxCells) refuse("import.too_many_cells", { sheet: name, max: maxCells });
  const decodedText = new Map<string, CellValue>();

  // The sheet data is read a window at a time, each ending after a row's end tag: only that much of it is ever text.
  for (let from = open.end; from < end;) {
    const cut = windowEnd(sheet, from, end);
    const xml = latin1(sheet, from, cut);
    const length = cut - from;
    let at = 0;
    while (at < length) {
      const code = xml.charCodeAt(at);
      if (code !== LT) {
        if (!isXmlSpace(code)) unsure();
        SPACE.lastIndex = at;
        SPACE.test(xml);
        at = SPACE.lastIndex;
        continue;
      }
      const next = xml.charCodeAt(at + 1);

      if (next === LETTER_C && inRow) {
        // A cell: where it lies (-1: after the previous one), whether it closes itself, its type and raw parts.
        let cellColumn = -1;
        let closedItself = false;
        let type: string | undefined;
        let raw: string | undefined;
        let inline: string | undefined;
        // For the usual form: where its value lies, whether that text needs decoding, a shared string index in it.
        let usual = false;
        let rawStart = -1;
        let rawEnd = -1;
        let escaped = false;
        let wide = false;
        let index = -1;

        const after = xml.charCodeAt(at + 2) === SPACE_CHAR ? usualCell(xml, at, row) : -1;
        if (after >= 0) {
          usual = true;
          at = after;
          cellColumn = found.column;
          closedItself = found.closedItself;
          type = found.type;
          rawStart = found.rawStart;
          rawEnd = found.rawEnd;
          escaped = found.escaped;
          wide = found.wide;
          index = found.index;
          inline = found.inline;
        }
        if (!usual) {
          ANY_CELL.lastIndex = at;
          const other = ANY_CELL.exec(xml) ?? unsure();
          at = ANY_CELL.lastIndex;
          const attributes = attributesOf(other[1], true);
          for (const key of attributes.keys()) if (!CELL_ATTRIBUTES.has(key)) unsure();
          const reference = attributes.get("r");
          if (reference !== undefined) {
            const parts = REFERENCE.exec(reference) ?? unsure();
            if (parts[2] !== String(row)) unsure();
            cellColumn = columnOf(parts[1]);
          } else if (STRAY_REFERENCE.test(other[0])) unsure();
          type = attributes.get("t");
          closedItself = other[2] !== undefined;
          raw = other[3] === "" ? undefined : other[3];
          inline = other[4];
        }
        if (at > length) unsure();

        if (cellColumn < 0) column++;
        else if (cellColumn <= column) unsure();
        else column = cellColumn;
        if (!closedItself) {
          if (row > bounds.rows) refuse("import.too_many_rows", { sheet: name, max: bounds.reportedRows });
          if (row <= counted && ++cells > maxCells) refuse("import.too_many_cells", { sheet: name, max: maxCells });
        }
        if (!read) continue;
        if (inline !== undefined && UNSAFE_INLINE.test(inline)) unsure();
        let value: CellValue;
        if (usual && rawEnd > rawStart && !escaped && !wide && (type === undefined || type === "n")) {
          value = finite(parseFloat(xml.slice(rawStart, rawEnd)));
        } else if (usual && rawEnd > rawStart && !escaped && !wide && type === "str") {
          // ASCII text without references: as it is, copied from the sheet's text without a string of its own.
          if (column < MAX_SHEET_COLUMNS) {
            rows.nulls(column - rows.rowCells);
            rows.textOf(xml, rawStart, rawEnd);
          }
          continue;
        } else if (usual && index >= 0 && type === "s") {
          if (strings === null || index >= strings.length) unsure();
          const text = (strings as (string | undefined)[])[index];
          value = text === undefined || text === "" ? null : text;
        } else if (usual && rawEnd > rawStart && type === "str") {
          // Text with bytes beyond ASCII (read as UTF-8), references or escapes: the same text repeats down a column (a
          // surname, a company, a cafe), decoded once.
          const text = xml.slice(rawStart, rawEnd);
          const known = decodedText.get(text);
          if (known !== undefined) value = known;
          else {
            value = escaped ? valueOf(type, fromBytes(text), inline, strings, date1904) : fromBytes(text);
            if (decodedText.size < DECODED_TEXTS) decodedText.set(text, value);
          }
        } else {
          if (usual && rawEnd > rawStart) raw = xml.slice(rawStart, rawEnd);
          value = valueOf(
            type,
            raw === undefined ? undefined : fromBytes(raw),
            inline === undefined ? undefined : fromBytes(inline),
            strings,
            date1904,
          );
        }
        if (value === null || column >= MAX_SHEET_COLUMNS) continue;
        rows.nulls(column - rows.rowCells);
        rows.cell(value);
        continue;
      }

      if (next === SLASH && inRow && xml.startsWith("</row>", at)) {
        at += 6;
        inRow = false;
        if (!read || rows.rowCells === 0) continue;
        if (row > bounds.rows) scan.beyond = true;
        if (rows.rowCells > scan.width) scan.width = rows.rowCells;
        // The rows between the last one with a value and this one are empty (they hold no cell, so they go first).
        rows.emptyRows(row - 1 - rows.rowCount);
        rows.endRow();
        continue;
      }

      if (next === LETTER_R && !inRow) {
        const after = usualRow(xml, at);
        let number: number | undefined;
        let closedItself = false;
        if (after >= 0) {
          at = after;
          number = usualRowNumber;
        } else {
          ROW.lastIndex = at;
          const tag = ROW.exec(xml) ?? unsure();
          at = ROW.lastIndex;
          number = rowNumberOf(tag[1]);
          closedItself = tag[2] === "/";
        }
        if (number === undefined) {
          // Numbered after the previous row: the general path and sheet-size.ts count a row closed on itself
          // differently there.
          if (rowClosedItself) unsure();
          row++;
        } else {
          if (number <= row) unsure();
          row = number;
        }
        rowClosedItself = closedItself;
        if (rowClosedItself) continue;
        inRow = true;
        read = row <= readRows;
        column = -1;
        continue;
      }
      unsure();
    }
    // A window ends where a row ends; anything else (a row's end tag inside something else) is read differently.
    if (at !== length || inRow) unsure();
    // The window's text is garbage now, before the next one. JavaScriptCore lets such large strings pile up (a
    // 33 MB sheet peaked at about 190 MiB, against about 135 MiB so); a full collection of the parse worker's small
    // heap takes a few ms. A sheet of one window (most) needs none.
    if (cut < end) Bun.gc(true);
    from = cut;
  }
  return scan;
}

/** How much of the sheet's data, as text, is read at a time (at least: a window ends after a row's end tag). */
const WINDOW_BYTES = 4 * 1024 * 1024;

/** Where the window of sheet data from `from` ends: after the first row end tag WINDOW_BYTES on, else at `end`. */
function windowEnd(sheet: Buffer, from: number, end: number): number {
  if (end - from <= WINDOW_BYTES) return end;
  const rowEnd = sheet.indexOf("</row>", from + WINDOW_BYTES);
  return rowEnd < 0 || rowEnd + 6 > end ? end : rowEnd + 6;
}

/** Bytes of the sheet as text, one character per byte. */
const latin1 = (sheet: Buffer, from: number, to: number) => sheet.toString("latin1", from, to);

/** The sheet data's start tag, with or without a prefix (the general path takes the first one). */
const SHEET_DATA_OPEN = /^<(?:\w+:)?sheetData\b[^<>]*>$/;
const isWordByte = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;

/**
 * The first sheet data start tag (SHEET_DATA_OPEN), found without making text of the whole sheet: every `<` is
 * looked at once, and only a tag named sheetData (with a prefix or none) is read as text, to its first `>`.
 */
function sheetDataOpen(sheet: Buffer): { index: number; end: number; text: string } | null {
  for (let index = sheet.indexOf(LT); index >= 0;) {
    const next = sheet.indexOf(LT, index + 1);
    let name = index + 1;
    while (name < sheet.length && isWordByte(sheet[name])) name++;
    const named =
      sheet.toString("latin1", index + 1, index + 10) === "sheetData" ||
      (name > index + 1 && sheet[name] === 0x3a && sheet.toString("latin1", name + 1, name + 10) === "sheetData");
    if (named) {
      const tagEnd = next < 0 ? sheet.length : next;
      const close = sheet.subarray(index, tagEnd).indexOf(GT);
      if (close >= 0) {
        const text = latin1(sheet, index, index + close + 1);
        if (SHEET_DATA_OPEN.test(text)) return { index, end: index + close + 1, text };
      }
    }
    index = next;
  }
  return null;
}

/**
 * The sheet an import reads of a checked .xlsx zip (its first visible sheet) as SheetRows, read as described above;
 * or null when the general path must read it. `entries` are the zip's entries in its order (read.ts `checkZip`),
 * `first` that sheet's name, position and part (sheet-size.ts `firstXlsxSheet`; without a part, the general path
 * reads it). Throws ValidationFailed keyed `file` with the general path's refusals: a part
 * that does not inflate to its declared size, too many rows, too many cells (here or in any other part), an empty
 * sheet.
 */
export function readXlsxFirstSheet(
  bytes: Uint8Array,
  entries: ZipEntry[],
  first: XlsxFirstSheet,
  bounds: SheetBounds,
  limits: ReadLimits,
): SheetRows | null {
  const packed = readXlsxFirstSheetPacked(bytes, entries, first, bounds, limits);
  return packed && unpackSheet(packed);
}

/** readXlsxFirstSheet's sheet packed (packed-rows.ts), as the parse worker sends it: its rows never all values at once. */
export function readXlsxFirstSheetPacked(
  bytes: Uint8Array,
  entries: ZipEntry[],
  first: XlsxFirstSheet,
  bounds: SheetBounds,
  limits: ReadLimits,
): PackedSheet | null {
  if (first.path === null) return null;
  try {
    return read(bytes, entries, { ...first, path: first.path }, bounds, limits);
  } catch (error) {
    if (error instanceof NotCertain) return null;
    throw error;
  }
}

/** The sheet read, its part known. */
type ReadSheet = XlsxFirstSheet & { path: string };

function read(
  bytes: Uint8Array,
  entries: ZipEntry[],
  first: ReadSheet,
  bounds: SheetBounds,
  limits: ReadLimits,
): PackedSheet {
  // Parts are found by their exact names; the general path finds them whatever their case.
  const lowerNames = new Set<string>();
  for (const entry of entries) {
    const lower = entry.name.toLowerCase();
    if (lowerNames.has(lower) || OTHER_KINDS.has(lower)) unsure();
    lowerNames.add(lower);
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const part = (name: string) => {
    const entry = byName.get(name);
    return entry ? utf8(entryContent(bytes, entry, limits)) : null;
  };
  const byLowerName = new Map(entries.map((entry) => [entry.name.toLowerCase(), entry]));
  // A declared part that does not inflate to its size is refused by the general path, in the zip's order.
  const declaredPart = (name: string) => {
    const entry = byLowerName.get(name.toLowerCase());
    if (!entry) return null;
    if (entry.name.toLowerCase().endsWith(".bin")) unsure();
    try {
      return utf8(entryContent(bytes, entry, limits));
    } catch (error) {
      if (error instanceof ValidationFailed) unsure();
      throw error;
    }
  };
  const workbook = workbookOf(part, declaredPart, first);
  const sheetIndex = entries.findIndex((entry) => entry.name === first.path);
  if (sheetIndex < 0) unsure();
  let stringsIndex = -1;
  if (workbook.sharedStrings !== null) {
    stringsIndex = entries.findIndex((entry) => entry.name === workbook.sharedStrings);
    // A part named in another case is found by the general path; one not there at all leaves it no strings.
    if (stringsIndex < 0 && lowerNames.has(workbook.sharedStrings.toLowerCase())) unsure();
  }

  // Every other part is inflated and counted as the general path does, in the zip's order.
  const cellsOnly: SheetBounds = { ...bounds, rows: Number.POSITIVE_INFINITY, countedRows: bounds.rows + 1 };
  let stringsXml: string | null = null;
  const checkPart = (index: number) => {
    const entry = entries[index];
    if (index === stringsIndex) {
      stringsXml ??= utf8(entryContent(bytes, entry, limits));
      checkXlsxSheet(stringsXml, entry.name, cellsOnly);
    } else checkXlsxSheet(lenientDecoder.decode(entryContent(bytes, entry, limits)), entry.name, cellsOnly);
  };
  for (let i = 0; i < sheetIndex; i++) checkPart(i);
  if (stringsIndex > sheetIndex) stringsXml = utf8(entryContent(bytes, entries[stringsIndex], limits));
  const strings = stringsXml === null ? null : sharedStrings(stringsXml);
  const scan = scanSheet(
    sheetBytes(bytes, entries[sheetIndex], limits),
    first.name,
    bounds,
    strings,
    workbook.date1904,
  );
  for (let i = sheetIndex + 1; i < entries.length; i++) checkPart(i);

  if (scan.beyond) refuse("import.too_many_rows", { sheet: first.name, max: bounds.reportedRows });
  if (scan.rows.rowCount === 0) throw new ValidationFailed({ file: { key: "import.empty" } });
  return scan.rows.finish(first.name, 1, scan.width);
}

/**
 * The sheet's XML, its bytes. It is read as text with one character per byte, a window at a time: its markup is
 * ASCII, so it is read as well from this text as from the decoded one, without decoding 30 MB or holding it as a
 * string besides its bytes; each value with bytes beyond ASCII is decoded on its own (fromBytes). Bytes that are not
 * UTF-8 would decode differently on the general path.
 */
function sheetBytes(bytes: Uint8Array, entry: ZipEntry, limits: ReadLimits): Buffer {
  const content = entryContent(bytes, entry, limits);
  if (!isUtf8(content)) unsure();
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}
