/**
 * The Sales page through the app: its lines and totals (the sum of the lines, to the cent), each filter from the URL
 * alone and combined, scope (a cafe manager of Norte sees Norte's sales only, in the page, the duplicates and the
 * export), voided sales left out or shown by status, the service date (a dinner sold at 00:30 counts on the night
 * before), paging and sorting on the server, a URL that cannot be read, the Duplicates tab, the export read back with
 * SheetJS (numbers in soles, dates as dates, formula-looking text neutralised) and who may open any of it.
 *
 * One app for the file (tests/support/pos-app.ts): Norte (DES 8.00, ALM 15.00, CEN 12.00), Sur (ALM 14.00); Ana and
 * Beto eat at Norte, Carla at Sur; Ana and Carla work for Contrata Uno, Beto for Contrata Dos (Minera del Sur).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { EVERYTHING } from "../../src/domain/access/scope";
import { monthStart } from "../../src/domain/sales/report";
import { EXPORT_MAX_LINES } from "../../src/http/routes/sales";
import { dateIn } from "../../src/shared/calendar";
import { closePeriod } from "../../src/domain/sales/periods";
import { recordSale, voidSale } from "../../src/domain/sales/sell";
import type { SaleView } from "../../src/domain/sales/queries";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

const D1 = "2026-10-05";
const D2 = "2026-10-06";
const D3 = "2026-10-07";
const RANGE = `from=2026-10-01&to=2026-10-31`;
/** Noon in Lima on a date. */
const noonIn = (date: string) => new Date(`${date}T17:00:00Z`);

let world: PosApp;
let s: Record<string, SaleView>;
const clients: Record<string, Client> = {};

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

let keys = 0;
function sell(input: Record<string, unknown>, date: string, at: Date = noonIn(date)): SaleView {
  const { w, app, people } = world;
  return recordSale(
    app.db,
    { userId: people.root.id, label: "root@mesa.test" },
    EVERYTHING,
    {
      key: `sales-page-${++keys}`,
      cafe_id: w.norte,
      document_number: "40000001",
      service_date: date,
      sale_type: "credit",
      lines: [{ service_id: w.alm, quantity: 1 }],
      ...input,
    },
    app.config,
    { backdate: true },
    undefined,
    at,
  ).sale;
}

beforeAll(async () => {
  world = await posApp();
  const { w } = world;
  s = {
    anaAlmD1: sell({}, D1),
    anaDesD1: sell({ lines: [{ service_id: w.des, quantity: 1 }] }, D1),
    // Ana's second lunch of D1, at Sur, cash: other unit, and a duplicate of her credit lunch.
    anaSurD1: sell({ cafe_id: w.sur, sale_type: "cash", other_unit_confirmed: true }, D1),
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
    // A visitor whose name a spreadsheet would read as a formula.
    visitorD3: sell({ document_number: "70000001", visitor_name: "=1+2 Pérez", sale_type: "cash" }, D3),
    betoVoidedD3: sell({ document_number: "40000002", lines: [{ service_id: w.cen, quantity: 1 }] }, D3),
    // Ana's dinner of D3, sold at 00:30 of the next day in Lima.
    anaDinnerD3: sell({ lines: [{ service_id: w.cen, quantity: 1 }] }, D3, new Date("2026-10-08T05:30:00Z")),
  };
  voidSale(
    world.app.db,
    { userId: world.people.root.id, label: "root@mesa.test" },
    EVERYTHING,
    s.betoVoidedD3.id,
    { reason: "Error de caja" },
    { voidAny: true },
    undefined,
    noonIn(D3),
  );
});

async function lines(who: keyof PosApp["people"], query: string) {
  const page = await visitPage(await as(who), `/sales?${RANGE}&${query}`);
  expect(page.component).toBe("sales/index");
  return page.props.lines as {
    data: { ticket: string; id: number; totalCents: number; baseCents: number; igvCents: number; quantity: number }[];
    total: number;
    page: number;
    lastPage: number;
    totals: Record<string, number>;
  };
}

const ticketsOf = (rows: { ticket: string }[]) => [...new Set(rows.map((r) => r.ticket))].sort();
const ticketsOfSales = (...sales: SaleView[]) => [...new Set(sales.map((sale) => sale.ticket))].sort();

describe("the Sales page", () => {
  test("every line of the month with the totals of all of them, to the cent; voided sales counted apart", async () => {
    const shown = await lines("root", "page=1");
    expect(shown.total).toBe(8);
    expect(shown.data).toHaveLength(8);
    const sum = (field: "totalCents" | "baseCents" | "igvCents" | "quantity") =>
      shown.data.reduce((n, r) => n + r[field], 0);
    expect(shown.totals).toEqual({
      sales: 7,
      lines: 8,
      meals: sum("quantity"),
      baseCents: sum("baseCents"),
      igvCents: sum("igvCents"),
      totalCents: sum("totalCents"),
      voidedSales: 1,
      voidedCents: 1200,
    });
    // 15 + 8 + 28 (14 × 2 at Sur) + (30 + 8) + 14 + 15 + 12 soles.
    expect(shown.totals.totalCents).toBe(13000);
    expect(ticketsOf(shown.data)).not.toContain(s.betoVoidedD3.ticket);
  });

  test("without dates, the month so far; the page's filters come back as the URL's fields", async () => {
    const page = await visitPage(await as("root"), "/sales");
    const today = dateIn(world.app.config.timezone);
    expect(page.props.filters).toEqual({ from: monthStart(today), to: today, sort: null, direction: "desc" });
    expect(page.props.tab).toBe("lines");
    expect(page.props.options.cafes.map((c: { name: string }) => c.name).sort()).toEqual([
      "Comedor Norte",
      "Comedor Sur",
    ]);
    const filtered = await visitPage(
      await as("root"),
      `/sales?${RANGE}&cafe_ids=${world.w.norte}&sale_type=cash&other_unit=0&status=all&sort=total&direction=asc`,
    );
    expect(filtered.props.filters).toEqual({
      from: "2026-10-01",
      to: "2026-10-31",
      cafe_ids: String(world.w.norte),
      sale_type: "cash",
      other_unit: "0",
      status: "all",
      sort: "total",
      direction: "asc",
    });
  });

  test("each filter alone, then combined", async () => {
    const { w } = world;
    const only = async (query: string) => ticketsOf((await lines("root", query)).data);
    expect(await only(`cafe_ids=${w.sur}`)).toEqual(ticketsOfSales(s.anaSurD1, s.carlaSurD2));
    expect(await only(`dealership_id=${w.dealership}`)).toEqual(
      ticketsOfSales(s.anaAlmD1, s.anaDesD1, s.anaSurD1, s.betoCashD2, s.carlaSurD2, s.anaDinnerD3),
    );
    expect(await only(`subdealership_id=${w.otraContrata}`)).toEqual(ticketsOfSales(s.betoCashD2));
    expect(await only(`service_ids=${w.des}`)).toEqual(ticketsOfSales(s.anaDesD1, s.betoCashD2));
    expect(await only("sale_type=cash")).toEqual(ticketsOfSales(s.anaSurD1, s.betoCashD2, s.visitorD3));
    expect(await only("other_unit=1")).toEqual(ticketsOfSales(s.anaSurD1));
    expect(await only("status=voided")).toEqual(ticketsOfSales(s.betoVoidedD3));
    expect((await lines("root", "status=all")).total).toBe(9);
    expect(await only(`cafe_ids=${w.norte}&sale_type=cash&service_ids=${w.alm}`)).toEqual(
      ticketsOfSales(s.betoCashD2, s.visitorD3),
    );
    const combined = await lines("root", `cafe_ids=${w.norte}&sale_type=cash&service_ids=${w.alm}`);
    // Beto's two lunches (30.00, not his breakfast) and the visitor's lunch (15.00).
    expect(combined.totals).toMatchObject({ sales: 2, lines: 2, meals: 3, totalCents: 4500 });
    expect(await only(`cafe_ids=${w.sur}&subdealership_id=${w.otraContrata}`)).toEqual([]);
  });

  test("a voided line is shown struck through only when the status asks for it, and counts nowhere", async () => {
    const voided = await lines("root", "status=voided");
    expect(voided.data.map((r) => r.ticket)).toEqual([s.betoVoidedD3.ticket]);
    expect((voided.data[0] as unknown as { voided: boolean }).voided).toBe(true);
    expect(voided.totals).toMatchObject({ sales: 0, meals: 0, totalCents: 0, voidedSales: 1, voidedCents: 1200 });
    const all = await lines("root", "status=all");
    expect(all.totals.totalCents).toBe(13000);
  });

  test("a dinner sold at 00:30 counts on its service date, the night before", async () => {
    const night = await visitPage(await as("root"), `/sales?from=${D3}&to=${D3}`);
    expect(ticketsOf(night.props.lines.data)).toContain(s.anaDinnerD3.ticket);
    const next = await visitPage(clients.root, "/sales?from=2026-10-08&to=2026-10-08");
    expect(next.props.lines.total).toBe(0);
    expect(next.props.lines.totals.sales).toBe(0);
  });

  test("scope: Norte's cafe manager sees Norte's lines and totals only; a URL naming another cafe is not found", async () => {
    const { w } = world;
    const mine = await lines("jefa", "");
    expect(ticketsOf(mine.data)).toEqual(
      ticketsOfSales(s.anaAlmD1, s.anaDesD1, s.betoCashD2, s.visitorD3, s.anaDinnerD3),
    );
    expect(mine.totals).toMatchObject({ sales: 5, totalCents: 1500 + 800 + 3800 + 1500 + 1200, voidedSales: 1 });
    // Sur, alone or beside Norte, or a cafe that does not exist, is refused as any place outside the scope is: on
    // every tab and in the export.
    const jefa = await as("jefa");
    for (const cafes of [`${w.sur}`, `${w.norte},${w.sur}`, "999999"])
      for (const path of ["/sales", "/sales/duplicates", "/sales/periods", "/sales/export"])
        expect((await jefa.get(`${path}?${RANGE}&cafe_ids=${cafes}`)).status).toBe(404);
    expect((await jefa.get(`/sales?${RANGE}&subdealership_id=999999`)).status).toBe(404);
    expect((await jefa.get(`/sales?${RANGE}&cafe_ids=${w.norte}`)).status).toBe(200);
    const page = await visitPage(await as("jefa"), `/sales?${RANGE}`);
    expect(page.props.options.cafes.map((c: { id: number }) => c.id)).toEqual([w.norte]);
    // Ana's two lunches of D1 are at Norte and Sur: the manager of Norte sees one of them, so no duplicate.
    const duplicates = await visitPage(await as("jefa"), `/sales/duplicates?${RANGE}`);
    expect(duplicates.props.duplicates.groups).toEqual([]);
    // Sur's cashier sees Sur's.
    expect(ticketsOf((await lines("surena", "")).data)).toEqual(ticketsOfSales(s.anaSurD1, s.carlaSurD2));
  });

  test("pages and sorting on the server: a page past the end is the last one", async () => {
    const first = await visitPage(await as("root"), `/sales?${RANGE}&sort=total&direction=desc`);
    const totals = first.props.lines.data.map((r: { totalCents: number }) => r.totalCents);
    expect(totals).toEqual([...totals].sort((a: number, b: number) => b - a));
    expect(totals[0]).toBe(3000);
    // The default order: newest service date first.
    const dates = (await lines("root", "")).data.map((r) => (r as unknown as { serviceDate: string }).serviceDate);
    expect(dates).toEqual([...dates].sort().reverse());
    const past = await lines("root", "page=99");
    expect(past.page).toBe(1);
    expect(past.lastPage).toBe(1);
    // An unknown column is the default order.
    const unknown = await visitPage(await as("root"), `/sales?${RANGE}&sort=password`);
    expect(unknown.props.filters.sort).toBeNull();
  });

  test("a URL that cannot be read shows the default range with a message for each field, not an error", async () => {
    const page = await visitPage(
      await as("root"),
      "/sales?from=2026-13-40&to=2026-10-31&cafe_ids=abc&sale_type=gift&status=deleted",
    );
    expect(page.props.filterErrors).toEqual({
      from: es("sales.filter.date_invalid"),
      cafe_ids: es("sales.filter.ids_invalid", { max: 200 }),
      sale_type: es("sales.filter.sale_type_invalid"),
      status: es("sales.filter.status_invalid"),
    });
    const today = dateIn(world.app.config.timezone);
    expect(page.props.filters).toMatchObject({ from: monthStart(today), to: today });
    const backwards = await visitPage(await as("root"), "/sales?from=2026-10-31&to=2026-10-01");
    expect(backwards.props.filterErrors).toEqual({ to: es("sales.filter.range_backwards") });
  });

  test("the Duplicates tab: a diner served the same service twice on a date, with the sales involved", async () => {
    const { w } = world;
    const page = await visitPage(await as("root"), `/sales/duplicates?${RANGE}`);
    expect(page.component).toBe("sales/index");
    expect(page.props.tab).toBe("duplicates");
    expect(page.props.lines).toBeNull();
    const { groups, more } = page.props.duplicates;
    expect(more).toBe(false);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      dinerName: "Ana Quispe Mamani",
      serviceId: w.alm,
      serviceDate: D1,
      lines: 2,
      cafes: 2,
    });
    expect(groups[0].sales.map((sale: { ticket: string; cafeName: string; saleType: string }) => sale.ticket)).toEqual([
      s.anaAlmD1.ticket,
      s.anaSurD1.ticket,
    ]);
    expect(groups[0].sales[1]).toMatchObject({ cafeName: "Comedor Sur", saleType: "cash", otherUnit: true });
    // The lines tab does not read the duplicates.
    expect((await visitPage(clients.root, `/sales?${RANGE}`)).props.duplicates).toBeNull();
  });

  test("the Closed months tab lists the closed months of the person's cafes, with what they may do", async () => {
    const { w, app, people } = world;
    const root = { userId: people.root.id, label: "root@mesa.test" };
    closePeriod(app.db, root, EVERYTHING, { cafe_id: w.norte, month: "2026-09" });
    closePeriod(app.db, root, EVERYTHING, { cafe_id: w.sur, month: "2026-09" });
    const page = await visitPage(await as("root"), "/sales/periods");
    expect(page.component).toBe("sales/index");
    expect(page.props.tab).toBe("periods");
    expect(page.props.lines).toBeNull();
    expect(page.props.periods.map((p: { cafeName: string; month: string }) => [p.cafeName, p.month])).toEqual([
      ["Comedor Norte", "2026-09"],
      ["Comedor Sur", "2026-09"],
    ]);
    expect(page.props.can).toEqual({ closePeriod: true, reopenPeriod: true });
    // The cafe filter applies; a cafe manager sees their cafe's and may neither close nor reopen.
    const sur = await visitPage(clients.root, `/sales/periods?cafe_ids=${w.sur}`);
    expect(sur.props.periods.map((p: { cafeName: string }) => p.cafeName)).toEqual(["Comedor Sur"]);
    const jefa = await visitPage(await as("jefa"), "/sales/periods");
    expect(jefa.props.periods.map((p: { cafeName: string }) => p.cafeName)).toEqual(["Comedor Norte"]);
    expect(jefa.props.can).toEqual({ closePeriod: false, reopenPeriod: false });
    // The other tabs do not read them.
    expect((await visitPage(clients.root, `/sales?${RANGE}`)).props.periods).toBeNull();
  });

  test("only people who may see sales open the page and its export", async () => {
    for (const who of ["mirona", "ciega"] as const) {
      const client = await as(who);
      expect((await client.visit("/sales")).response.status).toBe(403);
      expect((await client.visit("/sales/duplicates")).response.status).toBe(403);
      expect((await client.visit("/sales/periods")).response.status).toBe(403);
      expect((await client.get("/sales/export")).status).toBe(403);
    }
  });
});

/** Downloads the export of a query and reads its sheet back. */
async function exported(who: keyof PosApp["people"], query: string) {
  const response = await (await as(who)).get(`/sales/export?${RANGE}&${query}`);
  expect(response.status).toBe(200);
  const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), {
    type: "array",
    cellNF: true,
    cellDates: true,
  });
  const sheet = book.Sheets[book.SheetNames[0]];
  return { response, sheet, rows: XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true }) };
}

describe("the export", () => {
  test("the filter's lines with amounts as numbers in soles, dates as dates and formulas neutralised", async () => {
    const { response, sheet, rows } = await exported("root", "sort=date&direction=asc");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mesa-sales-2026-10-01-2026-10-31-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const header = rows[0] as string[];
    expect(header).toEqual([
      "Fecha",
      "Vendida",
      "Comedor",
      "Ticket",
      "Comensal",
      "Tipo doc.",
      "Documento",
      "Concesionaria",
      "Subconcesionaria",
      "RUC subconcesionaria",
      "Código",
      "Servicio",
      "Cant.",
      "Precio unit.",
      "Base imponible",
      "IGV",
      "Total",
      "Tipo",
      "Otra unidad",
      "Estado",
    ]);
    const body = rows.slice(1);
    expect(body).toHaveLength(8);
    const column = (name: string) => header.indexOf(name);
    // The oldest first, as asked; its date and time are real dates.
    expect(body[0][column("Fecha")]).toEqual(new Date(`${D1}T00:00:00Z`));
    const first = XLSX.utils.encode_cell({ r: 1, c: column("Fecha") });
    expect(sheet[first].t).toBe("d");
    expect(sheet[first].z).toBe("yyyy-mm-dd");
    // Totals are numbers in soles with a soles format, and add up to the page's totals.
    const totalCell = sheet[XLSX.utils.encode_cell({ r: 1, c: column("Total") })];
    expect(totalCell.t).toBe("n");
    expect(totalCell.z).toBe('"S/" #,##0.00');
    const sum = body.reduce((n, row) => n + Math.round((row[column("Total")] as number) * 100), 0);
    expect(sum).toBe(13000);
    const base = body.reduce((n, row) => n + Math.round((row[column("Base imponible")] as number) * 100), 0);
    const igv = body.reduce((n, row) => n + Math.round((row[column("IGV")] as number) * 100), 0);
    expect(base + igv).toBe(13000);
    // The dinner sold at 00:30: its service date is D3, its time of sale the next day's 00:30 in Lima.
    const dinner = body.find((row) => row[column("Ticket")] === s.anaDinnerD3.ticket)!;
    expect(dinner[column("Fecha")]).toEqual(new Date(`${D3}T00:00:00Z`));
    expect(dinner[column("Vendida")]).toEqual(new Date("2026-10-08T00:30:00Z"));
    // Text that would start a formula is written as text.
    const visitor = body.find((row) => row[column("Ticket")] === s.visitorD3.ticket)!;
    expect(visitor[column("Comensal")]).toBe("'=1+2 Pérez");
    expect(sheet[XLSX.utils.encode_cell({ r: body.indexOf(visitor) + 1, c: column("Comensal") })].f).toBeUndefined();
    const other = body.find((row) => row[column("Ticket")] === s.anaSurD1.ticket)!;
    expect([other[column("Tipo")], other[column("Otra unidad")], other[column("Total")]]).toEqual([
      "Contado",
      "Sí",
      28,
    ]);
    expect(body.every((row) => row[column("Estado")] === "Válida")).toBe(true);
  });

  test("past EXPORT_MAX_LINES lines the export is refused with a message, and the page says so", async () => {
    // One cash sale of June with one line more than an export holds, copied straight into the database.
    const client = world.app.db.$client;
    const { id } = client
      .query(
        `INSERT INTO sales (cafe_id, receipt_type, series, number, sale_type, service_date, sold_at, request_key,
           request_digest, diner_id, document_type, document_number, diner_name, subdealership_id, subdealership_name,
           dealership_id, dealership_name, business_id, business_name, business_ruc, cafe_name, other_unit,
           price_factor_percent, igv_rate_basis_points, base_cents, igv_cents, total_cents, cashier_name)
         SELECT cafe_id, receipt_type, series, 900000, 'cash', '2026-06-15', sold_at, 'bulk-june', request_digest,
           diner_id, document_type, document_number, diner_name, subdealership_id, subdealership_name, dealership_id,
           dealership_name, business_id, business_name, business_ruc, cafe_name, other_unit, price_factor_percent,
           igv_rate_basis_points, 0, 0, 0, cashier_name
         FROM sales WHERE id = ? RETURNING id`,
      )
      .get(s.anaAlmD1.id) as { id: number };
    client.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO sale_lines (sale_id, service_id, service_code, service_name, quantity, list_price_cents,
         unit_price_cents, base_cents, igv_cents, total_cents, diner_id, sale_type, service_date, voided)
       SELECT ?, ?, 'ALM', 'Almuerzo', 1, 1500, 1500, 1271, 229, 1500, NULL, 'cash', '2026-06-15', 0 FROM n`,
      [EXPORT_MAX_LINES + 1, id, world.w.alm],
    );
    const june = "from=2026-06-01&to=2026-06-30";
    const page = await visitPage(await as("root"), `/sales?${june}`);
    expect(page.props.lines.total).toBe(EXPORT_MAX_LINES + 1);
    expect(page.props.exportMaxLines).toBe(EXPORT_MAX_LINES);
    const response = await clients.root.get(`/sales/export?${june}`, { headers: { referer: `/sales?${june}` } });
    expect(response.status).toBe(302);
    const back = await visitPage(clients.root, `/sales?${june}`);
    const format = new Intl.NumberFormat("es-PE");
    expect(back.props.errors).toEqual({
      export: es("sales.page.export_too_large", {
        lines: format.format(EXPORT_MAX_LINES + 1),
        max: format.format(EXPORT_MAX_LINES),
      }),
    });
  });

  test("the same filter as the page, and the scope of who exports", async () => {
    const { w } = world;
    const voided = await exported("root", "status=voided");
    expect(voided.rows.slice(1).map((row) => (row as unknown[])[3])).toEqual([s.betoVoidedD3.ticket]);
    expect((voided.rows[1] as unknown[])[19]).toBe("Anulada");
    const sur = await exported("root", `cafe_ids=${w.sur}`);
    expect(sur.rows.slice(1).map((row) => (row as unknown[])[2])).toEqual(["Comedor Sur", "Comedor Sur"]);
    const jefa = await exported("jefa", "");
    expect(new Set(jefa.rows.slice(1).map((row) => (row as unknown[])[2]))).toEqual(new Set(["Comedor Norte"]));
    expect(jefa.rows).toHaveLength(1 + 6);
  });
});
