/**
 * Counting a sheet from its XML before SheetJS reads it: .ods repeats as SheetJS writes them out, .xlsx rows by their
 * numbers, the first sheet of an .xlsx found through its relationships, and an .ods manifest's encryption.
 */
import { describe, expect, test } from "bun:test";
import { ValidationFailed } from "../errors";
import {
  checkOdsContent,
  checkXlsxSheet,
  firstXlsxSheet,
  isBinaryWorkbook,
  odsHiddenSheets,
  odsIsEncrypted,
} from "./sheet-size";

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as ValidationFailed).errors.file;
  }
  throw new Error("not refused");
}

const bounds = { rows: 11, reportedRows: 10, cells: 100 };

const ods = (rows: string) =>
  `<?xml version="1.0"?><office:document-content><office:body><office:spreadsheet><table:table table:name="Comensales &amp; otros">${rows}</table:table></office:spreadsheet></office:body></office:document-content>`;
const row = (cells: string, attributes = "") => `<table:table-row${attributes}>${cells}</table:table-row>`;
const text = (value: string, attributes = "") =>
  `<table:table-cell office:value-type="string"${attributes}><text:p>${value}</text:p></table:table-cell>`;

describe(".ods content", () => {
  test("rows and cells within the bounds pass; empty repeated rows and cells cost nothing", () => {
    const blank = row(
      '<table:table-cell table:number-columns-repeated="16000"/>',
      ' table:number-rows-repeated="1048000"',
    );
    expect(() =>
      checkOdsContent(ods(row(text("Nombre")) + row(text("Rosa")).repeat(10) + blank), bounds),
    ).not.toThrow();
    // A styled cell without text, opened and closed, holds nothing either.
    const styled = row(
      '<table:table-cell table:style-name="ce1" table:number-columns-repeated="9000"></table:table-cell>',
    );
    expect(() => checkOdsContent(ods(styled.repeat(5)), bounds)).not.toThrow();
  });

  test("a repeated row with content past the row limit is refused, naming the table", () => {
    const xml = ods(row(text("Nombre")) + row(text("Rosa"), ' table:number-rows-repeated="11"'));
    expect(refusal(() => checkOdsContent(xml, bounds))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comensales & otros", max: 10 },
    });
    const numbers = ods(row('<table:table-cell office:value-type="float" office:value="1"/>'.repeat(1)).repeat(12));
    expect(() => checkOdsContent(numbers, bounds)).not.toThrow();
    const valued = ods(
      row('<table:table-cell office:value-type="float" office:value="1"></table:table-cell>').repeat(12),
    );
    expect(refusal(() => checkOdsContent(valued, bounds))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comensales & otros", max: 10 },
    });
  });

  test("cells repeated across columns and rows count each copy", () => {
    const xml = ods(row(text("x", ' table:number-columns-repeated="20"'), ' table:number-rows-repeated="6"'));
    expect(refusal(() => checkOdsContent(xml, bounds))).toEqual({
      key: "import.too_many_cells",
      params: { sheet: "Comensales & otros", max: 100 },
    });
    const fits = ods(row(text("x", ' table:number-columns-repeated="20"'), ' table:number-rows-repeated="5"'));
    expect(() => checkOdsContent(fits, bounds)).not.toThrow();
  });

  test("a `>` inside a quoted attribute does not hide the tags after it", () => {
    const formula =
      '<table:table-cell table:formula="of:=IF([.A1]>0;1;2)" office:value-type="float" office:value="1"></table:table-cell>';
    expect(refusal(() => checkOdsContent(ods(row(formula, ' table:number-rows-repeated="12"')), bounds))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "Comensales & otros", max: 10 },
    });
  });

  test("any namespace prefix is understood", () => {
    const xml = `<o:document-content><t:table t:name="S"><t:table-row t:number-rows-repeated="50"><t:table-cell><x:p>Rosa</x:p></t:table-cell></t:table-row></t:table></o:document-content>`;
    expect(refusal(() => checkOdsContent(xml, bounds))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "S", max: 10 },
    });
  });

  test("the manifest's encryption-data marks an encrypted file", () => {
    expect(
      odsIsEncrypted('<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"/></manifest:manifest>'),
    ).toBe(false);
    expect(
      odsIsEncrypted(
        '<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum="x"/></manifest:file-entry></manifest:manifest>',
      ),
    ).toBe(true);
  });
});

const sheet = (rows: string) => `<worksheet><sheetData>${rows}</sheetData></worksheet>`;

describe(".xlsx sheets", () => {
  test("rows numbered by r, or following the previous row, limit where cells with content may lie", () => {
    expect(() => checkXlsxSheet(sheet('<row r="11"><c r="A11"><v>1</v></c></row>'), "S", bounds)).not.toThrow();
    expect(refusal(() => checkXlsxSheet(sheet('<row r="12"><c r="A12"><v>1</v></c></row>'), "S", bounds))).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "S", max: 10 },
    });
    expect(
      refusal(() => checkXlsxSheet(sheet('<row r="10"/><row><c/></row><row><c><v>1</v></c></row>'), "S", bounds)),
    ).toEqual({
      key: "import.too_many_rows",
      params: { sheet: "S", max: 10 },
    });
    // A styled blank cell far below holds nothing.
    expect(() => checkXlsxSheet(sheet('<row r="1048576"><c r="A1048576" s="1"/></row>'), "S", bounds)).not.toThrow();
  });

  test("more cells than the budget are refused; prefixed tags count too", () => {
    expect(() => checkXlsxSheet(sheet(`<row>${"<c><v>1</v></c>".repeat(100)}</row>`), "S", bounds)).not.toThrow();
    expect(
      refusal(() => checkXlsxSheet(sheet(`<x:row>${"<x:c><x:v>1</x:v></x:c>".repeat(101)}</x:row>`), "S", bounds)),
    ).toEqual({
      key: "import.too_many_cells",
      params: { sheet: "S", max: 100 },
    });
  });

  test("the first sheet's part comes from the workbook's first sheet and its relationship", () => {
    const workbook = `<workbook><sheets><sheet name="Comensales &amp; más" sheetId="3" r:id="rId7"/><sheet name="Otra" sheetId="1" r:id="rId1"/></sheets></workbook>`;
    const relationships = (target: string) =>
      `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Type="x" Target="${target}"/></Relationships>`;
    expect(firstXlsxSheet(workbook, relationships("worksheets/sheet2.xml"))).toEqual({
      name: "Comensales & más",
      index: 0,
      path: "xl/worksheets/sheet2.xml",
    });
    expect(firstXlsxSheet(workbook, relationships("/xl/worksheets/a.xml"))?.path).toBe("xl/worksheets/a.xml");
    expect(firstXlsxSheet(workbook, relationships("./x/../worksheets/b.xml"))?.path).toBe("xl/worksheets/b.xml");
    expect(firstXlsxSheet(workbook, "<Relationships/>")).toEqual({ name: "Comensales & más", index: 0, path: null });
    expect(firstXlsxSheet("<workbook/>", relationships("a.xml"))).toBeNull();
  });

  test("an .ods hides a sheet by its table style, as LibreOffice writes it", () => {
    const content = `<office:document-content><office:automatic-styles><style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="2.258cm"/></style:style><style:style style:name="ta1" style:family="table" style:master-page-name="Default"><style:table-properties table:display="true" style:writing-mode="lr-tb"/></style:style><style:style style:name="ta2" style:family="table" style:master-page-name="Default"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style></office:automatic-styles><office:body><office:spreadsheet><table:table table:name="Plantilla &amp; notas" table:style-name="ta2"><table:table-row/></table:table><table:table table:name="Comensales" table:style-name="ta1"><table:table-row/></table:table></office:spreadsheet></office:body></office:document-content>`;
    expect([...odsHiddenSheets(content)]).toEqual(["Plantilla & notas"]);
    expect(odsHiddenSheets(content.replaceAll('table:display="false"', 'table:display="true"')).size).toBe(0);
  });

  test("the first sheet read is the first visible one: hidden and very hidden sheets are passed over", () => {
    const relationships = `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Target="worksheets/sheet3.xml"/></Relationships>`;
    const workbook = (states: string[]) =>
      `<workbook><sheets>${states.map((state, i) => `<sheet name="S${i + 1}" sheetId="${i + 1}"${state ? ` state="${state}"` : ""} r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`;
    expect(firstXlsxSheet(workbook(["hidden", "veryHidden", ""]), relationships)).toEqual({
      name: "S3",
      index: 2,
      path: "xl/worksheets/sheet3.xml",
    });
    expect(firstXlsxSheet(workbook(["hidden", "visible", ""]), relationships)?.name).toBe("S2");
    // Every sheet hidden (which Excel does not allow): the first.
    expect(firstXlsxSheet(workbook(["hidden", "hidden"]), relationships)?.name).toBe("S1");
  });

  test("a binary workbook (.xlsb) is told by its content types, or by its workbook part when they name none", () => {
    const types = (part: string, type: string) =>
      `<Types><Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/><Override PartName="${part}" ContentType="${type}"/></Types>`;
    const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml";
    const xlsb = "application/vnd.ms-excel.sheet.binary.macroEnabled.main";
    expect(isBinaryWorkbook(types("/xl/workbook.xml", xlsx), ["xl/workbook.xml"])).toBe(false);
    expect(isBinaryWorkbook(types("/xl/workbook.bin", xlsb), ["xl/workbook.bin"])).toBe(true);
    // A workbook content type on a part ending in "bin" is read as binary by SheetJS whatever the type says.
    expect(isBinaryWorkbook(types("/xl/wb.bin", xlsx), ["xl/wb.bin"])).toBe(true);
    expect(isBinaryWorkbook("<Types/>", ["xl/workbook.bin"])).toBe(true);
    expect(isBinaryWorkbook("<Types/>", ["xl/workbook.xml", "xl/vbaProject.bin"])).toBe(false);
  });
});
