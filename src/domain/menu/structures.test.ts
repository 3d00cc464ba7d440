/**
 * Menu structures in the domain: where a cafe's structure of a service can be copied (the viewer's other cafes that
 * offer the service).
 */
import { describe, expect, test } from "bun:test";
import { cafeServices, services } from "../../../db/schema";
import { migratedDatabase } from "../../../tests/support/database";
import { ensureCafe } from "../access/places";
import { EVERYTHING } from "../access/scope";
import { copyTargets, menuCafes } from "./structures";

function world() {
  const db = migratedDatabase();
  const now = new Date();
  const [lunch, dinner] = db
    .insert(services)
    .values([
      { code: "ALM", name: "Almuerzo", type: "lunch", createdAt: now, updatedAt: now },
      { code: "CEN", name: "Cena", type: "dinner", createdAt: now, updatedAt: now },
    ])
    .returning()
    .all();
  const norte = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor Norte");
  const sur = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor Sur");
  const este = ensureCafe(db, "Mina Este", "Unidad B", "Comedor Este");
  db.insert(cafeServices)
    .values([
      { cafeId: norte, serviceId: lunch.id, updatedAt: now },
      { cafeId: sur, serviceId: lunch.id, updatedAt: now },
      { cafeId: este, serviceId: lunch.id, updatedAt: now },
      { cafeId: este, serviceId: dinner.id, updatedAt: now },
    ])
    .run();
  return { db, lunch, dinner, norte, sur, este };
}

describe("copyTargets", () => {
  test("gives the other cafes of the list that offer the service, in the list's order", () => {
    const w = world();
    const cafes = menuCafes(w.db, EVERYTHING);
    expect(cafes.map((c) => c.name)).toEqual(["Comedor Este", "Comedor Norte", "Comedor Sur"]);
    expect(copyTargets(w.db, cafes, w.norte, w.lunch.id)).toEqual([
      { id: w.este, name: "Comedor Este", path: "Mina Este › Unidad B › Comedor Este" },
      { id: w.sur, name: "Comedor Sur", path: "Mina Norte › Unidad A › Comedor Sur" },
    ]);
    // Only Este offers dinner, and a cafe is no target of itself.
    expect(copyTargets(w.db, cafes, w.norte, w.dinner.id).map((c) => c.id)).toEqual([w.este]);
    expect(copyTargets(w.db, cafes, w.este, w.dinner.id)).toEqual([]);
  });

  test("looks only among the cafes it is given (the viewer's)", () => {
    const w = world();
    const mine = menuCafes(w.db, { ...EVERYTHING, all: false, cafeIds: new Set([w.norte, w.sur]) });
    expect(copyTargets(w.db, mine, w.norte, w.lunch.id).map((c) => c.id)).toEqual([w.sur]);
    expect(copyTargets(w.db, mine.slice(0, 1), w.norte, w.lunch.id)).toEqual([]);
  });
});
