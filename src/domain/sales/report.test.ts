/**
 * The sales query domain: the filter read field by field (and refused per field), each filter alone and combined,
 * scope, voided sales left out and counted apart, totals that are the sum of the lines to the cent, the service
 * date (a dinner sold at 00:30 counts on the night before), paging and sorting, and the duplicates report.
 *
 * The world (tests/support/pos.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00) and Comedor Sur (ALM 14.00);
 * Ana and Beto eat at Norte, Carla at Sur; Ana and Carla work for Contrata Uno, Beto for Contrata Dos.
 */
import { describe, expect, test } from "bun:test";
import { dealerships, users } from "../../../db/schema";
import { posWorld } from "../../../tests/support/pos";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import {
  countSalesLines,
  duplicateMeals,
  duplicateMealsShown,
  parseSalesFilter,
  requireFilterInScope,
  salesFilterQuery,
  salesLinePage,
  salesLines,
  salesTotals,
  type SalesFilter,
  type SalesLineRow,
} from "./report";
import { recordSale, voidSale, type SaleSettings } from "./sell";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const ROOT: Actor = { userId: 1, label: "root@mesa.test" };
/** Noon in Lima on a date. */
const noonIn = (date: string) => new Date(`${date}T17:00:00Z`);
const TODAY = "2026-11-24";
const D1 = "2026-11-20";
const D2 = "2026-11-21";
const D3 = "2026-11-22";
let keys = 0;

function world() {
  const db = migratedDatabase();
  const w = posWorld(db);
  const now = new Date("2026-11-01T12:00:00Z");
  db.insert(users)
    .values({ id: 1, name: "Raíz", email: "root@mesa.test", passwordHash: "x", createdAt: now, updatedAt: now })
    .run();
  // A dealership of its own whose diner eats at Sur: another client company.
  const other = db
    .insert(dealerships)
    .values({ name: "Otra Minera", ruc: "20100130204", createdAt: now, updatedAt: now })
    .returning()
    .get().id;
  const sell = (input: Record<string, unknown>, date: string, at: Date = noonIn(date)) =>
    recordSale(
      db,
      ROOT,
      EVERYTHING,
      {
        key: `report-key-${++keys}`,
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
    carlaNorteD2: sell(
      { document_number: "40000003", other_unit_confirmed: true, lines: [{ service_id: w.cen, quantity: 1 }] },
      D2,
    ),
    // Ana eats lunch again on D1, at Sur, paying cash: an other-unit sale and a duplicate of her credit lunch.
    anaSurCashD1: sell({ cafe_id: w.sur, sale_type: "cash", other_unit_confirmed: true }, D1),
    visitorD3: sell({ document_number: "70000001", visitor_name: "Visita Pérez", sale_type: "cash" }, D3),
    betoVoidedD3: sell({ document_number: "40000002", lines: [{ service_id: w.cen, quantity: 1 }] }, D3),
    // Dinner of D3 sold at 00:30 of the next day (Lima is UTC-5).
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
  return { db, w, s, other };
}

/** A limited person's scope: these cafes only. */
const scopeOfCafes = (...cafeIds: number[]): Scope => ({
  all: false,
  cafeIds: new Set(cafeIds),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

const base = (over: Partial<SalesFilter> = {}): SalesFilter => ({
  from: "2026-11-01",
  to: TODAY,
  cafeIds: [],
  dealershipId: null,
  subdealershipId: null,
  serviceIds: [],
  saleType: null,
  otherUnit: null,
  status: "valid",
  ...over,
});

function allLines(db: ReturnType<typeof world>["db"], scope: Scope, filter: SalesFilter): SalesLineRow[] {
  return salesLinePage(db, scope, filter, { page: 1, perPage: 1000 }).rows;
}

/** Tickets of the lines a filter shows, sorted and unique. */
function tickets(rows: SalesLineRow[]): string[] {
  return [...new Set(rows.map((r) => r.ticket))].sort();
}

function errorsOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("reading a filter", () => {
  test("by default: this month up to today, every cafe and service, valid sales", () => {
    expect(parseSalesFilter({}, TODAY)).toEqual(base());
    expect(parseSalesFilter({ to: "2026-10-15" }, TODAY)).toMatchObject({ from: "2026-10-01", to: "2026-10-15" });
  });

  test("every field, from a query string or from a dialog, and back to a query string", () => {
    const filter = parseSalesFilter(
      {
        from: "2026-11-02",
        to: "2026-11-20",
        cafe_ids: "3,1,3",
        dealership_id: "4",
        subdealership_id: 5,
        service_ids: ["2", 7],
        sale_type: "cash",
        other_unit: "1",
        status: "all",
      },
      TODAY,
    );
    expect(filter).toEqual({
      from: "2026-11-02",
      to: "2026-11-20",
      cafeIds: [1, 3],
      dealershipId: 4,
      subdealershipId: 5,
      serviceIds: [2, 7],
      saleType: "cash",
      otherUnit: true,
      status: "all",
    });
    expect(parseSalesFilter(salesFilterQuery(filter), TODAY)).toEqual(filter);
    expect(parseSalesFilter({ other_unit: "0" }, TODAY).otherUnit).toBe(false);
    expect(salesFilterQuery(base())).toEqual({ from: "2026-11-01", to: TODAY });
  });

  test("a bad value is refused with a message for its own field", () => {
    const errors = errorsOf(() =>
      parseSalesFilter(
        {
          from: "2026-02-30",
          cafe_ids: "1,x",
          dealership_id: "-2",
          service_ids: "1.5",
          sale_type: "gift",
          other_unit: "maybe",
          status: "deleted",
        },
        TODAY,
      ),
    );
    expect(Object.keys(errors).sort()).toEqual(
      ["cafe_ids", "dealership_id", "from", "other_unit", "sale_type", "service_ids", "status"].sort(),
    );
    expect(errorsOf(() => parseSalesFilter({ from: "2026-11-10", to: "2026-11-09" }, TODAY))).toEqual({
      to: { key: "sales.filter.range_backwards", params: undefined },
    });
    expect(Object.keys(errorsOf(() => parseSalesFilter({ from: "2025-11-23", to: "2026-11-24" }, TODAY)))).toEqual([
      "to",
    ]);
    // 366 days is a leap year: allowed.
    expect(parseSalesFilter({ from: "2027-11-25", to: "2028-11-24" }, TODAY).from).toBe("2027-11-25");
    const many = Array.from({ length: 201 }, (_, i) => i + 1).join(",");
    expect(Object.keys(errorsOf(() => parseSalesFilter({ cafe_ids: many }, TODAY)))).toEqual(["cafe_ids"]);
  });
});

describe("the lines and totals of a filter", () => {
  const { db, w, s, other } = world();

  test("totals are the sum of the lines shown, to the cent, and voided sales are counted apart", () => {
    const rows = allLines(db, EVERYTHING, base());
    const totals = salesTotals(db, EVERYTHING, base());
    // Nine sales, one voided; Beto's cash sale has two lines.
    expect(totals.sales).toBe(8);
    expect(totals.lines).toBe(9);
    expect(rows).toHaveLength(9);
    expect(rows.some((r) => r.voided)).toBe(false);
    expect(totals.meals).toBe(rows.reduce((n, r) => n + r.quantity, 0));
    expect(totals.meals).toBe(10);
    expect(totals.totalCents).toBe(rows.reduce((n, r) => n + r.totalCents, 0));
    expect(totals.baseCents).toBe(rows.reduce((n, r) => n + r.baseCents, 0));
    expect(totals.igvCents).toBe(rows.reduce((n, r) => n + r.igvCents, 0));
    expect(totals.baseCents + totals.igvCents).toBe(totals.totalCents);
    // 15 + 8 + (30 + 8) + 14 + 24 + 28 + 15 + 12 soles.
    expect(totals.totalCents).toBe(15400);
    const sold = [s.anaAlmD1, s.anaDesD1, s.betoCashD2, s.carlaSurD2, s.carlaNorteD2, s.anaSurCashD1, s.visitorD3];
    expect(totals.totalCents).toBe([...sold, s.anaDinnerD3].reduce((n, sale) => n + sale.totalCents, 0));
    expect(totals.voidedSales).toBe(1);
    expect(totals.voidedCents).toBe(1200);
  });

  test("status: voided shows only voided lines, which count nowhere; all shows both", () => {
    const voided = salesLinePage(db, EVERYTHING, base({ status: "voided" }), { page: 1, perPage: 50 });
    expect(voided.rows.map((r) => r.ticket)).toEqual([s.betoVoidedD3.ticket]);
    expect(voided.rows[0].voided).toBe(true);
    expect(voided.total).toBe(1);
    expect(voided.totals).toMatchObject({
      sales: 0,
      lines: 0,
      meals: 0,
      totalCents: 0,
      voidedSales: 1,
      voidedCents: 1200,
    });
    const all = salesLinePage(db, EVERYTHING, base({ status: "all" }), { page: 1, perPage: 50 });
    expect(all.total).toBe(10);
    expect(all.rows).toHaveLength(10);
    expect(all.totals).toEqual(salesTotals(db, EVERYTHING, base()));
  });

  test("each filter alone", () => {
    const only = (over: Partial<SalesFilter>) => tickets(allLines(db, EVERYTHING, base(over)));
    expect(only({ cafeIds: [w.sur] })).toEqual(tickets([s.carlaSurD2, s.anaSurCashD1] as never));
    expect(only({ subdealershipId: w.otraContrata })).toEqual([s.betoCashD2.ticket]);
    expect(only({ dealershipId: w.dealership })).toEqual(
      tickets([
        s.anaAlmD1,
        s.anaDesD1,
        s.betoCashD2,
        s.carlaSurD2,
        s.carlaNorteD2,
        s.anaSurCashD1,
        s.anaDinnerD3,
      ] as never),
    );
    expect(only({ dealershipId: other })).toEqual([]);
    expect(only({ serviceIds: [w.des] })).toEqual(tickets([s.anaDesD1, s.betoCashD2] as never));
    expect(only({ saleType: "cash" })).toEqual(tickets([s.betoCashD2, s.anaSurCashD1, s.visitorD3] as never));
    expect(only({ otherUnit: true })).toEqual(tickets([s.carlaNorteD2, s.anaSurCashD1] as never));
    expect(only({ otherUnit: false })).toHaveLength(6);
    expect(only({ from: D2, to: D2 })).toEqual(tickets([s.betoCashD2, s.carlaSurD2, s.carlaNorteD2] as never));
  });

  test("a service filter shows only that service's lines of a sale, and counts the sale once", () => {
    const totals = salesTotals(db, EVERYTHING, base({ serviceIds: [w.alm], from: D2, to: D2 }));
    // Beto's cash sale: 2 lunches (30.00) of its 38.00; Carla's lunch at Sur: 14.00.
    expect(totals).toMatchObject({ sales: 2, lines: 2, meals: 3, totalCents: 4400 });
  });

  test("filters combined", () => {
    const filter = base({ cafeIds: [w.norte], saleType: "credit", serviceIds: [w.cen], from: D2, to: D3 });
    expect(tickets(allLines(db, EVERYTHING, filter))).toEqual(tickets([s.carlaNorteD2, s.anaDinnerD3] as never));
    expect(salesTotals(db, EVERYTHING, filter)).toMatchObject({ sales: 2, totalCents: 2400 + 1200, voidedSales: 1 });
    expect(allLines(db, EVERYTHING, { ...filter, otherUnit: true }).map((r) => r.ticket)).toEqual([
      s.carlaNorteD2.ticket,
    ]);
    expect(allLines(db, EVERYTHING, { ...filter, subdealershipId: w.otraContrata })).toEqual([]);
  });

  test("a dinner sold at 00:30 counts on its service date, the night before", () => {
    const night = allLines(db, EVERYTHING, base({ from: D3, to: D3 }));
    expect(night.map((r) => r.ticket)).toContain(s.anaDinnerD3.ticket);
    expect(allLines(db, EVERYTHING, base({ from: "2026-11-23", to: "2026-11-23" }))).toEqual([]);
    const row = night.find((r) => r.ticket === s.anaDinnerD3.ticket)!;
    expect(row.serviceDate).toBe(D3);
    expect(row.soldAt).toBe("2026-11-23T05:30:00.000Z");
    expect(row.timeZone).toBe("America/Lima");
  });

  test("scope: a person of Norte sees Norte's sales only, whatever cafes the filter names", () => {
    const norte = scopeOfCafes(w.norte);
    const rows = allLines(db, norte, base());
    expect(rows.every((r) => r.cafeId === w.norte)).toBe(true);
    expect(rows).toHaveLength(7);
    expect(allLines(db, norte, base({ cafeIds: [w.sur] }))).toEqual([]);
    expect(salesTotals(db, norte, base({ cafeIds: [w.sur] }))).toMatchObject({ sales: 0, totalCents: 0 });
    // A scope that reaches every cafe there is reads like an unlimited one (the lines without their sales).
    const both: Scope = { ...norte, cafeIds: new Set([w.norte, w.sur]) };
    expect(allLines(db, both, base())).toEqual(allLines(db, EVERYTHING, base()));
    expect(salesTotals(db, both, base({ cafeIds: [w.sur] }))).toEqual(
      salesTotals(db, EVERYTHING, base({ cafeIds: [w.sur] })),
    );
    const nowhere: Scope = { ...norte, cafeIds: new Set() };
    expect(salesTotals(db, nowhere, base())).toMatchObject({ sales: 0, lines: 0, voidedSales: 0 });
    expect(duplicateMeals(db, norte, base())).toEqual([]);
  });

  test("a filter names only what the person may read: a cafe outside the scope, or an id of nothing, is not found", () => {
    const norte = scopeOfCafes(w.norte);
    // In scope, and company-wide data (client companies, services) that exists: accepted.
    const fine = base({
      cafeIds: [w.norte],
      dealershipId: w.dealership,
      subdealershipId: w.otraContrata,
      serviceIds: [w.alm, w.cen],
    });
    expect(() => requireFilterInScope(db, norte, fine)).not.toThrow();
    expect(() => requireFilterInScope(db, EVERYTHING, base({ cafeIds: [w.norte, w.sur] }))).not.toThrow();
    expect(() => requireFilterInScope(db, norte, base())).not.toThrow();
    // Sur, alone or beside Norte, is outside Norte's scope (and within everyone's).
    for (const filter of [base({ cafeIds: [w.sur] }), base({ cafeIds: [w.norte, w.sur] })]) {
      expect(() => requireFilterInScope(db, norte, filter)).toThrow(NotFound);
      expect(() => requireFilterInScope(db, EVERYTHING, filter)).not.toThrow();
    }
    // An id that names nothing reads the same, whoever asks.
    const missing = 999_999;
    for (const filter of [
      base({ cafeIds: [missing] }),
      base({ dealershipId: missing }),
      base({ subdealershipId: missing }),
      base({ serviceIds: [w.alm, missing] }),
    ]) {
      expect(() => requireFilterInScope(db, norte, filter)).toThrow(NotFound);
      expect(() => requireFilterInScope(db, EVERYTHING, filter)).toThrow(NotFound);
    }
    // A scope without cafes reaches none.
    const nowhere: Scope = { ...norte, cafeIds: new Set() };
    expect(() => requireFilterInScope(db, nowhere, base({ cafeIds: [w.norte] }))).toThrow(NotFound);
  });

  test("a line carries what the table shows", () => {
    const row = allLines(db, EVERYTHING, base({ otherUnit: true, cafeIds: [w.norte] }))[0];
    expect(row).toMatchObject({
      saleId: s.carlaNorteD2.id,
      ticket: s.carlaNorteD2.ticket,
      serviceDate: D2,
      cafeName: "Comedor Norte",
      dinerName: "Carla Ñahui",
      documentType: "dni",
      documentNumber: "40000003",
      subdealershipName: "Contrata Uno",
      dealershipName: "Minera del Sur",
      serviceCode: "CEN",
      quantity: 1,
      unitPriceCents: 2400,
      totalCents: 2400,
      saleType: "credit",
      otherUnit: true,
      voided: false,
    });
  });

  test("pages: newest service date first, a page past the end is the last one, sorting by a column", () => {
    const first = salesLinePage(db, EVERYTHING, base(), { page: 1, perPage: 4 });
    expect(first.total).toBe(9);
    expect(first.rows.map((r) => r.serviceDate)).toEqual([D3, D3, D2, D2]);
    const last = salesLinePage(db, EVERYTHING, base(), { page: 99, perPage: 4 });
    expect(last.page).toBe(3);
    expect(last.rows).toHaveLength(1);
    expect(last.rows[0].serviceDate).toBe(D1);
    const ids = [1, 2, 3].flatMap((page) =>
      salesLinePage(db, EVERYTHING, base(), { page, perPage: 4 }).rows.map((r) => r.id),
    );
    expect(new Set(ids).size).toBe(9);
    // Pages past the middle are read from the end: every page size gives the same lines in the same order.
    const everything = salesLines(db, EVERYTHING, base()).map((r) => r.id);
    for (const perPage of [1, 2, 3, 5, 8]) {
      const pages = Math.ceil(9 / perPage);
      const paged = Array.from({ length: pages }, (_, i) =>
        salesLinePage(db, EVERYTHING, base(), { page: i + 1, perPage }).rows.map((r) => r.id),
      ).flat();
      expect(paged).toEqual(everything);
    }
    const byDinerPaged = [1, 2, 3].flatMap((page) =>
      salesLinePage(db, EVERYTHING, base(), { page, perPage: 4 }, { sort: "diner", direction: "desc" }).rows.map(
        (r) => r.id,
      ),
    );
    expect(byDinerPaged).toEqual(
      salesLines(db, EVERYTHING, base(), { sort: "diner", direction: "desc" }).map((r) => r.id),
    );
    const oldest = salesLinePage(db, EVERYTHING, base(), { page: 1, perPage: 2 }, { sort: "date", direction: "asc" });
    expect(oldest.rows.map((r) => r.serviceDate)).toEqual([D1, D1]);
    const byTotal = salesLines(db, EVERYTHING, base(), { sort: "total", direction: "desc" }).map((r) => r.totalCents);
    expect(byTotal).toEqual([...byTotal].sort((a, b) => b - a));
    const byDiner = salesLines(db, EVERYTHING, base(), { sort: "diner", direction: "asc" }).map((r) => r.dinerName);
    expect(byDiner[0]).toBe("Ana Quispe Mamani");
    expect(byDiner.at(-1)).toBe("Visita Pérez");
    // An unknown column is the default order.
    expect(salesLines(db, EVERYTHING, base(), { sort: "1; DROP TABLE sales" }).map((r) => r.id)).toEqual(
      salesLines(db, EVERYTHING, base()).map((r) => r.id),
    );
    expect(countSalesLines(db, EVERYTHING, base())).toBe(9);
    expect(salesLines(db, EVERYTHING, base(), {}, 3)).toHaveLength(3);
  });
});

describe("duplicates", () => {
  test("a diner served the same service twice on one date across cafes, with the sales involved", () => {
    const { db, w, s } = world();
    const groups = duplicateMeals(db, EVERYTHING, base());
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group).toMatchObject({
      dinerName: "Ana Quispe Mamani",
      documentNumber: "40000001",
      serviceId: w.alm,
      serviceCode: "ALM",
      serviceDate: D1,
      lines: 2,
      meals: 2,
      cafes: 2,
    });
    expect(group.sales.map((sale) => [sale.ticket, sale.cafeName, sale.saleType, sale.otherUnit])).toEqual([
      [s.anaAlmD1.ticket, "Comedor Norte", "credit", false],
      [s.anaSurCashD1.ticket, "Comedor Sur", "cash", true],
    ]);
    // Filters apply: the other service, or the other dates, have none.
    expect(duplicateMeals(db, EVERYTHING, base({ serviceIds: [w.des] }))).toEqual([]);
    expect(duplicateMeals(db, EVERYTHING, base({ from: D2 }))).toEqual([]);
    // Whatever the status asked, voided sales never make a duplicate.
    voidSale(db, ROOT, EVERYTHING, s.anaSurCashD1.id, { reason: "Doble" }, { voidAny: true }, undefined, noonIn(D1));
    expect(duplicateMeals(db, EVERYTHING, base({ status: "all" }))).toEqual([]);
  });

  test("two cash lunches of one diner at one cafe are a duplicate too; a limit caps the groups", () => {
    const { db, w } = world();
    const sell = (date: string) =>
      recordSale(
        db,
        ROOT,
        EVERYTHING,
        {
          key: `dup-key-${++keys}`,
          cafe_id: w.sur,
          document_number: "40000003",
          service_date: date,
          sale_type: "cash",
          lines: [{ service_id: w.alm, quantity: 1 }],
        },
        SETTINGS,
        { backdate: true },
        undefined,
        noonIn(date),
      );
    sell(D3);
    sell(D3);
    const groups = duplicateMeals(db, EVERYTHING, base());
    expect(groups.map((g) => [g.dinerName, g.serviceDate, g.lines, g.cafes])).toEqual([
      ["Carla Ñahui", D3, 2, 1],
      ["Ana Quispe Mamani", D1, 2, 2],
    ]);
    expect(duplicateMeals(db, EVERYTHING, base(), 1)).toHaveLength(1);
    // The Duplicates tab: at most so many groups, and whether there are more.
    const shown = duplicateMealsShown(db, EVERYTHING, base(), 1);
    expect(shown.groups.map((g) => [g.dinerName, g.serviceDate])).toEqual([["Carla Ñahui", D3]]);
    expect(shown.more).toBe(true);
    expect(duplicateMealsShown(db, EVERYTHING, base(), 2)).toEqual({ groups, more: false });
    expect(duplicateMealsShown(db, EVERYTHING, base()).more).toBe(false);
  });
});
