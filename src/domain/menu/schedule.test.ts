/**
 * The meal schedule's rules on a small world (tests/support/schedule-world.ts, where the figures are worked out):
 * dishes costed for the cafe's level and city, slots and meals against their bounds, flags, saving with versions
 * (a stale save refused with the day as it is), the checks of a save, copying days, weeks and cycles (published days
 * only when asked), the audit and the events.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, cafes, menuDays } from "../../../db/schema";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { EVERYTHING, type Scope } from "../access/scope";
import type { Actor } from "../audit";
import { ValidationFailed } from "../errors";
import type { DomainEvent, Publisher } from "../events";
import { posWorld, type PosWorld } from "../../../tests/support/pos";
import { scheduleWorld, type ScheduleWorld } from "../../../tests/support/schedule-world";
import {
  addDays,
  boundOf,
  copyDays,
  PublishedTargets,
  saveDay,
  scheduleDay,
  scheduleRange,
  searchDishes,
  StaleDay,
} from "./schedule";

let db: Db;
let w: PosWorld;
let s: ScheduleWorld;
const actor: Actor = { userId: null, label: "cli" };
const MONDAY = "2026-12-07";

/** A publisher that keeps what it is given. */
function recorder(): Publisher & { events: DomainEvent[] } {
  const events: DomainEvent[] = [];
  return { events, publish: (event) => events.push(event) };
}

/** Norte's lunch with these dishes: Entrada and Segundo. */
const lunch = (entrada: number[], segundo: number[]) => [
  { service_id: w.alm, category_id: s.entrada, dish_ids: entrada },
  { service_id: w.alm, category_id: s.segundo, dish_ids: segundo },
];

beforeEach(() => {
  db = migratedDatabase();
  w = posWorld(db);
  s = scheduleWorld(db, w);
});

describe("reading the schedule", () => {
  test("every day of the range, each meal with a structure, a slot per category in order", () => {
    const schedule = scheduleRange(db, EVERYTHING, w.norte, MONDAY, addDays(MONDAY, 6));
    expect(schedule.days.map((d) => d.date)).toEqual([
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
      "2026-12-12",
      "2026-12-13",
    ]);
    expect(schedule.cafe).toMatchObject({ id: w.norte, cityId: s.lima, levelId: s.master, levelName: "Master" });
    expect(schedule.services).toEqual([{ id: w.alm, name: "Almuerzo", type: "lunch" }]);
    const day = schedule.days[0];
    expect(day).toMatchObject({ version: 0, state: "empty", publishedVersion: null });
    expect(day.meals[0].slots.map((slot) => [slot.categoryName, slot.minCostCents, slot.maxCostCents])).toEqual([
      ["Entrada", 30, 100],
      ["Segundo", 200, 400],
    ]);
    expect(day.meals[0]).toMatchObject({ costCents: 0, minCostCents: 230, maxCostCents: 500, bound: null });
  });

  test("ranges are real dates, in order, at most 62 days", () => {
    const reasons = (from: string, to: string) => {
      try {
        scheduleRange(db, EVERYTHING, w.norte, from, to);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationFailed);
        return Object.keys((error as ValidationFailed).errors);
      }
    };
    expect(reasons("2026-02-30", "2026-03-01")).toEqual(["from"]);
    expect(reasons("2026-03-02", "2026-03-01")).toEqual(["to"]);
    expect(reasons("2026-01-01", addDays("2026-01-01", 62))).toEqual(["to"]);
    expect(reasons("2026-01-01", addDays("2026-01-01", 61))).toBeNull();
  });

  test("a cafe outside the scope is not found", () => {
    const scope: Scope = { all: false, cafeIds: new Set([w.sur]), headquartersIds: new Set(), businessIds: new Set() };
    expect(() => scheduleRange(db, scope, w.norte, MONDAY, MONDAY)).toThrow("Not found");
    expect(scheduleRange(db, scope, w.sur, MONDAY, MONDAY).days).toHaveLength(1);
  });
});

describe("figures and bounds", () => {
  test("a dish's cost and kcal are its recipe's for the cafe's level in its city; slots and meals add up", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], [s.arrozConPollo]) });
    const meal = scheduleDay(db, EVERYTHING, w.norte, MONDAY).meals[0];
    const [entrada, segundo] = meal.slots;
    expect(entrada.dishes).toEqual([
      { id: s.causa, name: "Causa", active: true, costCents: 40, kcal: 360, problem: null, bound: "within" },
    ]);
    expect(segundo).toMatchObject({ costCents: 260, kcal: 940, complete: true, bound: "within" });
    // 40 + 260 = 300 cents against 230 – 500; 360 + 940 kcal.
    expect(meal).toMatchObject({ costCents: 300, kcal: 1300, complete: true, bound: "within" });
  });

  test("above the upper bound is said even before the meal is complete; below only once it is", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([], [s.polloBrasa]) });
    const meal = scheduleDay(db, EVERYTHING, w.norte, MONDAY).meals[0];
    expect(meal.slots[1]).toMatchObject({ costCents: 450, bound: "above" });
    expect(meal.slots[0]).toMatchObject({ costCents: null, complete: false, bound: null });
    // 450 < 500: within the meal's upper bound, but Entrada is empty, so nothing is said yet.
    expect(meal).toMatchObject({ costCents: 450, complete: false, bound: null });
    expect(boundOf(20, 30, 100, true)).toBe("below");
    expect(boundOf(20, 30, 100, false)).toBeNull();
    expect(boundOf(101, 30, 100, false)).toBe("above");
  });

  test("a slot of several dishes shows its dearest; a dish without recipe or with unpriced lines is flagged", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, {
      version: 0,
      slots: lunch([s.causa, s.ensalada, s.chicha], [s.arrozConPollo, s.polloBrasa]),
    });
    const [entrada, segundo] = scheduleDay(db, EVERYTHING, w.norte, MONDAY).meals[0].slots;
    expect(entrada.dishes.map((d) => [d.name, d.costCents, d.problem])).toEqual([
      ["Causa", 40, null],
      ["Ensalada", 0, "unpriced"],
      ["Chicha", null, "no_recipe"],
    ]);
    expect(entrada).toMatchObject({ costCents: 40, complete: false, bound: null });
    expect(segundo).toMatchObject({ costCents: 450, kcal: 900, bound: "above" });
  });

  test("a cafe without a city cannot price its dishes, and says so", () => {
    db.update(cafes).set({ cityId: null }).where(eq(cafes.id, w.norte)).run();
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], []) });
    const dish = scheduleDay(db, EVERYTHING, w.norte, MONDAY).meals[0].slots[0].dishes[0];
    expect(dish).toMatchObject({ costCents: null, problem: "no_city" });
  });

  test("the cafe's default level decides the recipe: a level the dish has none for flags it", () => {
    const staff = db.$client.query<{ id: number }, []>("SELECT id FROM levels WHERE name = 'Staff'").get()!.id;
    db.update(cafes).set({ defaultLevelId: staff }).where(eq(cafes.id, w.norte)).run();
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], []) });
    const day = scheduleDay(db, EVERYTHING, w.norte, MONDAY);
    expect(day.meals[0].slots[0].dishes[0].problem).toBe("no_recipe");
    expect(scheduleRange(db, EVERYTHING, w.norte, MONDAY, MONDAY).cafe.levelName).toBe("Staff");
  });
});

describe("saving a day", () => {
  test("versions grow with each change; the same dishes again change nothing; audited and announced", () => {
    const events = recorder();
    const first = saveDay(
      db,
      actor,
      EVERYTHING,
      w.norte,
      MONDAY,
      { version: 0, slots: lunch([s.causa], []) },
      {
        events,
      },
    );
    expect(first).toMatchObject({ version: 1, state: "draft", updatedByName: "cli" });
    const second = saveDay(
      db,
      actor,
      EVERYTHING,
      w.norte,
      MONDAY,
      { version: 1, slots: lunch([s.causa], [s.arrozConPollo]) },
      { events },
    );
    expect(second.version).toBe(2);
    const same = saveDay(
      db,
      actor,
      EVERYTHING,
      w.norte,
      MONDAY,
      { version: 2, slots: lunch([s.causa], [s.arrozConPollo]) },
      { events },
    );
    expect(same.version).toBe(2);
    expect(events.events).toEqual([
      { name: "MenuDayChanged", cafeId: w.norte, date: MONDAY, version: 1, updatedByName: "cli" },
      { name: "MenuDayChanged", cafeId: w.norte, date: MONDAY, version: 2, updatedByName: "cli" },
    ]);
    const audit = db.select().from(auditLog).where(eq(auditLog.action, "menu_day.updated")).all();
    expect(audit).toHaveLength(2);
    expect(JSON.parse(audit[1].before!)).toEqual({ date: MONDAY, version: 1, slots: ["Almuerzo · Entrada: Causa"] });
    expect(JSON.parse(audit[1].after!)).toEqual({
      date: MONDAY,
      version: 2,
      slots: ["Almuerzo · Entrada: Causa", "Almuerzo · Segundo: Arroz con pollo"],
    });
    const places = db.$client
      .query<{ kind: string; place_id: number }, [number]>("SELECT kind, place_id FROM audit_places WHERE audit_id = ?")
      .all(audit[1].id);
    expect(places).toEqual([{ kind: "cafe", place_id: w.norte }]);
  });

  test("a stale version is refused with the day as it is now and who changed it; nothing is written", () => {
    const ana: Actor = { userId: null, label: "Ana" };
    saveDay(db, ana, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], []) });
    let refused: unknown = null;
    try {
      saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.ensalada], []) });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(StaleDay);
    const current = (refused as StaleDay).current;
    expect(current).toMatchObject({ date: MONDAY, version: 1, updatedByName: "Ana" });
    expect(current.meals[0].slots[0].dishes.map((d) => d.name)).toEqual(["Causa"]);
    expect(scheduleDay(db, EVERYTHING, w.norte, MONDAY).meals[0].slots[0].dishes.map((d) => d.name)).toEqual(["Causa"]);
  });

  test("a dish must be active and of its slot's category; a slot must be of the structures", () => {
    const problems = (slots: unknown) => {
      try {
        saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots });
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationFailed);
        return Object.fromEntries(
          Object.entries((error as ValidationFailed).errors).map(([k, m]) => [k, typeof m === "string" ? m : m.key]),
        );
      }
    };
    expect(problems(lunch([s.arrozConPollo], []))).toEqual({
      "slots.0.dish_ids.0": "menuSchedule.errors.wrong_category",
    });
    expect(problems(lunch([s.sopaVieja], []))).toEqual({ "slots.0.dish_ids.0": "menuSchedule.errors.inactive" });
    expect(problems(lunch([99999], []))).toEqual({ "slots.0.dish_ids.0": "menuSchedule.errors.no_such_dish" });
    expect(problems(lunch([s.causa, s.causa], []))).toEqual({
      "slots.0.dish_ids.1": "menuSchedule.errors.dish_twice",
    });
    expect(problems([{ service_id: w.des, category_id: s.entrada, dish_ids: [s.causa] }])).toEqual({
      "slots.0": "menuSchedule.errors.no_such_slot",
    });
    expect(problems([{ service_id: w.alm, category_id: s.refresco, dish_ids: [] }])).toEqual({
      "slots.0": "menuSchedule.errors.no_such_slot",
    });
    expect(db.select().from(menuDays).all()).toEqual([]);
  });

  test("a slot left out is emptied", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], [s.arrozConPollo]) });
    const day = saveDay(db, actor, EVERYTHING, w.norte, MONDAY, {
      version: 1,
      slots: [{ service_id: w.alm, category_id: s.segundo, dish_ids: [s.arrozConPollo] }],
    });
    expect(day.meals[0].slots.map((slot) => slot.dishes.length)).toEqual([0, 1]);
  });
});

describe("searching dishes", () => {
  test("active dishes of the category, accents and case ignored, with the cafe's figures", () => {
    expect(searchDishes(db, EVERYTHING, { categoryId: s.entrada }).map((d) => d.name)).toEqual([
      "Causa",
      "Chicha",
      "Ensalada",
    ]);
    expect(searchDishes(db, EVERYTHING, { categoryId: s.segundo, q: "ARRÓZ" }).map((d) => d.name)).toEqual([
      "Arroz con pollo",
    ]);
    expect(searchDishes(db, EVERYTHING, { categoryId: s.segundo, q: "pollo", cafeId: w.norte })).toEqual([
      { id: s.arrozConPollo, name: "Arroz con pollo", costCents: 260, kcal: 940, problem: null },
      { id: s.polloBrasa, name: "Pollo a la brasa", costCents: 450, kcal: 900, problem: null },
    ]);
  });
});

describe("copying days", () => {
  test("a week copied twice fills the next two weeks; an empty source day empties its target", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], [s.arrozConPollo]) });
    saveDay(db, actor, EVERYTHING, w.norte, addDays(MONDAY, 2), { version: 0, slots: lunch([], [s.polloBrasa]) });
    // A draft in the second target week, on a day the source week leaves empty: it is emptied.
    saveDay(db, actor, EVERYTHING, w.norte, addDays(MONDAY, 15), { version: 0, slots: lunch([s.causa], []) });
    const events = recorder();
    const result = copyDays(
      db,
      actor,
      EVERYTHING,
      w.norte,
      { from: MONDAY, to: addDays(MONDAY, 6), target: addDays(MONDAY, 7), times: 2 },
      { events },
    );
    // Target days changed: Monday and Wednesday of both weeks, and the emptied Tuesday of the second.
    expect(result).toEqual({
      changed: 5,
      unchanged: 9,
      publishedOverwritten: 0,
      firstDate: "2026-12-14",
      lastDate: "2026-12-27",
    });
    const names = (date: string) =>
      scheduleDay(db, EVERYTHING, w.norte, date).meals[0].slots.map((slot) => slot.dishes.map((d) => d.name));
    expect(names("2026-12-14")).toEqual([["Causa"], ["Arroz con pollo"]]);
    expect(names("2026-12-21")).toEqual([["Causa"], ["Arroz con pollo"]]);
    expect(names("2026-12-23")).toEqual([[], ["Pollo a la brasa"]]);
    expect(names("2026-12-22")).toEqual([[], []]);
    expect(events.events.map((e) => (e as { date: string }).date)).toEqual([
      "2026-12-14",
      "2026-12-16",
      "2026-12-21",
      "2026-12-22",
      "2026-12-23",
    ]);
    const audit = db.select().from(auditLog).where(eq(auditLog.action, "menu_day.copied")).get()!;
    expect(JSON.parse(audit.after!)).toEqual({
      from: MONDAY,
      to: "2026-12-13",
      target: "2026-12-14",
      times: 2,
      days: 5,
      publishedDays: 0,
    });
  });

  test("published targets are refused, naming them, unless the caller says to overwrite them", () => {
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.causa], []) });
    const target = addDays(MONDAY, 7);
    saveDay(db, actor, EVERYTHING, w.norte, target, { version: 0, slots: lunch([], [s.arrozConPollo]) });
    db.update(menuDays)
      .set({ publishedVersion: 1, publishedAt: new Date() })
      .where(and(eq(menuDays.cafeId, w.norte), eq(menuDays.date, target)))
      .run();
    let refused: unknown = null;
    try {
      copyDays(db, actor, EVERYTHING, w.norte, { from: MONDAY, to: MONDAY, target });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(PublishedTargets);
    expect((refused as PublishedTargets).dates).toEqual([target]);
    expect(scheduleDay(db, EVERYTHING, w.norte, target).state).toBe("published");
    const result = copyDays(db, actor, EVERYTHING, w.norte, {
      from: MONDAY,
      to: MONDAY,
      target,
      overwrite_published: true,
    });
    expect(result).toMatchObject({ changed: 1, publishedOverwritten: 1 });
    const day = scheduleDay(db, EVERYTHING, w.norte, target);
    expect(day.state).toBe("changed");
    expect(day.meals[0].slots[0].dishes.map((d) => d.name)).toEqual(["Causa"]);
  });

  test("the target comes after the source; the source is a real range; inactive dishes stay behind", () => {
    const refusal = (input: Record<string, unknown>) => {
      try {
        copyDays(db, actor, EVERYTHING, w.norte, input);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationFailed);
        return Object.keys((error as ValidationFailed).errors);
      }
    };
    expect(refusal({ from: MONDAY, to: addDays(MONDAY, 6), target: addDays(MONDAY, 6) })).toEqual(["target"]);
    expect(refusal({ from: MONDAY, to: "2026-13-01", target: "2027-01-01" })).toEqual(["to"]);
    expect(refusal({ from: MONDAY, to: addDays(MONDAY, 61), target: addDays(MONDAY, 62), times: 4 })).toEqual([
      "times",
    ]);
    db.$client.run("UPDATE dishes SET active = 1 WHERE name = 'Sopa vieja'");
    saveDay(db, actor, EVERYTHING, w.norte, MONDAY, { version: 0, slots: lunch([s.sopaVieja, s.causa], []) });
    db.$client.run("UPDATE dishes SET active = 0 WHERE name = 'Sopa vieja'");
    copyDays(db, actor, EVERYTHING, w.norte, { from: MONDAY, to: MONDAY, target: addDays(MONDAY, 1) });
    const copied = scheduleDay(db, EVERYTHING, w.norte, addDays(MONDAY, 1)).meals[0].slots[0].dishes;
    expect(copied.map((d) => d.name)).toEqual(["Causa"]);
  });
});
