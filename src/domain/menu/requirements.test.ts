/**
 * What to buy, against numbers worked by hand (tests/support/menu-requirements.ts builds the world; IGV 18 %).
 *
 * Expected servings at Comedor Norte:
 *   Monday 2026-12-07  breakfast: average of the four Mondays before (20 + 22 + 0 + 21) ÷ 4 = 15.75 → 16
 *                      lunch: set to 100
 *   Tuesday 2026-12-08 lunch: average (80 + 90 + 85 + 86) ÷ 4 = 85.25 → 86
 *                      dinner: set to 40
 * Published menu: Monday lunch Arroz con pollo and Chicha morada (no recipe), breakfast Huevo frito con arroz;
 * Tuesday lunch Arroz con pollo, dinner Huevo frito con arroz; Wednesday is a draft never published.
 *   Arroz con pollo: 100 + 86 = 186 servings (Staff recipe: the cafe's level)
 *   Huevo frito con arroz: 16 + 40 = 56 servings (Master recipe: it has no Staff one)
 * Per serving of Arroz con pollo: rice 150 g, chicken 200 g, oil 10 ml, salt 2 g, and 40 g of Salsa criolla, whose
 * recipe makes 200 g from 180 g of onion and 20 ml of oil: × 0.2 → onion 36 g, oil 4 ml.
 * Per serving of Huevo frito con arroz: 1 egg, rice 100 g (pinned to the 5 kg bag), oil 5 ml.
 *
 * Distribuidora Andina:
 *   Aceite vegetal  (10 + 4) × 186 + 5 × 56 = 2,884 ml → 3 × Botella 1 L at 1,190 ÷ 1.18 = 1,008.47 → 3,025.42 → 3,025
 *   Arroz pilado    150 × 186 = 27,900 g → 1 × Saco 50 kg at 17,700 ÷ 1.18 = 15,000 → 15,000
 *   total 18,025
 * Mercado Mayorista Sur:
 *   Huevo de gallina 56 u → 2 × Bandeja 30 u at 1,200 → 2,400
 *   Pollo entero     200 × 186 = 37,200 g → 4 × Caja 10 kg at 8,000 → 32,000 (a cheaper withdrawn offer is not current)
 *   Arroz pilado     100 × 56 = 5,600 g → 2 × Bolsa 5 kg at 2,000 → 4,000 (pinned)
 *   Cebolla roja     36 × 186 = 6,696 g → 1 × Saco 20 kg at 3,000 → 3,000
 *   total 41,400
 * Without an offer in Lima: Sal yodada 2 × 186 = 372 g. Total 59,425 cents.
 */
import { describe, expect, test } from "bun:test";
import { offers } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING } from "../access/scope";
import { NotFound, ValidationFailed } from "../errors";
import { requirementsWorld } from "../../../tests/support/menu-requirements";
import { CLI_ACTOR } from "../audit";
import {
  checkRange,
  describeForecastProblem,
  expectedServings,
  ForecastRefused,
  importForecast,
  saveDayServings,
} from "./expected-servings";
import { menuRequirements, presentationsFor, type RequirementPack } from "./requirements";
import { type RequirementLine } from "../../shared/menu/types";

const OPTIONS = { igvRate: 1800 };

/** The one presentation a line buys. */
function only(line: RequirementLine): RequirementPack {
  expect(line.packs).toHaveLength(1);
  return line.packs[0];
}

function world() {
  const db = migratedDatabase();
  return { db, w: requirementsWorld(db) };
}

describe("what to buy", () => {
  test("the published menu × expected servings × recipes, by provider, in whole presentations, as worked by hand", () => {
    const { db, w } = world();
    const r = menuRequirements(db, EVERYTHING, w.norte, w.monday, w.wednesday, OPTIONS);
    expect(r.level.name).toBe("Staff");
    expect(r.publishedDays).toBe(2);
    expect(r.dishServings).toBe(186 + 56 + 100);

    expect(r.providers.map((p) => [p.providerName, p.totalCents])).toEqual([
      ["Distribuidora Andina", 18_025],
      ["Mercado Mayorista Sur", 41_400],
    ]);
    const [andina, mercado] = r.providers;
    expect(
      andina.lines.map((l) => [
        l.ingredientName,
        only(l).presentation,
        only(l).presentations,
        l.boughtQuantity,
        l.costCents,
      ]),
    ).toEqual([
      ["Aceite vegetal", "Botella 1 L", 3, 3000, 3025],
      ["Arroz pilado", "Saco 50 kg", 1, 50_000, 15_000],
    ]);
    expect(andina.lines[0].neededQuantity).toBeCloseTo(2884, 6);
    expect(only(andina.lines[0]).presentationNetCents).toBeCloseTo(1190 / 1.18, 9);
    expect(andina.lines[1].neededQuantity).toBeCloseTo(27_900, 6);
    expect(
      mercado.lines.map((l) => [
        l.ingredientName,
        only(l).presentation,
        only(l).presentations,
        l.costCents,
        only(l).offerId,
      ]),
    ).toEqual([
      ["Huevo de gallina", "Bandeja 30 u", 2, 2400, w.offer.huevo],
      ["Pollo entero", "Caja 10 kg", 4, 32_000, w.offer.pollo],
      ["Arroz pilado", "Bolsa 5 kg", 2, 4000, w.offer.arrozBolsa],
      ["Cebolla roja", "Saco 20 kg", 1, 3000, w.offer.cebolla],
    ]);
    expect(mercado.lines.map((l) => l.neededQuantity)).toEqual([56, 37_200, 5_600, expect.closeTo(6696, 6)]);

    expect(r.missing).toEqual([
      {
        ingredientId: w.ingredient.sal,
        ingredientName: "Sal yodada",
        categoryName: "Verduras",
        baseUnit: "g",
        neededQuantity: 372,
        dishes: ["Arroz con pollo"],
      },
    ]);
    expect(r.dishesWithoutRecipe).toEqual([{ dishId: w.dish.refresco, dishName: "Chicha morada", servings: 100 }]);
    expect(r.totalCents).toBe(59_425);
  });

  test("only the days asked for count, and a range without a published day buys nothing", () => {
    const { db, w } = world();
    const tuesday = menuRequirements(db, EVERYTHING, w.norte, w.tuesday, w.tuesday, OPTIONS);
    // Tuesday alone: Arroz con pollo × 86 (the average is taken before Tuesday: its four Tuesdays) and Huevo × 40.
    const rice = tuesday.providers.flatMap((p) => p.lines).find((l) => only(l).offerId === w.offer.arrozSaco)!;
    expect(rice.neededQuantity).toBeCloseTo(150 * 86, 6);
    const eggs = tuesday.providers.flatMap((p) => p.lines).find((l) => only(l).offerId === w.offer.huevo)!;
    expect(eggs.neededQuantity).toBe(40);
    expect(only(eggs).presentations).toBe(2);

    const wednesday = menuRequirements(db, EVERYTHING, w.norte, w.wednesday, w.wednesday, OPTIONS);
    expect(wednesday.publishedDays).toBe(0);
    expect(wednesday.providers).toEqual([]);
    expect(wednesday.totalCents).toBe(0);
  });

  test("a provider's presentations of an ingredient are mixed at the lowest cost; a larger one cheaper per unit is noted", () => {
    const { db, w } = world();
    const at = new Date("2026-11-20T12:00:00Z");
    const addOffer = (presentation: string, quantity: number, priceCents: number) =>
      db
        .insert(offers)
        .values({
          providerId: w.andina,
          ingredientId: w.ingredient.aceite,
          cityId: w.lima,
          presentation,
          quantity,
          priceCents,
          priceIncludesIgv: true,
          priceChangedAt: at,
          createdAt: at,
          updatedAt: at,
        })
        .returning()
        .get().id;
    // Beside the 1 L bottle at S/ 11.90 (S/ 10.0847 net): a 500 ml bottle at S/ 6.49 (S/ 5.50 net) and a 5 L can
    // at S/ 47.20 (S/ 40.00 net: S/ 8.00 a litre against the 1 L bottle's S/ 10.08).
    const half = addOffer("Botella 500 ml", 500, 649);
    const can = addOffer("Bidón 5 L", 5000, 4720);
    // Tuesday alone needs (10 + 4) × 86 + 5 × 40 = 1,404 ml of oil: 1 L + 500 ml (1,008.47 + 550 → 1,008 + 550 =
    // 1,558) beats two litres (2,016.95), three half litres (1,650) and the can (4,000).
    const r = menuRequirements(db, EVERYTHING, w.norte, w.tuesday, w.tuesday, OPTIONS);
    const oil = r.providers.flatMap((p) => p.lines).find((l) => l.ingredientId === w.ingredient.aceite)!;
    expect(oil.neededQuantity).toBeCloseTo(1404, 6);
    expect(oil.packs.map((p) => [p.offerId, p.presentations, p.costCents])).toEqual([
      [w.offer.aceite, 1, 1008],
      [half, 1, 550],
    ]);
    expect(oil.boughtQuantity).toBe(1500);
    expect(oil.costCents).toBe(1558);
    expect(oil.unitNetCents).toBeCloseTo((1190 / 1.18 + 550) / 1500, 9);
    expect(oil.largerPack).toMatchObject({ offerId: can, presentation: "Bidón 5 L", coverNetCents: 4000 });
    expect(oil.largerPack!.unitNetCents).toBeCloseTo(0.8, 9);
    // The provider's total adds the line's presentations.
    const andina = r.providers.find((p) => p.providerId === w.andina)!;
    expect(andina.totalCents).toBe(andina.lines.reduce((n, l) => n + l.costCents, 0));
    // Over both days (2,884 ml) three litres (3,025.42) beat two litres and two half litres (3,116.95) and the can
    // (4,000), which stays a note.
    const both = menuRequirements(db, EVERYTHING, w.norte, w.monday, w.tuesday, OPTIONS);
    const oil2 = both.providers.flatMap((p) => p.lines).find((l) => l.ingredientId === w.ingredient.aceite)!;
    expect(oil2.packs.map((p) => [p.presentation, p.presentations])).toEqual([["Botella 1 L", 3]]);
    expect(oil2.costCents).toBe(3025);
    expect(oil2.largerPack?.presentation).toBe("Bidón 5 L");
  });

  test("a cafe outside the scope is not found, and one without a city cannot buy", () => {
    const { db, w } = world();
    const scope = {
      all: false,
      cafeIds: new Set([w.sur]),
      headquartersIds: new Set<number>(),
      businessIds: new Set<number>(),
    };
    expect(() => menuRequirements(db, scope, w.norte, w.monday, w.tuesday, OPTIONS)).toThrow(NotFound);
    db.$client.run(`UPDATE cafes SET city_id = NULL WHERE id = ${w.sur}`);
    expect(() => menuRequirements(db, scope, w.sur, w.monday, w.tuesday, OPTIONS)).toThrow(ValidationFailed);
  });

  test("presentations round up, but not for a floating-point hair", () => {
    expect(presentationsFor(0, 1000)).toBe(0);
    expect(presentationsFor(1, 1000)).toBe(1);
    expect(presentationsFor(1000, 1000)).toBe(1);
    expect(presentationsFor(1000.5, 1000)).toBe(2);
    expect(presentationsFor(0.1 + 0.2, 0.3)).toBe(1);
    expect(presentationsFor(36.00000000000001 * 1000, 36_000)).toBe(1);
  });
});

describe("expected servings", () => {
  test("a stored value wins; otherwise the same weekday's average over the four weeks before, rounded up", () => {
    const { db, w } = world();
    const s = expectedServings(db, w.norte, w.monday, w.tuesday);
    expect(s.basis).toEqual({ from: "2026-11-09", to: "2026-12-06" });
    expect(s.services.map((x) => x.code)).toEqual(["DES", "ALM", "CEN"]);
    const cell = (date: string, serviceId: number) =>
      s.days.find((d) => d.date === date)!.cells.find((c) => c.serviceId === serviceId)!;
    expect(cell(w.monday, w.des)).toEqual({ serviceId: w.des, servings: 16, set: null, average: 16 });
    expect(cell(w.monday, w.alm)).toEqual({ serviceId: w.alm, servings: 100, set: 100, average: 0 });
    expect(cell(w.tuesday, w.alm)).toEqual({ serviceId: w.alm, servings: 86, set: null, average: 86 });
    expect(cell(w.tuesday, w.cen)).toEqual({ serviceId: w.cen, servings: 40, set: 40, average: 0 });
  });

  test("ranges are checked: real dates, in order, at most 62 days", () => {
    expect(checkRange("2026-12-01", "2026-12-31")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(checkRange("2026-12-01", "2027-01-31").to).toBe("2027-01-31");
    const errors = (from: unknown, to: unknown) => {
      try {
        checkRange(from, to);
      } catch (error) {
        return Object.keys((error as ValidationFailed).errors);
      }
      return [];
    };
    expect(errors("2026-12-01", "2027-02-01")).toEqual(["to"]);
    expect(errors("2026-12-02", "2026-12-01")).toEqual(["to"]);
    expect(errors("2026-02-30", "x")).toEqual(["from", "to"]);
  });
});

describe("setting servings", () => {
  const servingsOf = (db: ReturnType<typeof world>["db"], cafe: number, date: string, serviceId: number) =>
    expectedServings(db, cafe, date, date).days[0].cells.find((c) => c.serviceId === serviceId)!;

  test("a day's servings are saved per service, blank goes back to the average, and each change is audited", () => {
    const { db, w } = world();
    saveDayServings(db, CLI_ACTOR, EVERYTHING, w.norte, { date: w.monday, servings: { [w.des]: "30", [w.alm]: "" } });
    expect(servingsOf(db, w.norte, w.monday, w.des)).toMatchObject({ servings: 30, set: 30 });
    expect(servingsOf(db, w.norte, w.monday, w.alm)).toMatchObject({ servings: 0, set: null });
    const audit = db.$client
      .query<{ action: string; kind: string; place_id: number }, []>(
        `SELECT a.action, p.kind, p.place_id FROM audit_log a JOIN audit_places p ON p.audit_id = a.id`,
      )
      .all();
    expect(audit).toEqual([{ action: "menu.servings.updated", kind: "cafe", place_id: w.norte }]);
    const refused = (servings: Record<string, unknown>) => {
      try {
        saveDayServings(db, CLI_ACTOR, EVERYTHING, w.norte, { date: w.monday, servings });
      } catch (error) {
        return (error as ValidationFailed).errors;
      }
      return null;
    };
    expect(Object.keys(refused({ [w.des]: "2.5", [w.alm]: -1 })!)).toEqual([`servings.${w.des}`, `servings.${w.alm}`]);
    expect(Object.keys(refused({ 999: 3 })!)).toEqual(["servings.999"]);
    const outside = {
      all: false,
      cafeIds: new Set([w.sur]),
      headquartersIds: new Set<number>(),
      businessIds: new Set<number>(),
    };
    expect(() => saveDayServings(db, CLI_ACTOR, outside, w.norte, { date: w.monday, servings: {} })).toThrow(NotFound);
  });

  test("a forecast loads all its rows, or none when a row has a problem, each problem by row and column", () => {
    const { db, w } = world();
    const sheet = (rows: (string | number | null)[][]) => ({ name: "Hoja1", firstRow: 1, rows });
    const bad = sheet([
      ["Servicio", "Fecha", "Comensales"],
      ["ALM", "2026-12-14", 120],
      ["Almuerzo", "14/12/2026", 5],
      ["Once", "2026-12-15", 10],
      ["CEN", "2026-13-01", "x"],
    ]);
    let problems: string[] = [];
    try {
      importForecast(db, CLI_ACTOR, EVERYTHING, w.norte, bad);
    } catch (error) {
      expect(error).toBeInstanceOf(ForecastRefused);
      problems = (error as ForecastRefused).problems.map((p) => describeForecastProblem(p, "es"));
    }
    expect(problems).toEqual([
      "Fila 3: Esta fecha y servicio ya están en la fila 2.",
      "Fila 4 (Servicio): No hay un servicio «Once».",
      "Fila 5 (Fecha): No es una fecha (AAAA-MM-DD o DD/MM/AAAA).",
      "Fila 5 (Comensales): Debe ser un número entero.",
    ]);
    expect(servingsOf(db, w.norte, "2026-12-14", w.alm).set).toBeNull();

    // Dates as Excel serials (46,370 is 2026-12-14) or day first; services by code or name, any case or accents.
    const good = sheet([
      [null, null, null],
      ["Date", "Service", "Servings"],
      [46_370, "alm", 120],
      ["15/12/2026", "DESAYUNO", 35],
      [null, null, null],
      ["2026-12-15", "Cena", 0],
    ]);
    expect(importForecast(db, CLI_ACTOR, EVERYTHING, w.norte, good)).toEqual({
      rows: 3,
      days: 2,
      from: "2026-12-14",
      to: "2026-12-15",
    });
    expect(servingsOf(db, w.norte, "2026-12-14", w.alm).servings).toBe(120);
    expect(servingsOf(db, w.norte, "2026-12-15", w.des).servings).toBe(35);
    expect(servingsOf(db, w.norte, "2026-12-15", w.cen)).toMatchObject({ servings: 0, set: 0 });

    const missing = sheet([
      ["Fecha", "Platos"],
      ["2026-12-14", 3],
    ]);
    try {
      importForecast(db, CLI_ACTOR, EVERYTHING, w.norte, missing);
      throw new Error("expected a refusal");
    } catch (error) {
      expect((error as ForecastRefused).problems.map((p) => describeForecastProblem(p, "en"))).toEqual([
        "Row 1 (Platos): Unknown column.",
        "Row 1 (Service): This column is missing.",
        "Row 1 (Servings): This column is missing.",
      ]);
    }
  });
});
