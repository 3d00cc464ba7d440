/**
 * The places workbook import: a good workbook creates everything, importing it again changes nothing, a workbook
 * with bad rows writes nothing and names each row, prices keep their history, and the actor's scope and
 * permissions hold.
 *
 * The world: business "Catering X S.A.C." (RUC 20100000001) runs Mina Norte → Unidad A → Comedor A; business
 * "Catering Y S.A.C." (RUC 20100000002) runs Mina Sur → Unidad B → Comedor B. Services DES and ALM exist.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { translate } from "../../i18n";
import {
  accessVersion,
  auditLog,
  businesses,
  cafes,
  cafeServices,
  mines,
  mineServices,
  servicePriceHistory,
  services,
  units,
  unitServices,
} from "../../../db/schema";
import { migrateDatabase, openDatabase, type Db } from "../../db";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { ValidationFailed } from "../errors";
import type { CellValue, WorkbookRows } from "../spreadsheets/read";
import { ALL_ABILITIES, describeProblem, ImportFailed, importPlaces, placesTemplate } from "./import";
import { offerService } from "./service-assignments";
import { createService } from "./services";

const en = (key: string, params?: Record<string, string | number>) => translate("en", key, params);

function world() {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  db.update(businesses).set({ ruc: "20100000001" }).where(eq(businesses.id, x.businessId)).run();
  db.update(businesses).set({ ruc: "20100000002" }).where(eq(businesses.id, y.businessId)).run();
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const des = createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
  const alm = createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
  return { db, x: x.businessId, y: y.businessId, cafeA, cafeB, des, alm };
}

const sheet = (name: string, rows: CellValue[][]) => ({ name, firstRow: 1, rows });

/** A complete workbook in Spanish: a new service, mine, unit and cafe, and prices. */
function goodWorkbook(): WorkbookRows {
  return [
    sheet("Servicios", [
      ["Código", "Nombre", "Tipo", "Descripción", "Activo"],
      ["cen", "Cena", "cena", "Turno noche", "sí"],
      ["DES", "Desayuno", "desayuno", "", ""],
    ]),
    sheet("Minas", [
      ["Nombre", "Servicios"],
      ["Mina Este", "DES, CEN"],
    ]),
    sheet("Unidades", [
      ["Mina", "Nombre", "Servicios"],
      ["Mina Este", "Unidad E1", "DES, CEN"],
      [null, null, null],
      ["mina este", "Unidad E2", "DES"],
    ]),
    sheet("Comedores", [
      ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
      ["Mina Este", "Unidad E1", "Comedor E1", "20100000001", "America/Bogota", "DES, CEN"],
      ["Mina Este", "Unidad E2", "Comedor E2", "catering x s.a.c.", "", "DES"],
    ]),
    sheet("Precios", [
      ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
      ["Mina Este", "Unidad E1", "Comedor E1", "DES", 12.5],
      ["Mina Este", "Unidad E1", "Comedor E1", "cen", "15,00"],
      ["Mina Este", "Unidad E2", "Comedor E2", "DES", "S/ 9.90"],
    ]),
  ];
}

function run(db: Db, workbook: WorkbookRows, scope: Scope = EVERYTHING, abilities = ALL_ABILITIES) {
  return importPlaces(db, CLI_ACTOR, scope, abilities, workbook, { timeZone: "America/Lima" });
}

function problemsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (error) {
    if (error instanceof ImportFailed) return error.problems.map((p) => describeProblem(p, en));
    throw error;
  }
  throw new Error("the import did not fail");
}

function snapshot(db: Db) {
  return {
    mines: db.select().from(mines).all(),
    units: db.select().from(units).all(),
    cafes: db.select().from(cafes).all(),
    services: db.select().from(services).all(),
    offers: [
      db.select().from(mineServices).all(),
      db.select().from(unitServices).all(),
      db.select().from(cafeServices).all(),
    ],
    history: db.select().from(servicePriceHistory).all(),
    audit: db.select().from(auditLog).all().length,
  };
}

function cafeNamed(db: Db, name: string) {
  return db.select().from(cafes).where(eq(cafes.name, name)).get()!;
}

function pricesOf(db: Db, cafeId: number): Record<string, number | null> {
  const rows = db
    .select({ code: services.code, price: cafeServices.priceCents })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(eq(cafeServices.cafeId, cafeId))
    .all();
  return Object.fromEntries(rows.map((r) => [r.code, r.price]));
}

describe("importing a places workbook", () => {
  test("a good workbook creates the services, places, assignments and prices, with history and an audit record for each", () => {
    const w = world();
    const versionBefore = w.db.select().from(accessVersion).get()?.version ?? 0;
    const counts = run(w.db, goodWorkbook());
    expect(counts).toEqual({
      mines: { created: 1, updated: 0 },
      units: { created: 2, updated: 0 },
      cafes: { created: 2, updated: 0 },
      services: { created: 1, updated: 0 },
      prices: { created: 3, updated: 0 },
    });
    const cen = w.db.select().from(services).where(eq(services.code, "CEN")).get()!;
    expect(cen).toMatchObject({ name: "Cena", type: "dinner", description: "Turno noche", active: true });
    const e1 = cafeNamed(w.db, "Comedor E1");
    const e2 = cafeNamed(w.db, "Comedor E2");
    expect(e1).toMatchObject({ businessId: w.x, timeZone: "America/Bogota" });
    // A blank time zone is APP_TIMEZONE.
    expect(e2).toMatchObject({ businessId: w.x, timeZone: "America/Lima" });
    expect(pricesOf(w.db, e1.id)).toEqual({ DES: 1250, CEN: 1500 });
    expect(pricesOf(w.db, e2.id)).toEqual({ DES: 990 });
    const history = w.db.select().from(servicePriceHistory).all();
    expect(history.map((h) => [h.cafeId, h.oldPriceCents, h.newPriceCents, h.changedByLabel])).toEqual([
      [e1.id, null, 1250, "cli"],
      [e1.id, null, 1500, "cli"],
      [e2.id, null, 990, "cli"],
    ]);
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "places.imported")).all();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].after!)).toEqual(counts);
    // Each record created is audited as the pages audit it.
    const created = (action: string) =>
      w.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, action))
        .all()
        .map((a) => JSON.parse(a.after!));
    expect(created("service.created").filter((a) => a.code === "CEN")).toEqual([
      { code: "CEN", name: "Cena", type: "dinner", description: "Turno noche", active: true },
    ]);
    expect(created("mine.created").filter((a) => a.name === "Mina Este")).toEqual([
      { name: "Mina Este", services: ["CEN", "DES"] },
    ]);
    expect(
      created("unit.created")
        .map((a) => a.name)
        .filter((n) => n.startsWith("Unidad E")),
    ).toEqual(["Unidad E1", "Unidad E2"]);
    expect(created("cafe.created").filter((a) => a.name === "Comedor E1")).toEqual([
      {
        mine: "Mina Este",
        unit: "Unidad E1",
        name: "Comedor E1",
        business: "Catering X S.A.C.",
        timeZone: "America/Bogota",
        services: ["CEN", "DES"],
      },
    ]);
    // New cafes change who reaches what.
    expect(w.db.select().from(accessVersion).get()!.version).toBeGreaterThan(versionBefore);
  });

  test("importing the same workbook again updates nothing and duplicates nothing", () => {
    const w = world();
    run(w.db, goodWorkbook());
    const before = snapshot(w.db);
    const counts = run(w.db, goodWorkbook());
    expect(counts).toEqual({
      mines: { created: 0, updated: 0 },
      units: { created: 0, updated: 0 },
      cafes: { created: 0, updated: 0 },
      services: { created: 0, updated: 0 },
      prices: { created: 0, updated: 0 },
    });
    const after = snapshot(w.db);
    expect({ ...after, audit: 0 }).toEqual({ ...before, audit: 0 });
    expect(after.audit).toBe(before.audit + 1);
  });

  test("existing records are updated: a cafe's business and time zone, a service, a price; service lists only add", () => {
    const w = world();
    offerService(w.db, "mine", w.db.select().from(mines).where(eq(mines.name, "Mina Norte")).get()!.id, w.alm);
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    offerService(w.db, "unit", unitA.id, w.alm);
    offerService(w.db, "cafe", w.cafeA, w.alm);
    w.db.update(cafeServices).set({ priceCents: 1000 }).where(eq(cafeServices.cafeId, w.cafeA)).run();
    const counts = run(w.db, [
      sheet("Services", [
        ["Code", "Name", "Type", "Active"],
        ["ALM", "Almuerzo criollo", "lunch", "no"],
        ["DES", "Desayuno", "breakfast", "yes"],
      ]),
      sheet("Mines", [
        ["Name", "Services"],
        ["Mina Norte", "DES"],
      ]),
      sheet("Units", [
        ["Mine", "Name", "Services"],
        ["Mina Norte", "Unidad A", "DES"],
      ]),
      sheet("Cafes", [
        ["Mine", "Unit", "Name", "Business", "Time zone", "Services"],
        ["Mina Norte", "Unidad A", "Comedor A", "Catering Y S.A.C.", "America/Santiago", "DES"],
      ]),
      sheet("Prices", [
        ["Mine", "Unit", "Cafe", "Service", "Price"],
        ["Mina Norte", "Unidad A", "Comedor A", "ALM", "11.00"],
      ]),
    ]);
    expect(counts).toEqual({
      mines: { created: 0, updated: 1 },
      units: { created: 0, updated: 1 },
      cafes: { created: 0, updated: 1 },
      services: { created: 0, updated: 1 },
      prices: { created: 0, updated: 1 },
    });
    expect(w.db.select().from(cafes).where(eq(cafes.id, w.cafeA)).get()).toMatchObject({
      businessId: w.y,
      timeZone: "America/Santiago",
    });
    expect(w.db.select().from(services).where(eq(services.code, "ALM")).get()).toMatchObject({
      name: "Almuerzo criollo",
      active: false,
    });
    // ALM stays offered (lists only add) and DES joins it.
    expect(pricesOf(w.db, w.cafeA)).toEqual({ ALM: 1100, DES: null });
    expect(
      w.db
        .select()
        .from(servicePriceHistory)
        .all()
        .map((h) => [h.oldPriceCents, h.newPriceCents]),
    ).toEqual([[1000, 1100]]);
    // The changes are audited with before and after, as the pages audit them.
    const entries = (action: string) =>
      w.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, action))
        .all()
        .map((a) => [a.subjectType, a.subjectId, JSON.parse(a.before ?? "null"), JSON.parse(a.after!)]);
    expect(entries("service.updated")).toEqual([
      [
        "service",
        w.alm,
        { code: "ALM", name: "Almuerzo", type: "lunch", description: "", active: true },
        { code: "ALM", name: "Almuerzo criollo", type: "lunch", description: "", active: false },
      ],
    ]);
    expect(entries("cafe.updated")).toEqual([
      [
        "cafe",
        w.cafeA,
        { name: "Comedor A", businessId: w.x, timeZone: "America/Lima" },
        { name: "Comedor A", businessId: w.y, timeZone: "America/Santiago" },
      ],
    ]);
    // Service lists: what each place offered before and after, as the Services page records it.
    expect(entries("place.services.updated").map(([kind, , before, after]) => [kind, before, after])).toEqual([
      ["mine", { services: ["ALM"] }, { services: ["ALM", "DES"] }],
      ["unit", { services: ["ALM"] }, { services: ["ALM", "DES"] }],
      ["cafe", { services: ["ALM"] }, { services: ["ALM", "DES"] }],
    ]);
  });

  test("a row naming two places that differ only in case (saved before names ignored it) is refused, naming them", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    w.db.insert(cafes).values({ unitId: unitA.id, name: "COMEDOR A", businessId: w.x, timeZone: "America/Lima" }).run();
    offerService(w.db, "mine", unitA.mineId, w.des);
    offerService(w.db, "unit", unitA.id, w.des);
    offerService(w.db, "cafe", w.cafeA, w.des);
    const before = snapshot(w.db);
    expect(
      problemsOf(() =>
        run(w.db, [
          sheet("Comedores", [
            ["Mina", "Unidad", "Nombre", "Zona horaria"],
            ["Mina Norte", "Unidad A", "Comedor A", "America/Bogota"],
          ]),
          sheet("Precios", [
            ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
            ["Mina Norte", "Unidad A", "comedor a", "DES", "10"],
          ]),
        ]),
      ),
    ).toEqual([
      "Comedores, row 2 (Nombre): Two places are named «Comedor A» but for capitals or spaces; rename one on the Management page first.",
      "Precios, row 2 (Comedor): Two places are named «comedor a» but for capitals or spaces; rename one on the Management page first.",
    ]);
    expect(snapshot(w.db)).toEqual(before);
  });

  test("a workbook with bad rows writes nothing and reports each row", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    offerService(w.db, "mine", unitA.mineId, w.des);
    offerService(w.db, "unit", unitA.id, w.des);
    offerService(w.db, "cafe", w.cafeA, w.des);
    const before = snapshot(w.db);
    const problems = problemsOf(() =>
      run(w.db, [
        sheet("Servicios", [
          ["Código", "Nombre", "Tipo"],
          ["REF", "Refrigerio", "merienda"],
        ]),
        sheet("Minas", [
          ["Nombre", "Servicios"],
          ["Mina Oeste", "DES"],
          ["mina oeste", ""],
          ["X", ""],
        ]),
        sheet("Unidades", [
          ["Mina", "Nombre", "Servicios"],
          ["Mina Fantasma", "Unidad F", ""],
          ["Mina Oeste", "Unidad O", "DES, ALM"],
        ]),
        sheet("Comedores", [
          ["Mina", "Unidad", "Nombre", "Empresa", "Zona horaria", "Servicios"],
          ["Mina Oeste", "Unidad O", "Comedor O", "Nadie S.A.C.", "Marte/Base", ""],
          ["Mina Norte", "Unidad A", "Comedor A", "", "", "ALM"],
        ]),
        sheet("Precios", [
          ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
          ["Mina Norte", "Unidad A", "Comedor A", "DES", "doce"],
          ["Mina Norte", "Unidad A", "Comedor A", "DES", 12.345],
          ["Mina Sur", "Unidad B", "Comedor B", "DES", "8.00"],
        ]),
      ]),
    );
    expect(problems).toEqual([
      `Servicios, row 2 (Tipo): ${en("import.type_invalid", { value: "merienda" })}`,
      `Minas, row 3 (Nombre): ${en("import.duplicate_row", { name: "mina oeste", row: 2 })}`,
      `Minas, row 4 (Nombre): ${en("validation.min_length", { min: 2 })}`,
      `Unidades, row 2 (Mina): ${en("import.mine_not_found", { mine: "Mina Fantasma" })}`,
      `Unidades, row 3 (Servicios): ${en("import.parent_lacks_mine", { code: "ALM", parent: "Mina Oeste" })}`,
      `Comedores, row 2 (Empresa): ${en("import.business_not_found", { business: "Nadie S.A.C." })}`,
      `Comedores, row 2 (Zona horaria): ${en("import.time_zone_invalid", { zone: "Marte/Base" })}`,
      `Comedores, row 3 (Servicios): ${en("import.parent_lacks_unit", { code: "ALM", parent: "Unidad A" })}`,
      `Precios, row 2 (Precio): ${en("import.price_invalid", { value: "doce" })}`,
      `Precios, row 3 (Precio): ${en("import.price_invalid", { value: "12.345" })}`,
      `Precios, row 3 (Servicio): ${en("import.duplicate_price", { code: "DES", row: 2 })}`,
      `Precios, row 4 (Servicio): ${en("import.not_offered", { code: "DES", cafe: "Comedor B" })}`,
    ]);
    expect(snapshot(w.db)).toEqual(before);
  });

  test("the problems become validation errors keyed by sheet, row and column", () => {
    const w = world();
    try {
      run(w.db, [sheet("Minas", [["Nombre"], ["M"]])]);
      throw new Error("expected a failure");
    } catch (error) {
      expect(error).toBeInstanceOf(ImportFailed);
      expect((error as ImportFailed).errors).toEqual({
        "rows.Minas.2.Nombre": { key: "validation.min_length", params: { min: 2 } },
      });
    }
  });

  test("a workbook without a recognised sheet, or a sheet missing a column, is refused", () => {
    const w = world();
    expect(() => run(w.db, [sheet("Hoja1", [["a"]])])).toThrow(ValidationFailed);
    expect(problemsOf(() => run(w.db, [sheet("Unidades", [["Nombre"], ["Unidad Z"]])]))).toEqual([
      `Unidades, row 1: ${en("import.missing_column", { column: "Mina" })}`,
    ]);
  });

  test("a dry run checks without writing", () => {
    const w = world();
    const before = snapshot(w.db);
    const counts = importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, goodWorkbook(), {
      timeZone: "America/Lima",
      dryRun: true,
    });
    expect(counts.cafes.created).toBe(2);
    expect(snapshot(w.db)).toEqual(before);
  });

  test("the template imports as it is", () => {
    const w = world();
    const template = placesTemplate("en", { business: "Catering X S.A.C.", timeZone: "America/Lima" });
    const workbook = template.map((s) =>
      sheet(s.name, [s.columns.map((c) => c.header), ...s.rows.map((r) => s.columns.map((c) => c.value(r)))]),
    );
    const counts = run(w.db, workbook);
    expect(counts).toMatchObject({
      mines: { created: 1 },
      units: { created: 1 },
      cafes: { created: 1 },
      prices: { created: 1 },
    });
  });
});

describe("scope and permissions", () => {
  /** A manager of Comedor A, whose headquarters area belongs to business X. */
  const scopeA = (w: ReturnType<typeof world>): Scope => ({
    all: false,
    cafeIds: new Set([w.cafeA]),
    headquartersIds: new Set(),
    businessIds: new Set([w.x]),
  });

  test("rows touching places outside the scope are not found, and new cafes need a business in scope", () => {
    const w = world();
    const problems = problemsOf(() =>
      run(
        w.db,
        [
          sheet("Comedores", [
            ["Mina", "Unidad", "Nombre", "Empresa"],
            ["Mina Sur", "Unidad B", "Comedor B2", "Catering X S.A.C."],
            ["Mina Norte", "Unidad A", "Comedor A3", "Catering Y S.A.C."],
            ["Mina Norte", "Unidad A", "Comedor A2", "Catering X S.A.C."],
          ]),
        ],
        scopeA(w),
      ),
    );
    expect(problems).toEqual([
      `Comedores, row 2 (Mina): ${en("import.mine_not_found", { mine: "Mina Sur" })}`,
      `Comedores, row 3 (Empresa): ${en("import.business_not_found", { business: "Catering Y S.A.C." })}`,
    ]);
  });

  test("a new mine or unit needs a new reachable cafe in the same workbook", () => {
    const w = world();
    expect(problemsOf(() => run(w.db, [sheet("Minas", [["Nombre"], ["Mina Nueva"]])], scopeA(w)))).toEqual([
      `Minas, row 2 (Nombre): ${en("import.needs_cafe", { name: "Mina Nueva" })}`,
    ]);
    const counts = run(
      w.db,
      [
        sheet("Minas", [["Nombre"], ["Mina Nueva"]]),
        sheet("Unidades", [
          ["Mina", "Nombre"],
          ["Mina Nueva", "Unidad N"],
        ]),
        sheet("Comedores", [
          ["Mina", "Unidad", "Nombre", "Empresa"],
          ["Mina Nueva", "Unidad N", "Comedor N", "20100000001"],
        ]),
      ],
      scopeA(w),
    );
    expect(counts.cafes.created).toBe(1);
  });

  test("each sheet needs its permission", () => {
    const w = world();
    const problems = problemsOf(() =>
      run(
        w.db,
        [
          sheet("Servicios", [
            ["Código", "Nombre", "Tipo"],
            ["DES", "Desayuno", "desayuno"],
          ]),
          sheet("Precios", [["Mina", "Unidad", "Comedor", "Servicio", "Precio"]]),
        ],
        EVERYTHING,
        { places: true, services: false, prices: false },
      ),
    );
    // An empty Prices sheet asks for nothing.
    expect(problems).toEqual([`Servicios, row 1: ${en("import.sheet_not_allowed", { sheet: "Servicios" })}`]);
  });
});
