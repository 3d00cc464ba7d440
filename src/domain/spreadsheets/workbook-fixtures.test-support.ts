/**
 * .xlsx files shaped as the writers Mesa's users have write them — Excel, LibreOffice, openpyxl, Apache POI's
 * streaming writer (SXSSF), Google Sheets — with the parts, attributes, orders and idioms of each: shared strings or
 * inline strings, relative or absolute targets, the content types first or last in the zip, a dimension or none,
 * sheets hidden with `state="hidden"`, first sheets not stored as sheet1.xml. Only tests import this file.
 */
import { deflateRawSync } from "node:zlib";
import { zipOf } from "./zip-fixtures.test-support";

export type Writer = "excel" | "libreoffice" | "openpyxl" | "poi" | "google";
export const WRITERS: Writer[] = ["excel", "libreoffice", "openpyxl", "poi", "google"];

export type Cell = string | number | null;

export interface SheetSpec {
  name: string;
  rows: Cell[][];
  /** `state="hidden"` (or `"veryHidden"`) in the workbook. */
  state?: "hidden" | "veryHidden";
  /** The part's file name under xl/worksheets/ (sheetN.xml by its position when not given). */
  file?: string;
  /** Merged ranges (`<mergeCells>` after the sheet data), such as "A1:E1" for a title. */
  merges?: string[];
}

/** One entry of the zip, in the zip's order. */
export interface Part {
  name: string;
  content: string;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const CT = "http://schemas.openxmlformats.org/package/2006/content-types";
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const TYPES = {
  workbook: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  worksheet: "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
  sharedStrings: "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml",
  styles: "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml",
  theme: "application/vnd.openxmlformats-officedocument.theme+xml",
  metadata: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml",
  person: "application/vnd.ms-excel.person+xml",
  core: "application/vnd.openxmlformats-package.core-properties+xml",
  app: "application/vnd.openxmlformats-officedocument.extended-properties+xml",
  rels: "application/vnd.openxmlformats-package.relationships+xml",
};
const PERSON_RELATIONSHIP = "http://schemas.microsoft.com/office/2017/10/relationships/person";

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const column = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : column(Math.floor(index / 26) - 1) + column(index % 26);

/** The shared string table of the sheets: each distinct text once, in the order met. */
class Strings {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  private count = 0;
  of(text: string): number {
    this.count++;
    let at = this.index.get(text);
    if (at === undefined) {
      at = this.list.length;
      this.list.push(text);
      this.index.set(text, at);
    }
    return at;
  }
  xml(preserve: boolean): string {
    const items = this.list
      .map((text) =>
        preserve || /^\s|\s$/.test(text)
          ? `<si><t xml:space="preserve">${escape(text)}</t></si>`
          : `<si><t>${escape(text)}</t></si>`,
      )
      .join("");
    return `${DECL}<sst xmlns="${MAIN}" count="${this.count}" uniqueCount="${this.list.length}">${items}</sst>`;
  }
}

/** A number as POI's streaming writer writes it (Java's Double.toString: 4.0123456E7, 7.0, 0.5). */
function javaDouble(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e7) return `${value}.0`;
  if (Math.abs(value) >= 1e-3 && Math.abs(value) < 1e7) return String(value);
  const [mantissa, exponent] = value.toExponential().split("e");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

function cellXml(writer: Writer, ref: string, value: Cell, strings: Strings): string {
  if (value === null) return "";
  if (typeof value === "number") {
    switch (writer) {
      case "excel":
        return `<c r="${ref}" s="1"><v>${value}</v></c>`;
      case "libreoffice":
        return `<c r="${ref}" s="0" t="n"><v>${value}</v></c>`;
      case "openpyxl":
        return `<c r="${ref}" t="n"><v>${value}</v></c>`;
      case "poi":
        return `<c r="${ref}" t="n"><v>${javaDouble(value)}</v></c>`;
      case "google":
        return `<c r="${ref}" s="2"><v>${value}</v></c>`;
    }
  }
  switch (writer) {
    case "poi":
      return `<c r="${ref}" t="inlineStr"><is><t>${escape(value)}</t></is></c>`;
    case "libreoffice":
      return `<c r="${ref}" s="0" t="s"><v>${strings.of(value)}</v></c>`;
    case "google":
      return `<c r="${ref}" s="1" t="s"><v>${strings.of(value)}</v></c>`;
    default:
      return `<c r="${ref}" t="s"><v>${strings.of(value)}</v></c>`;
  }
}

function rowXml(writer: Writer, number: number, cells: string, width: number): string {
  switch (writer) {
    case "excel":
      return `<row r="${number}" spans="1:${width}" x14ac:dyDescent="0.25">${cells}</row>`;
    case "libreoffice":
      return `<row r="${number}" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">${cells}</row>`;
    case "poi":
      return `\n<row r="${number}">${cells}</row>`;
    default:
      return `<row r="${number}">${cells}</row>`;
  }
}

function sheetXml(writer: Writer, sheet: SheetSpec, strings: Strings, selected: boolean): string {
  const width = Math.max(1, ...sheet.rows.map((row) => row.length));
  const dimension = `<dimension ref="A1:${column(width - 1)}${Math.max(1, sheet.rows.length)}"/>`;
  const data = sheet.rows
    .map((row, r) => {
      const cells = row.map((value, c) => cellXml(writer, `${column(c)}${r + 1}`, value, strings)).join("");
      return cells === "" && writer !== "libreoffice" ? "" : rowXml(writer, r + 1, cells, width);
    })
    .join("");
  const merges = sheet.merges?.length
    ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((ref) => `<mergeCell ref="${ref}"/>`).join("")}</mergeCells>`
    : "";
  const margins = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>';
  switch (writer) {
    case "excel":
      return `${DECL.replace("\n", "\r\n")}<worksheet xmlns="${MAIN}" xmlns:r="${R}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3" xr:uid="{00000000-0001-0000-0000-000000000000}">${dimension}<sheetViews><sheetView ${selected ? 'tabSelected="1" ' : ""}workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="28.7109375" customWidth="1"/></cols><sheetData>${data}</sheetData>${merges}${margins}</worksheet>`;
    case "libreoffice":
      return `${DECL}<worksheet xmlns="${MAIN}" xmlns:r="${R}" xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr>${dimension}<sheetViews><sheetView showFormulas="false" showGridLines="true" showRowColHeaders="true" showZeros="true" rightToLeft="false" tabSelected="${selected}" showOutlineSymbols="true" defaultGridColor="true" view="normal" topLeftCell="A1" colorId="64" zoomScale="100" zoomScaleNormal="100" zoomScalePageLayoutView="100" workbookViewId="0"><selection pane="topLeft" activeCell="A1" activeCellId="0" sqref="A1"/></sheetView></sheetViews><sheetFormatPr defaultColWidth="11.53515625" defaultRowHeight="12.8" zeroHeight="false" outlineLevelRow="0" outlineLevelCol="0"></sheetFormatPr><sheetData>${data}</sheetData>${merges}<printOptions headings="false" gridLines="false" gridLinesSet="true" horizontalCentered="false" verticalCentered="false"/><pageMargins left="0.7875" right="0.7875" top="1.05277777777778" bottom="1.05277777777778" header="0.7875" footer="0.7875"/><pageSetup paperSize="9" scale="100" fitToWidth="1" fitToHeight="1" pageOrder="downThenOver" orientation="portrait" blackAndWhite="false" draft="false" cellComments="none" horizontalDpi="300" verticalDpi="300" copies="1"/><headerFooter differentFirst="false" differentOddEven="false"><oddHeader>&amp;C&amp;&quot;Times New Roman,Regular&quot;&amp;12&amp;A</oddHeader><oddFooter>&amp;C&amp;&quot;Times New Roman,Regular&quot;&amp;12Page &amp;P</oddFooter></headerFooter></worksheet>`;
    case "openpyxl":
      return `<worksheet xmlns="${MAIN}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1"/><pageSetUpPr/></sheetPr>${dimension}<sheetViews><sheetView workbookViewId="0"><selection activeCell="A1" sqref="A1"/></sheetView></sheetViews><sheetFormatPr baseColWidth="8" defaultRowHeight="15"/><sheetData>${data}</sheetData>${merges}${margins}</worksheet>`;
    case "poi":
      // The streaming writer knows the dimension only at the end, and writes none.
      return `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"${selected ? ' tabSelected="true"' : ""}/></sheetViews><sheetFormatPr defaultRowHeight="15.0"/><sheetData>${data}\n</sheetData>${merges}<pageMargins bottom="0.75" footer="0.3" header="0.3" left="0.7" right="0.7" top="0.75"/></worksheet>`;
    case "google":
      return `${DECL}<worksheet xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:mv="urn:schemas-microsoft-com:mac:vml" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:mx="http://schemas.microsoft.com/office/mac/excel/2008/main" xmlns:r="${R}" xmlns="${MAIN}"><sheetPr><outlinePr summaryBelow="0" summaryRight="0"/></sheetPr><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr customHeight="1" defaultColWidth="12.63" defaultRowHeight="15.75"/><sheetData>${data}</sheetData>${merges}<drawing r:id="rId1"/></worksheet>`;
  }
}

const STYLES = `${DECL}<styleSheet xmlns="${MAIN}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac x16r2 xr" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><numFmts count="1"><numFmt numFmtId="164" formatCode="00000000"/></numFmts><fonts count="2" x14ac:knownFonts="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font><font><b/><sz val="14"/><color rgb="FF1F4E79"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment horizontal="center"/></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/><extLst><ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:slicerStyles defaultSlicerStyle="SlicerStyleLight1"/></ext></extLst></styleSheet>`;
const THEME = `${DECL}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements><a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1></a:clrScheme><a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>`;
export const EXCEL_METADATA = `${DECL}<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`;
const PERSON = `${DECL}<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="${MAIN}"><person displayName="Rosa Quispe" id="{6A1D8F0E-3C55-4D3B-9C8E-2F1B0D4A7E21}" userId="rosa.quispe@contrata.pe" providerId="PeoplePicker"/></personList>`;
const CORE = `${DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>Rosa Quispe</dc:creator><cp:lastModifiedBy>Rosa Quispe</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">2026-03-02T13:04:11Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2026-03-09T08:41:27Z</dcterms:modified></cp:coreProperties>`;

/** Excel's docProps/app.xml: the sheets' names after a count of them. */
export function appXml(sheets: string[], application = "Microsoft Excel"): string {
  return `${DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>${application}</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Hojas de cálculo</vt:lpstr></vt:variant><vt:variant><vt:i4>${sheets.length}</vt:i4></vt:variant></vt:vector></HeadingPairs><TitlesOfParts><vt:vector size="${sheets.length}" baseType="lpstr">${sheets.map((name) => `<vt:lpstr>${escape(name)}</vt:lpstr>`).join("")}</vt:vector></TitlesOfParts><LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>16.0300</AppVersion></Properties>`;
}

interface Declared {
  part: string;
  type: string;
  /** The workbook's relationship to it, when it has one. */
  relationship?: { type: string; target: string };
}

function contentTypes(writer: Writer, declared: Declared[]): string {
  const override = (d: Declared) =>
    writer === "poi"
      ? `<Override ContentType="${d.type}" PartName="/${d.part}"/>`
      : `<Override PartName="/${d.part}" ContentType="${d.type}"/>`;
  const defaults =
    writer === "libreoffice"
      ? `<Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="${TYPES.rels}"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/>`
      : `<Default Extension="rels" ContentType="${TYPES.rels}"/><Default Extension="xml" ContentType="application/xml"/>`;
  return `${writer === "openpyxl" ? "" : DECL}<Types xmlns="${CT}">${defaults}${declared.map(override).join("")}</Types>`;
}

function relationships(writer: Writer, list: { id: string; type: string; target: string }[]): string {
  const one = (r: { id: string; type: string; target: string }) =>
    writer === "openpyxl"
      ? `<Relationship Type="${r.type}" Target="${r.target}" Id="${r.id}"/>`
      : writer === "poi"
        ? `<Relationship Id="${r.id}" Target="${r.target}" Type="${r.type}"/>`
        : `<Relationship Id="${r.id}" Type="${r.type}" Target="${r.target}"/>`;
  return `${writer === "openpyxl" ? "" : DECL}<Relationships xmlns="${PKG_RELS}">${list.map(one).join("")}</Relationships>`;
}

function workbookXml(writer: Writer, sheets: { spec: SheetSpec; id: string }[]): string {
  const activeTab = Math.max(
    0,
    sheets.findIndex((s) => s.spec.state === undefined),
  );
  const sheet = ({ spec, id }: { spec: SheetSpec; id: string }, i: number) => {
    const name = escape(spec.name);
    switch (writer) {
      case "libreoffice":
        return `<sheet name="${name}" sheetId="${i + 1}" state="${spec.state ?? "visible"}" r:id="${id}"/>`;
      case "openpyxl":
        return `<sheet xmlns:r="${R}" name="${name}" sheetId="${i + 1}" state="${spec.state ?? "visible"}" r:id="${id}"/>`;
      case "poi":
        return `<sheet name="${name}" r:id="${id}" sheetId="${i + 1}"${spec.state ? ` state="${spec.state}"` : ""}/>`;
      case "google":
        return `<sheet state="${spec.state ?? "visible"}" name="${name}" sheetId="${i + 1}" r:id="${id}"/>`;
      default:
        return `<sheet name="${name}" sheetId="${i + 1}"${spec.state ? ` state="${spec.state}"` : ""} r:id="${id}"/>`;
    }
  };
  const list = `<sheets>${sheets.map(sheet).join("")}</sheets>`;
  switch (writer) {
    case "excel":
      return `${DECL.replace("\n", "\r\n")}<workbook xmlns="${MAIN}" xmlns:r="${R}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6" xmlns:xr10="http://schemas.microsoft.com/office/spreadsheetml/2016/revision10" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2"><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="27328"/><workbookPr defaultThemeVersion="166925"/><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x15"><x15ac:absPath url="C:\\Users\\rosa\\Documents\\" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"/></mc:Choice></mc:AlternateContent><xr:revisionPtr revIDLastSave="0" documentId="8_{6B1C2F4E-7A0D-4C1B-8E9F-1A2B3C4D5E6F}" xr6:coauthVersionLast="47" xr6:coauthVersionMax="47" xr10:uidLastSave="{00000000-0000-0000-0000-000000000000}"/><bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15840"${activeTab ? ` activeTab="${activeTab}"` : ""} xr2:uid="{1A2B3C4D-0000-0000-0000-000000000000}"/></bookViews>${list}<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'${escape(sheets[0].spec.name)}'!$A$1:$E$3</definedName></definedNames><calcPr calcId="191029"/></workbook>`;
    case "libreoffice":
      return `${DECL}<workbook xmlns="${MAIN}" xmlns:r="${R}"><fileVersion appName="Calc"/><workbookPr backupFile="false" showObjects="all" date1904="false"/><workbookProtection/><bookViews><workbookView showHorizontalScroll="true" showVerticalScroll="true" showSheetTabs="true" xWindow="0" yWindow="0" windowWidth="16384" windowHeight="8192" tabRatio="500" firstSheet="${activeTab}" activeTab="${activeTab}"/></bookViews>${list}<calcPr iterateCount="100" refMode="A1" iterate="false" iterateDelta="0.001"/><extLst><ext xmlns:loext="http://schemas.libreoffice.org/" uri="{7626C862-2A13-11E5-B345-FEFF819CDC9F}"><loext:extCalcPr stringRefSyntax="CalcA1"/></ext></extLst></workbook>`;
    case "openpyxl":
      return `<workbook xmlns="${MAIN}"><workbookPr/><workbookProtection/><bookViews><workbookView visibility="visible" minimized="0" showHorizontalScroll="1" showVerticalScroll="1" showSheetTabs="1" tabRatio="600" firstSheet="0" activeTab="${activeTab}" autoFilterDateGrouping="1"/></bookViews>${list}<definedNames/><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>`;
    case "poi":
      return `<?xml version="1.0" encoding="UTF-8"?>\n<workbook xmlns="${MAIN}" xmlns:r="${R}"><workbookPr date1904="false"/><bookViews><workbookView activeTab="${activeTab}"/></bookViews>${list}</workbook>`;
    case "google":
      return `${DECL}<workbook xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:mv="urn:schemas-microsoft-com:mac:vml" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:mx="http://schemas.microsoft.com/office/mac/excel/2008/main" xmlns:r="${R}" xmlns="${MAIN}"><workbookPr/>${list}<definedNames/><calcPr/></workbook>`;
  }
}

/** The parts of an .xlsx of `sheets` as `writer` writes it, in the order it puts them in the zip. */
export function writtenBy(writer: Writer, sheets: SheetSpec[]): Part[] {
  const strings = new Strings();
  const firstVisible = Math.max(
    0,
    sheets.findIndex((s) => s.state === undefined),
  );
  const sheetParts = sheets.map((spec, i) => ({
    spec,
    part: `xl/worksheets/${spec.file ?? `sheet${i + 1}.xml`}`,
    xml: sheetXml(writer, spec, strings, i === firstVisible),
  }));
  // Each writer's relationship ids: Excel numbers the sheets first, LibreOffice the styles first, Google the theme.
  const offset = writer === "libreoffice" ? 2 : writer === "google" ? 4 : writer === "poi" ? 3 : 1;
  const withIds = sheetParts.map((s, i) => ({ ...s, id: `rId${i + offset}` }));
  const n = sheets.length;
  const next = (k: number) => `rId${(writer === "excel" || writer === "openpyxl" ? n : 0) + k}`;
  const sheetTarget = (part: string) => (writer === "openpyxl" ? `/${part}` : part.slice("xl/".length));
  const declared: Declared[] = [{ part: "xl/workbook.xml", type: TYPES.workbook }];
  for (const s of withIds) declared.push({ part: s.part, type: TYPES.worksheet });
  const others: { declared: Declared; content: () => string; id: string }[] = [];
  const add = (part: string, type: string, relationship: string | null, id: string, content: () => string) =>
    others.push({
      declared: {
        part,
        type,
        ...(relationship ? { relationship: { type: relationship, target: part.slice("xl/".length) } } : {}),
      },
      content,
      id,
    });
  switch (writer) {
    case "excel":
      add("xl/theme/theme1.xml", TYPES.theme, `${R}/theme`, next(1), () => THEME);
      add("xl/styles.xml", TYPES.styles, `${R}/styles`, next(2), () => STYLES);
      add("xl/sharedStrings.xml", TYPES.sharedStrings, `${R}/sharedStrings`, next(3), () => strings.xml(false));
      add("xl/metadata.xml", TYPES.metadata, `${R}/sheetMetadata`, next(4), () => EXCEL_METADATA);
      add("xl/persons/person.xml", TYPES.person, PERSON_RELATIONSHIP, next(5), () => PERSON);
      break;
    case "libreoffice":
      add("xl/styles.xml", TYPES.styles, `${R}/styles`, "rId1", () => STYLES);
      add("xl/sharedStrings.xml", TYPES.sharedStrings, `${R}/sharedStrings`, `rId${n + 2}`, () => strings.xml(true));
      break;
    case "openpyxl":
      add("xl/theme/theme1.xml", TYPES.theme, `${R}/theme`, next(2), () => THEME);
      add("xl/styles.xml", TYPES.styles, `${R}/styles`, next(1), () => STYLES);
      add("xl/sharedStrings.xml", TYPES.sharedStrings, `${R}/sharedStrings`, next(3), () => strings.xml(false));
      break;
    case "poi":
      add("xl/sharedStrings.xml", TYPES.sharedStrings, `${R}/sharedStrings`, "rId1", () => strings.xml(false));
      add("xl/styles.xml", TYPES.styles, `${R}/styles`, "rId2", () => STYLES);
      break;
    case "google":
      add("xl/theme/theme1.xml", TYPES.theme, `${R}/theme`, "rId1", () => THEME);
      add("xl/styles.xml", TYPES.styles, `${R}/styles`, "rId2", () => STYLES);
      add("xl/sharedStrings.xml", TYPES.sharedStrings, `${R}/sharedStrings`, "rId3", () => strings.xml(false));
      break;
  }
  for (const o of others) declared.push(o.declared);
  if (writer !== "google") {
    declared.push({ part: "docProps/core.xml", type: TYPES.core });
    declared.push({ part: "docProps/app.xml", type: TYPES.app });
  }
  const workbookRels = relationships(writer, [
    ...withIds.map((s) => ({ id: s.id, type: `${R}/worksheet`, target: sheetTarget(s.part) })),
    ...others.map((o) => ({ id: o.id, type: o.declared.relationship!.type, target: o.declared.relationship!.target })),
  ]);
  const rootRels = relationships(writer, [
    { id: "rId1", type: `${R}/officeDocument`, target: "xl/workbook.xml" },
    ...(writer === "google"
      ? []
      : [
          { id: "rId2", type: `${PKG_RELS}/metadata/core-properties`, target: "docProps/core.xml" },
          { id: "rId3", type: `${R}/extended-properties`, target: "docProps/app.xml" },
        ]),
  ]);
  const workbook = workbookXml(writer, withIds);
  const app = appXml(
    sheets.map((s) => s.name),
    writer === "libreoffice"
      ? "LibreOffice/7.6.4.1$Linux_X86_64 LibreOffice_project/e19e193f88cd6c0525a17fb7a176ed8e6a3e2aa1"
      : "Microsoft Excel",
  );
  // The sheets are written before the shared strings, which they fill.
  const sheetEntries = withIds.map((s) => ({ name: s.part, content: s.xml }));
  const otherEntries = others.map((o) => ({ name: o.declared.part, content: o.content() }));
  const contentTypesEntry = { name: "[Content_Types].xml", content: contentTypes(writer, declared) };
  const props = [
    { name: "docProps/core.xml", content: CORE },
    { name: "docProps/app.xml", content: app },
  ];
  switch (writer) {
    case "openpyxl":
      // openpyxl writes the content types last.
      return [
        ...props.reverse(),
        ...otherEntries.filter((e) => e.name.includes("theme")),
        ...sheetEntries,
        ...otherEntries.filter((e) => !e.name.includes("theme")),
        { name: "xl/workbook.xml", content: workbook },
        { name: "xl/_rels/workbook.xml.rels", content: workbookRels },
        { name: "_rels/.rels", content: rootRels },
        contentTypesEntry,
      ];
    case "google":
      return [
        { name: "xl/_rels/workbook.xml.rels", content: workbookRels },
        ...otherEntries,
        ...sheetEntries,
        { name: "xl/workbook.xml", content: workbook },
        { name: "_rels/.rels", content: rootRels },
        contentTypesEntry,
      ];
    default:
      return [
        contentTypesEntry,
        { name: "_rels/.rels", content: rootRels },
        { name: "xl/workbook.xml", content: workbook },
        { name: "xl/_rels/workbook.xml.rels", content: workbookRels },
        ...sheetEntries,
        ...otherEntries,
        ...props,
      ];
  }
}

/** The parts without the one named `name`. */
export const without = (parts: Part[], name: string): Part[] => parts.filter((p) => p.name !== name);

/** The parts with the content of `name` replaced (by a function of the old content, or a text). */
export function replaced(parts: Part[], name: string, content: string | ((old: string) => string)): Part[] {
  return parts.map((p) =>
    p.name === name ? { name, content: typeof content === "string" ? content : content(p.content) } : p,
  );
}

/** A zip of the parts, deflated (as every writer above does). */
export function zipped(parts: Part[]): Uint8Array {
  return zipOf(
    parts.map((p) => {
      const bytes = new TextEncoder().encode(p.content);
      return { name: p.name, content: new Uint8Array(deflateRawSync(bytes)), method: 8, size: bytes.length };
    }),
  );
}

/** An .xlsx of `sheets` as `writer` writes it. */
export const xlsxBy = (writer: Writer, sheets: SheetSpec[]): Uint8Array => zipped(writtenBy(writer, sheets));
