/**
 * The report workbook read back with SheetJS: every sheet adds up to the cent and agrees with `salesTotals` and the
 * Sales page's lines; voided sales are left out and counted apart; a cafe manager's scope holds in every sheet; a
 * dinner sold at 00:30 counts on its service date; the detail continues on further sheets; the sheets come from one
 * snapshot even while a sale is made during the report.
 *
 * The world (tests/support/pos.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00) and Comedor Sur (ALM 14.00);
 * Ana and Beto eat at Norte, Carla at Sur; Ana and Carla work for Contrata Uno, Beto for Contrata Dos (both of
 * Minera del Sur). Other-unit sales cost twice the list price.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migrateDatabase, openDatabase, type Db } from "../../db";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { NotFound } from "../errors";
import { salesLinePage, salesTotals, type SalesFilter } from "./report";
import {
  BILLING_PREAMBLE_ROWS,
  reportData,
  reportFileName,
  writeSalesReport,
  type ReportOptions,
} from "./report-workbook";
import { recordSale, voidSale, type SaleSettings } from "./sell";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const ROOT: Actor = { userId: 1, label: "root@mesa.test" };
const noonIn = (date: string) => new Date(`${date}T17:00:00Z`);
const D1 = "2026-11-20";
const D2 = "2026-11-21";
const D3 = "2026-11-22";

const dir = mkdtempSync(join(tmpdir(), "mesa-report-workbook-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `report-${++files}.xlsx`);
let keys = 0;

function world(path = ":memory:") {
  const db = openDatabase(path);
  migrateDatabase(db);
  const w = posWorld(db);
  const now = new Date("2026-11-01T12:00:00Z");
  db.insert(users)
    .values({ id: 1, name: "Raíz", email: "root@mesa.test", passwordHash: "x", createdAt: now, updatedAt: now })
    .run();
  const sell = (input: Record<string, unknown>, date: string, at: Date = noonIn(date)) =>
    recordSale(
      db,
      ROOT,
      EVERYTHING,
      {
        key: `workbook-key-${++keys}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: date,
        sale_type: "credit",
        lines: [{ service_id: w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: true },
      undefined,
      at,
    ).sale;
  const s = {
    anaAlmD1: sell({}, D1),
    anaDesD1: sell({ lines: [{ service_id: w.des, quantity: 1 }] }, D1),
    betoCashD2: sell(
      {
        document_number: "40000002",
        sale_type: "cash",
        lines: [
          { service_id: w.alm, quantity: 2 },
          { service_id: w.des, quantity: 1 },
        ],
      },
      D2,
    ),
    carlaSurD2: sell({ cafe_id: w.sur, document_number: "40000003" }, D2),
    // Carla's dinner at Norte, not her cafe: an other-unit credit sale at twice the list price (24.00 for 12.00).
    carlaNorteD2: sell(
      { document_number: "40000003", other_unit_confirmed: true, lines: [{ service_id: w.cen, quantity: 1 }] },
      D2,
    ),
    visitorD3: sell({ document_number: "70000001", visitor_name: "=Visita Pérez", sale_type: "cash" }, D3),
    betoVoidedD3: sell({ document_number: "40000002", lines: [{ service_id: w.cen, quantity: 1 }] }, D3),
    // The dinner of D3 sold at 00:30 of the next day (Lima is UTC-5).
    anaDinnerD3: sell({ lines: [{ service_id: w.cen, quantity: 1 }] }, D3, new Date("2026-11-23T05:30:00Z")),
  };
  voidSale(
    db,
    ROOT,
    EVERYTHING,
    s.betoVoidedD3.id,
    { reason: "Error de caja" },
    { voidAny: true },
    undefined,
    noonIn(D3),
  );
  return { db, w, s, sell };
}

/** A limited person's scope: these cafes only. */
const scopeOfCafes = (...cafeIds: number[]): Scope => ({
  all: false,
  cafeIds: new Set(cafeIds),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

const filterOf = (over: Partial<SalesFilter> = {}): SalesFilter => ({
  from: "2026-11-19",
  to: "2026-11-23",
  cafeIds: [],
  dealershipId: null,
  subdealershipId: null,
  serviceIds: [],
  saleType: null,
  otherUnit: null,
  status: "valid",
  ...over,
});

const OPTIONS: ReportOptions = {
  locale: "es",
  generatedBy: "Raíz",
  timeZone: "America/Lima",
  generatedAt: new Date("2026-11-24T15:00:00Z"),
};

type Row = (string | number | Date | undefined)[];

async function report(db: Db, scope: Scope, filter: SalesFilter, options: Partial<ReportOptions> = {}) {
  const path = newPath();
  const result = await writeSalesReport(db, scope, filter, path, { ...OPTIONS, ...options });
  const book = XLSX.read(readFileSync(path), { type: "buffer", cellNF: true });
  const rows = (name: string) => XLSX.utils.sheet_to_json<Row>(book.Sheets[name], { header: 1, raw: true });
  // The Billing sheet's table, below the note over its header; the note's rows as they are, blank ones included.
  const billingSheet = book.Sheets[options.locale === "en" ? "Billing" : "Valorización"];
  const billing = () =>
    XLSX.utils.sheet_to_json<Row>(billingSheet, { header: 1, raw: true, range: BILLING_PREAMBLE_ROWS });
  const billingNote = () =>
    XLSX.utils
      .sheet_to_json<Row>(billingSheet, { header: 1, raw: true, blankrows: true })
      .slice(0, BILLING_PREAMBLE_ROWS);
  return { path, result, book, rows, billing, billingNote };
}

const cents = (value: unknown) => Math.round((value as number) * 100);
const sum = (rows: Row[], column: number, money = true) =>
  rows.reduce((total, row) => total + (money ? cents(row[column] ?? 0) : ((row[column] as number) ?? 0)), 0);

// Detail columns.
const D = {
  date: 0,
  time: 1,
  cafe: 2,
  ticket: 5,
  sub: 7,
  doc: 10,
  diner: 11,
  service: 12,
  qty: 13,
  price: 14,
  base: 15,
  igv: 16,
  total: 17,
  other: 18,
  type: 19,
};

describe("the sales report workbook", () => {
  test("every sheet adds up to the cent and agrees with salesTotals and the Sales page; voided sales are counted apart", async () => {
    const { db, s } = world();
    const filter = filterOf();
    const totals = salesTotals(db, EVERYTHING, filter);
    const { book, rows, result, billing: billingRows } = await report(db, EVERYTHING, filter);
    expect(book.SheetNames).toEqual(["Reporte", "Resumen", "Diario", "Valorización", "Detalle"]);
    expect(result.totals).toEqual(totals);
    expect(result.sheets).toEqual(book.SheetNames);

    // Detail: the Sales page's lines, none of the voided sale.
    const detail = rows("Detalle").slice(1);
    const page = salesLinePage(db, EVERYTHING, filter, { page: 1, perPage: 100 });
    expect(detail.length).toBe(page.total);
    expect(detail.length).toBe(totals.lines);
    expect(new Set(detail.map((r) => r[D.ticket]))).toEqual(new Set(page.rows.map((r) => r.ticket)));
    expect(detail.map((r) => r[D.ticket])).not.toContain(s.betoVoidedD3.ticket);
    expect(sum(detail, D.total)).toBe(totals.totalCents);
    expect(sum(detail, D.base)).toBe(totals.baseCents);
    expect(sum(detail, D.igv)).toBe(totals.igvCents);
    expect(sum(detail, D.qty, false)).toBe(totals.meals);
    for (const row of detail) expect(cents(row[D.base]) + cents(row[D.igv])).toBe(cents(row[D.total]));
    // Text stays text: a visitor named "=Visita Pérez" is not a formula.
    const visitor = detail.find((r) => r[D.ticket] === s.visitorD3.ticket)!;
    expect(visitor[D.diner]).toBe("'=Visita Pérez");
    expect(book.Sheets.Detalle["!ref"]).toBeDefined();
    expect(Object.values(book.Sheets.Detalle).some((cell) => (cell as XLSX.CellObject).f !== undefined)).toBe(false);

    // Summary: rows and columns add up, and the total row is salesTotals.
    const summary = rows("Resumen");
    const header = summary[0] as string[];
    const [body, totalRow] = [summary.slice(1, -1), summary[summary.length - 1]];
    expect(totalRow[0]).toBe("Total");
    const last = header.length - 1; // Total; before it IGV, Base, Comidas
    expect(cents(totalRow[last])).toBe(totals.totalCents);
    expect(cents(totalRow[last - 1])).toBe(totals.igvCents);
    expect(cents(totalRow[last - 2])).toBe(totals.baseCents);
    expect(totalRow[last - 3]).toBe(totals.meals);
    for (let c = 3; c < header.length; c++) {
      const money = !/\(cant\.\)|Comidas/.test(header[c]);
      expect(sum(body, c, money)).toBe(money ? cents(totalRow[c]) : (totalRow[c] as number));
    }
    for (const row of summary.slice(1)) {
      const serviceTotal = header
        .slice(3, last - 3)
        .reduce((n, h, i) => n + (h.endsWith("(S/)") ? cents(row[3 + i] ?? 0) : 0), 0);
      expect(serviceTotal).toBe(cents(row[last]));
    }
    // Visitors (cash without a diner's subdealership) have their own row, last.
    expect(body.map((r) => r[1])).toEqual(["Contrata Dos", "Contrata Uno", "Sin subconcesionaria (visitantes)"]);
    expect(header.slice(3, 9)).toEqual([
      "Desayuno (cant.)",
      "Desayuno (S/)",
      "Almuerzo (cant.)",
      "Almuerzo (S/)",
      "Cena (cant.)",
      "Cena (S/)",
    ]);

    // Daily: every date of the period; the 00:30 dinner counts on D3.
    const daily = rows("Diario");
    const days = daily.slice(1, -1);
    expect(days.map((r) => (r[0] as Date).toISOString().slice(0, 10))).toEqual([
      "2026-11-19",
      D1,
      D2,
      D3,
      "2026-11-23",
    ]);
    const dailyTotal = daily[daily.length - 1];
    expect(cents(dailyTotal[dailyTotal.length - 1])).toBe(totals.totalCents);
    expect(sum(days, dailyTotal.length - 1)).toBe(totals.totalCents);
    const d3 = days[3];
    // Cena (cant.) on D3: Ana's dinner at 00:30 of the next day (Beto's is voided).
    expect(d3[5]).toBe(1);
    expect(days[4].slice(1).every((v) => v === 0)).toBe(true);
    const dinner = detail.find((r) => r[D.ticket] === s.anaDinnerD3.ticket)!;
    expect((dinner[D.date] as Date).toISOString().slice(0, 10)).toBe(D3);
    expect(XLSX.SSF.format("hh:mm", dinner[D.time] as unknown as number)).toBe("00:30");

    // Billing: credit sales only, IGV the sum of the lines', other-unit surcharge apart.
    const billing = billingRows();
    expect(billing[0].slice(0, 5)).toEqual([
      "Concesionaria",
      "RUC concesionaria",
      "Subconcesionaria",
      "RUC",
      "Comidas",
    ]);
    const credit = salesTotals(db, EVERYTHING, { ...filter, saleType: "credit" });
    const billed = billing.slice(1, -1);
    const billingTotal = billing[billing.length - 1];
    // Beto's only credit sale was voided and his other sale was cash: only Contrata Uno is billed.
    expect(billed.map((r) => [r[0], r[2]])).toEqual([["Minera del Sur", "Contrata Uno"]]);
    const [uno] = billed;
    // Meals, at list price, other-unit meals, their surcharge; then base, IGV and total.
    expect(uno.slice(4, 8)).toEqual([5, 61, 1, 12]);
    expect([cents(uno[8]), cents(uno[9]), cents(uno[10])]).toEqual([
      credit.baseCents,
      credit.igvCents,
      credit.totalCents,
    ]);
    expect(cents(uno[5]) + cents(uno[7])).toBe(cents(uno[10]));
    expect(credit.totalCents).toBe(7300);
    expect([cents(billingTotal[8]), cents(billingTotal[9]), cents(billingTotal[10])]).toEqual([
      credit.baseCents,
      credit.igvCents,
      credit.totalCents,
    ]);
    expect(result.billing).toMatchObject({
      subdealerships: 1,
      meals: 5,
      surchargeCents: 1200,
      totalCents: 7300,
    });

    // Report: the period, the totals and the voided sale left out, counted apart.
    const cover = Object.fromEntries(
      rows("Reporte")
        .slice(1)
        .map((r) => [r[0], r.slice(1)]),
    );
    expect(cover["Periodo (fecha de servicio)"]).toEqual(["19/11/2026 – 23/11/2026"]);
    expect(cover["Ventas"]).toEqual([totals.sales]);
    expect(cover["Comidas"]).toEqual([totals.meals]);
    expect(cents(cover["Total"][1])).toBe(totals.totalCents);
    expect(totals.voidedSales).toBe(1);
    expect(cover["Ventas anuladas (no incluidas)"]).toEqual([1, 12]);
    expect(cover["Generado por"]).toEqual(["Raíz"]);

    // Amounts are numbers in soles, dates are dates.
    const sheet = book.Sheets.Detalle;
    expect(sheet.R2.t).toBe("n");
    expect(sheet.R2.z).toContain('"S/ "#,##0.00');
    // A date is a number with a date format (what Excel stores), which SheetJS reads as a Date.
    expect(sheet.A2.t).toBe("n");
    expect(sheet.A2.z).toBe("dd/mm/yyyy");
    expect(XLSX.SSF.is_date(sheet.A2.z as string)).toBe(true);
  });

  test("the Billing sheet says above its header that it counts credit sales only, and reconciles with the Summary", async () => {
    const { db, w } = world();
    const norte = scopeOfCafes(w.norte);
    // Everything: credit 15 + 8 + 14 + 24 + 12; Beto's cash 30 + 8; the visitor's 15. Norte's scope: no 14 at Sur.
    for (const [scope, credit] of [
      [EVERYTHING, [5, 7300]],
      [norte, [4, 5900]],
    ] as const) {
      const filter = filterOf();
      const { rows, billing, billingNote } = await report(db, scope, filter);
      const note = billingNote();
      expect(note[0][0]).toStartWith("Esta hoja cuenta solo las ventas a crédito");
      // Label, meals (the Meals column), total (the Total column).
      const figures = note.slice(1, 5).map((r) => [r[0], r[4], cents(r[10])]);
      expect(figures).toEqual([
        ["Crédito (esta hoja, se factura)", credit[0], credit[1]],
        ["Contado de comensales (pagado en caja, no se factura)", 3, 3800],
        ["Visitantes (pagado en caja)", 1, 1500],
        ["Total del Resumen (crédito + contado + visitantes)", credit[0] + 4, credit[1] + 5300],
      ]);
      // Credit is the Billing's total; the sum is the Summary's total, and salesTotals of each kind.
      const table = billing();
      expect(cents(table[table.length - 1][10])).toBe(credit[1]);
      expect(table[table.length - 1][4]).toBe(credit[0]);
      const summary = rows("Resumen");
      const summaryTotal = summary[summary.length - 1];
      expect(cents(summaryTotal[summaryTotal.length - 1])).toBe(credit[1] + 5300);
      expect(summaryTotal[summaryTotal.length - 4]).toBe(credit[0] + 4);
      expect(salesTotals(db, scope, filter).totalCents).toBe(credit[1] + 5300);
      expect(salesTotals(db, scope, { ...filter, saleType: "cash" }).totalCents).toBe(3800 + 1500);
    }
    // In English too, and a cash-type sale reads "Paid at the till" (the payment method "Cash" is another thing).
    const { billingNote, rows } = await report(db, EVERYTHING, filterOf({ saleType: "cash" }), { locale: "en" });
    const note = billingNote();
    expect(note[0][0]).toStartWith("This sheet counts credit sales only");
    expect(note.slice(1, 5).map((r) => [r[0], cents(r[10] ?? 0)])).toEqual([
      ["Credit (this sheet, billed)", 0],
      ["Diners who paid at the till (not billed)", 3800],
      ["Visitors (paid at the till)", 1500],
      ["Summary total (credit + paid at the till + visitors)", 5300],
    ]);
    expect(
      new Set(
        rows("Detail")
          .slice(1)
          .map((r) => r[D.type]),
      ),
    ).toEqual(new Set(["Paid at the till"]));
    const cover = Object.fromEntries(rows("Report").map((r) => [r[0], r[1]]));
    expect(cover["Sale type"]).toBe("Paid at the till");
  });

  test("a cash-type sale reads Contado in Spanish, credit Crédito", async () => {
    const { db } = world();
    const { rows } = await report(db, EVERYTHING, filterOf());
    expect(
      new Set(
        rows("Detalle")
          .slice(1)
          .map((r) => r[D.type]),
      ),
    ).toEqual(new Set(["Crédito", "Contado"]));
  });

  test("a cafe manager's scope holds in every sheet", async () => {
    const { db, w } = world();
    const scope = scopeOfCafes(w.norte);
    const filter = filterOf();
    const totals = salesTotals(db, scope, filter);
    const { rows, result, billing: billingRows } = await report(db, scope, filter);
    expect(result.totals).toEqual(totals);
    const detail = rows("Detalle").slice(1);
    expect(new Set(detail.map((r) => r[D.cafe]))).toEqual(new Set(["Comedor Norte"]));
    expect(sum(detail, D.total)).toBe(totals.totalCents);
    const summary = rows("Resumen");
    const summaryTotal = summary[summary.length - 1];
    expect(cents(summaryTotal[summaryTotal.length - 1])).toBe(totals.totalCents);
    const daily = rows("Diario");
    expect(cents(daily[daily.length - 1][daily[0].length - 1])).toBe(totals.totalCents);
    // Carla's lunch at Sur (14.00) is not billed from Norte's scope: 15 + 8 + 24 + 12.
    const billing = billingRows();
    expect(cents(billing[billing.length - 1][10])).toBe(5900);
    expect(salesTotals(db, scope, { ...filter, saleType: "credit" }).totalCents).toBe(5900);
    // Sur's prices never show up: no Sur column, no Sur cafe.
    expect(JSON.stringify(rows("Reporte"))).not.toContain("Comedor Sur");
  });

  test("the Report sheet names only cafes in scope: a filter naming another cafe is not found, and no file is left", async () => {
    const { db, w } = world();
    const norte = scopeOfCafes(w.norte);
    const { rows } = await report(db, norte, filterOf({ cafeIds: [w.norte] }));
    expect(rows("Reporte").find((r) => r[0] === "Comedores")?.[1]).toBe("Comedor Norte");
    for (const cafeIds of [[w.sur], [w.norte, w.sur], [999_999]]) {
      const path = newPath();
      await expect(writeSalesReport(db, norte, filterOf({ cafeIds }), path, OPTIONS)).rejects.toThrow(NotFound);
      expect(existsSync(path)).toBe(false);
    }
    // Everyone's scope names both.
    const both = await report(db, EVERYTHING, filterOf({ cafeIds: [w.sur, w.norte] }));
    expect(both.rows("Reporte").find((r) => r[0] === "Comedores")?.[1]).toBe("Comedor Norte, Comedor Sur");
  });

  test("filters narrow every sheet: a subdealership, a service, other-unit sales", async () => {
    const { db, w } = world();
    for (const filter of [
      filterOf({ subdealershipId: w.otraContrata }),
      filterOf({ serviceIds: [w.cen] }),
      filterOf({ otherUnit: true }),
      filterOf({ cafeIds: [w.sur], saleType: "credit" }),
    ]) {
      const totals = salesTotals(db, EVERYTHING, filter);
      const { rows } = await report(db, EVERYTHING, filter);
      const detail = rows("Detalle").slice(1);
      expect(detail.length).toBe(totals.lines);
      expect(sum(detail, D.total)).toBe(totals.totalCents);
      const summary = rows("Resumen");
      expect(cents(summary[summary.length - 1][summary[0].length - 1])).toBe(totals.totalCents);
      const daily = rows("Diario");
      expect(cents(daily[daily.length - 1][daily[0].length - 1])).toBe(totals.totalCents);
      if (filter.serviceIds.length) expect(new Set(detail.map((r) => r[D.service]))).toEqual(new Set(["Cena"]));
      if (filter.otherUnit) expect(new Set(detail.map((r) => r[D.other]))).toEqual(new Set(["Sí"]));
    }
  });

  test("the detail goes on in further sheets past a sheet's rows; English words", async () => {
    const { db } = world();
    const filter = filterOf();
    const totals = salesTotals(db, EVERYTHING, filter);
    const progress: [number, number][] = [];
    const { book, rows } = await report(db, EVERYTHING, filter, {
      locale: "en",
      detailRowsPerSheet: 3,
      progress: (done, total) => progress.push([done, total]),
    });
    const detailSheets = book.SheetNames.filter((name) => name.startsWith("Detail"));
    expect(book.SheetNames.slice(0, 4)).toEqual(["Report", "Summary", "Daily", "Billing"]);
    expect(detailSheets).toEqual(["Detail", "Detail 2", "Detail 3", "Detail 4"].slice(0, Math.ceil(totals.lines / 3)));
    const all = detailSheets.flatMap((name) => rows(name).slice(1));
    expect(all.length).toBe(totals.lines);
    expect(detailSheets.every((name) => rows(name)[0][0] === "Date")).toBe(true);
    expect(sum(all, D.total)).toBe(totals.totalCents);
    expect(book.Sheets.Detail.A2.z).toBe("yyyy-mm-dd");
    expect(progress[0]).toEqual([0, totals.lines]);
    expect(progress[progress.length - 1]).toEqual([totals.lines, totals.lines]);
    expect(reportFileName(filter, "en")).toBe("mesa-sales-2026-11-19-2026-11-23.xlsx");
  });

  test("a period without sales gives the same sheets with zero totals", async () => {
    const { db } = world();
    const { book, rows, result } = await report(db, EVERYTHING, filterOf({ from: "2026-10-01", to: "2026-10-31" }));
    expect(book.SheetNames).toEqual(["Reporte", "Resumen", "Diario", "Valorización", "Detalle"]);
    expect(result.lines).toBe(0);
    expect(rows("Detalle").length).toBe(1);
    expect(rows("Diario").length).toBe(31 + 2);
  });

  test("on a database file the sheets come from one snapshot, even when a sale is made while the report is written", async () => {
    const { db, w, sell } = world(join(dir, "snapshot.sqlite"));
    const filter = filterOf();
    const before = salesTotals(db, EVERYTHING, filter);
    let sold = false;
    const { rows, result } = await report(db, EVERYTHING, filter, {
      detailRowsPerSheet: 100,
      pause: async () => {
        if (sold) return;
        sold = true;
        // A cashier sells a lunch for D2 while the detail is being read.
        sell({ document_number: "40000002", lines: [{ service_id: w.alm, quantity: 1 }] }, D2);
      },
    });
    expect(sold).toBe(true);
    expect(result.totals).toEqual(before);
    const detail = rows("Detalle").slice(1);
    expect(detail.length).toBe(before.lines);
    expect(sum(detail, D.total)).toBe(before.totalCents);
    // The sale is there for the next report.
    expect(salesTotals(db, EVERYTHING, filter).totalCents).toBe(before.totalCents + 1500);
    db.$client.close();
  });

  test("a report that fails half way leaves no file", async () => {
    const { db } = world();
    const path = newPath();
    const failing = writeSalesReport(db, EVERYTHING, filterOf(), path, {
      ...OPTIONS,
      pause: async () => {
        throw new Error("stopped");
      },
    });
    await expect(failing).rejects.toThrow("stopped");
    expect(existsSync(path)).toBe(false);
  });

  test("the aggregates in cents: summary by subdealership and service, billing with its surcharge", async () => {
    const { db, w } = world();
    const data = await reportData(db, EVERYTHING, filterOf());
    const uno = data.summary.find((r) => r.subdealershipId === w.contrata)!;
    expect(uno.byService.get(w.cen)).toEqual({
      meals: 2,
      baseCents: expect.any(Number),
      igvCents: expect.any(Number),
      totalCents: 3600,
    });
    expect(uno.total.totalCents).toBe(7300);
    expect(data.billing).toHaveLength(1);
    expect(data.billing[0]).toMatchObject({
      listCents: 6100,
      surchargeCents: 1200,
      otherUnitMeals: 1,
      totalCents: 7300,
    });
  });
});
