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
import { translate, type TranslationKey, type TranslationParams } from "../../shared/i18n";
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
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { EVERYTHING, type Scope } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { ValidationFailed } from "../errors";
import type { CellValue, WorkbookRows } from "../spreadsheets/read";
import {
  ALL_ABILITIES,
  canConfirm,
  describeChange,
  describeCounts,
  describeExamples,
  describeProblem,
  EXAMPLE_MARK,
  ImportRefused,
  importPlaces,
  MAX_LISTED_CHANGES,
  MAX_LISTED_PROBLEMS,
  PlanChanged,
  placesTemplate,
  previewPlacesImport,
  previewWrites,
  type ImportPreview,
} from "./import";
import { offerService } from "./service-assignments";
import { createService } from "./services";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);
const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

function world() {
  const db = migratedDatabase();
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
    if (error instanceof ImportRefused)
      return (error as ImportRefused<ImportPreview>).plan.problems.map((p) => describeProblem(p, en));
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
      mines: { created: 1, updated: 0, unchanged: 0 },
      units: { created: 2, updated: 0, unchanged: 0 },
      cafes: { created: 2, updated: 0, unchanged: 0 },
      // DES is named as it is.
      services: { created: 1, updated: 0, unchanged: 1 },
      prices: { created: 3, updated: 0, unchanged: 0 },
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
      mines: { created: 0, updated: 0, unchanged: 1 },
      units: { created: 0, updated: 0, unchanged: 2 },
      cafes: { created: 0, updated: 0, unchanged: 2 },
      services: { created: 0, updated: 0, unchanged: 2 },
      prices: { created: 0, updated: 0, unchanged: 3 },
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
      mines: { created: 0, updated: 1, unchanged: 0 },
      units: { created: 0, updated: 1, unchanged: 0 },
      cafes: { created: 0, updated: 1, unchanged: 0 },
      services: { created: 0, updated: 1, unchanged: 1 },
      prices: { created: 0, updated: 1, unchanged: 0 },
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
      expect(error).toBeInstanceOf(ImportRefused);
      expect((error as ImportRefused<ImportPreview>).errors).toEqual({
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

  test("an inactive service a place offers already may be listed; adding it to a place is refused", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    for (const [kind, id] of [
      ["mine", unitA.mineId],
      ["unit", unitA.id],
      ["cafe", w.cafeA],
    ] as const)
      offerService(w.db, kind, id, w.alm);
    w.db.update(services).set({ active: false }).where(eq(services.id, w.alm)).run();
    const comedores = (services: string) =>
      sheet("Comedores", [
        ["Mina", "Unidad", "Nombre", "Servicios"],
        ["Mina Norte", "Unidad A", "Comedor A", services],
      ]);
    expect(run(w.db, [comedores("ALM")]).cafes).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(
      problemsOf(() =>
        run(w.db, [
          sheet("Minas", [
            ["Nombre", "Servicios"],
            ["Mina Sur", "ALM"],
          ]),
        ]),
      ),
    ).toEqual([`Minas, row 2 (Servicios): ${en("import.service_inactive", { code: "ALM" })}`]);
  });

  test("text an export wrote behind an apostrophe (so it never runs as a formula) is read as it was", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    w.db.insert(cafes).values({ unitId: unitA.id, name: "=Comedor", businessId: w.x, timeZone: "America/Lima" }).run();
    const counts = run(w.db, [
      sheet("Comedores", [
        ["Mina", "Unidad", "Nombre"],
        ["Mina Norte", "Unidad A", "'=Comedor"],
      ]),
    ]);
    expect(counts.cafes).toEqual({ created: 0, updated: 0, unchanged: 1 });
  });
});

describe("the preview, and writing what it showed", () => {
  const preview = (db: Db, workbook: WorkbookRows, scope: Scope = EVERYTHING, abilities = ALL_ABILITIES) =>
    previewPlacesImport(db, scope, abilities, workbook, { timeZone: "America/Lima" });

  test("the preview says what would be created, changed and left alone, lists the changes, and writes nothing", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    for (const [kind, id] of [
      ["mine", unitA.mineId],
      ["unit", unitA.id],
      ["cafe", w.cafeA],
    ] as const)
      offerService(w.db, kind, id, w.des);
    w.db.update(cafeServices).set({ priceCents: 1000 }).where(eq(cafeServices.cafeId, w.cafeA)).run();
    const before = snapshot(w.db);
    const workbook = [
      ...goodWorkbook(),
      sheet("Cafes", [
        ["Mine", "Unit", "Name", "Time zone"],
        ["Mina Norte", "Unidad A", "Comedor A", "America/Bogota"],
      ]),
    ];
    // Two sheets named for cafes: the second (in English) is a problem; without it the workbook is good.
    expect(preview(w.db, workbook).problems).toEqual([
      {
        sheet: "Cafes",
        row: 1,
        message: { key: "import.duplicate_sheet", params: { sheet: "Cafes", other: "Comedores" } },
      },
    ]);
    const good = goodWorkbook();
    good[3].rows.push(["Mina Norte", "Unidad A", "Comedor A", "", "America/Bogota", "DES"]);
    good[4].rows.push(
      ["Mina Norte", "Unidad A", "Comedor A", "DES", "10.00"],
      ["Mina Norte", "Unidad A", "Comedor A", "des", 11],
    );
    const shown = preview(w.db, good);
    // Row 6 repeats the price of row 5.
    expect(shown.problems.map((p) => describeProblem(p, en))).toEqual([
      `Precios, row 6 (Servicio): ${en("import.duplicate_price", { code: "DES", row: 5 })}`,
    ]);
    good[4].rows.pop();
    const ok = preview(w.db, good);
    expect(ok.problems).toEqual([]);
    expect(ok.counts).toEqual({
      mines: { created: 1, updated: 0, unchanged: 0 },
      units: { created: 2, updated: 0, unchanged: 0 },
      cafes: { created: 2, updated: 1, unchanged: 0 },
      services: { created: 1, updated: 0, unchanged: 1 },
      prices: { created: 3, updated: 0, unchanged: 1 },
    });
    expect(canConfirm(ok)).toBe(true);
    expect(ok.changes.map((c) => describeChange(c, en))).toEqual([
      "New service CEN — Cena — name: Cena; type: dinner; description: Turno noche; active: yes",
      // In the order they are written: places the database holds come first.
      "Cafe Mina Norte › Unidad A › Comedor A — time zone: America/Lima → America/Bogota",
      "New mine Mina Este — services CEN, DES",
      "New unit Mina Este › Unidad E1 — services CEN, DES",
      "New cafe Mina Este › Unidad E1 › Comedor E1 — business: Catering X S.A.C.; time zone: America/Bogota; services CEN, DES",
      "Price of DES at Mina Este › Unidad E1 › Comedor E1: S/\u00a012.50",
      "Price of CEN at Mina Este › Unidad E1 › Comedor E1: S/\u00a015.00",
      "New unit Mina Este › Unidad E2 — services DES",
      "New cafe Mina Este › Unidad E2 › Comedor E2 — business: Catering X S.A.C.; time zone: America/Lima; services DES",
      "Price of DES at Mina Este › Unidad E2 › Comedor E2: S/\u00a09.90",
    ]);
    // Counts read as people write them, one line per kind, in both languages.
    expect(describeCounts(ok.counts, en)).toEqual([
      "1 new mine",
      "2 new units",
      "2 new cafes, 1 changed cafe",
      "1 new service, 1 service unchanged",
      "3 new prices, 1 price unchanged",
    ]);
    expect(describeCounts(ok.counts, es)).toEqual([
      "1 mina nueva",
      "2 unidades nuevas",
      "2 comedores nuevos, 1 comedor con cambios",
      "1 servicio nuevo, 1 servicio sin cambios",
      "3 precios nuevos, 1 precio sin cambios",
    ]);
    expect(snapshot(w.db)).toEqual(before);

    // Confirmed unchanged: exactly that is written.
    const counts = importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, good, {
      timeZone: "America/Lima",
      expectedPlan: ok.plan,
    });
    expect(counts).toEqual(ok.counts);
    expect(cafeNamed(w.db, "Comedor A").timeZone).toBe("America/Bogota");
    // Imported again, it changes nothing: nothing to confirm.
    const again = preview(w.db, good);
    expect(previewWrites(again)).toBe(false);
    expect(again.changes).toEqual([]);
  });

  test("when the places changed after the preview so the plan differs, confirming writes nothing and says what it would do now", () => {
    const w = world();
    const workbook = goodWorkbook();
    const shown = preview(w.db, workbook);
    // Meanwhile someone creates one of the cafes the preview would have created.
    const unitE = ensureCafe(w.db, "Mina Este", "Unidad E2", "Comedor E2", w.x);
    expect(unitE).toBeGreaterThan(0);
    const before = snapshot(w.db);
    let changed: unknown;
    try {
      importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, {
        timeZone: "America/Lima",
        expectedPlan: shown.plan,
      });
    } catch (error) {
      changed = error;
    }
    expect(changed).toBeInstanceOf(PlanChanged);
    const now = (changed as PlanChanged<ImportPreview>).plan;
    expect(now.plan).not.toBe(shown.plan);
    expect(now.counts.mines).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(snapshot(w.db)).toEqual(before);
    // The new preview, confirmed, is written.
    importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, {
      timeZone: "America/Lima",
      expectedPlan: now.plan,
    });
    expect(pricesOf(w.db, cafeNamed(w.db, "Comedor E2").id)).toEqual({ DES: 990 });
  });

  test("a price changed by someone else after the preview also counts as a different plan", () => {
    const w = world();
    const unitA = w.db.select().from(units).where(eq(units.name, "Unidad A")).get()!;
    for (const [kind, id] of [
      ["mine", unitA.mineId],
      ["unit", unitA.id],
      ["cafe", w.cafeA],
    ] as const)
      offerService(w.db, kind, id, w.des);
    const workbook = [
      sheet("Precios", [
        ["Mina", "Unidad", "Comedor", "Servicio", "Precio"],
        ["Mina Norte", "Unidad A", "Comedor A", "DES", "12.00"],
      ]),
    ];
    const shown = preview(w.db, workbook);
    expect(shown.counts.prices).toEqual({ created: 1, updated: 0, unchanged: 0 });
    w.db.update(cafeServices).set({ priceCents: 1100 }).where(eq(cafeServices.cafeId, w.cafeA)).run();
    expect(() =>
      importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, {
        timeZone: "America/Lima",
        expectedPlan: shown.plan,
      }),
    ).toThrow(PlanChanged);
    expect(pricesOf(w.db, w.cafeA)).toEqual({ DES: 1100 });
  });

  test("a preview with problems cannot be confirmed; confirming it anyway writes nothing", () => {
    const w = world();
    const workbook = [sheet("Minas", [["Nombre"], ["M"], ["Mina Buena"]])];
    const shown = preview(w.db, workbook);
    expect(shown.problems).toHaveLength(1);
    expect(canConfirm(shown)).toBe(false);
    expect(() =>
      importPlaces(w.db, CLI_ACTOR, EVERYTHING, ALL_ABILITIES, workbook, {
        timeZone: "America/Lima",
        expectedPlan: shown.plan,
      }),
    ).toThrow(PlanChanged);
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Buena")).get()).toBeUndefined();
  });

  test("problems and changes are listed up to their limits, with how many more", () => {
    const w = world();
    const many = MAX_LISTED_PROBLEMS + 5;
    const bad = preview(w.db, [sheet("Minas", [["Nombre"], ...Array.from({ length: many }, () => ["M"])])]);
    expect(bad.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(bad.moreProblems).toBe(5);
    const good = preview(w.db, [
      sheet("Minas", [["Nombre"], ...Array.from({ length: MAX_LISTED_CHANGES + 3 }, (_, i) => [`Mina ${i}`])]),
    ]);
    expect(good.changes).toHaveLength(MAX_LISTED_CHANGES);
    expect(good.moreChanges).toBe(3);
    expect(good.counts.mines.created).toBe(MAX_LISTED_CHANGES + 3);
  });
});

describe("example rows", () => {
  const asRows = (sheets: ReturnType<typeof placesTemplate>): WorkbookRows =>
    sheets.map((s) =>
      sheet(s.name, [s.columns.map((c) => c.header), ...s.rows.map((r) => s.columns.map((c) => c.value(r)))]),
    );

  test("the template's example rows are marked in its first column; imported unchanged it imports nothing and says why", () => {
    const w = world();
    const before = snapshot(w.db);
    for (const language of ["es", "en"] as const) {
      const template = placesTemplate(language, { business: "Catering X S.A.C.", timeZone: "America/Lima" });
      expect(template.map((s) => s.columns[0].header)).toEqual(
        Array(5).fill(language === "es" ? "Ejemplo" : "Example"),
      );
      expect(
        template.every((s) => s.rows.length === 1 && s.columns[0].value(s.rows[0]) === EXAMPLE_MARK[language]),
      ).toBe(true);
      const shown = previewPlacesImport(w.db, EVERYTHING, ALL_ABILITIES, asRows(template), {
        timeZone: "America/Lima",
      });
      expect(shown.problems).toEqual([]);
      expect(previewWrites(shown)).toBe(false);
      expect(shown.examples.map((e) => e.row)).toEqual([2, 2, 2, 2, 2]);
      expect(describeExamples(shown, en)).toBe(
        `5 rows marked as examples are skipped (${template.map((s) => `${s.name}, row 2`).join("; ")}).`,
      );
    }
    expect(snapshot(w.db)).toEqual(before);
  });

  test("rows added under the example are imported and the example is not; a cleared or 'no' mark imports the row", () => {
    const w = world();
    const template = placesTemplate("es", { business: "Catering X S.A.C.", timeZone: "America/Lima" });
    const minas = template.find((s) => s.name === "Minas")!;
    minas.rows.push(
      { example: "", name: "Mina Real", services: "" },
      { example: "no", name: "Mina Otra", services: "" },
    );
    const rows = asRows(template);
    const shown = previewPlacesImport(w.db, EVERYTHING, ALL_ABILITIES, rows, { timeZone: "America/Lima" });
    expect(shown.counts.mines).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(describeExamples(shown, es)).toBe(
      `Se omiten 5 filas marcadas como ejemplo (${template.map((s) => `${s.name}, fila 2`).join("; ")}).`,
    );
    run(w.db, rows);
    expect(w.db.select().from(mines).where(eq(mines.name, "Mina Ejemplo")).get()).toBeUndefined();
    expect(
      w.db
        .select()
        .from(mines)
        .all()
        .map((m) => m.name)
        .filter((n) => n.startsWith("Mina R") || n.startsWith("Mina O")),
    ).toEqual(["Mina Real", "Mina Otra"]);
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

  test("a sheet that creates or changes something needs its permission; one that changes nothing does not", () => {
    const w = world();
    const placesOnly = { places: true, services: false, prices: false };
    const problems = problemsOf(() =>
      run(
        w.db,
        [
          sheet("Servicios", [
            ["Código", "Nombre", "Tipo"],
            ["DES", "Desayuno continental", "desayuno"],
          ]),
          sheet("Precios", [["Mina", "Unidad", "Comedor", "Servicio", "Precio"]]),
        ],
        EVERYTHING,
        placesOnly,
      ),
    );
    // An empty Prices sheet asks for nothing.
    expect(problems).toEqual([`Servicios, row 1: ${en("import.sheet_not_allowed", { sheet: "Servicios" })}`]);
    // The same service as it is (a re-imported export) is no change, so no permission is asked for.
    const counts = run(
      w.db,
      [
        sheet("Servicios", [
          ["Código", "Nombre", "Tipo"],
          ["DES", "Desayuno", "desayuno"],
        ]),
      ],
      EVERYTHING,
      placesOnly,
    );
    expect(counts.services).toEqual({ created: 0, updated: 0, unchanged: 1 });
  });
});
