/**
 * The roles list as the Roles page and the Users page's roles tab read it: searched by the names and descriptions
 * people read in their language, ignoring case and accents, the super-administrator first and then by those names,
 * and paged with the last page shown for a page past the end.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { createRole, rolesMatching } from "./roles";
import { bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "./starting-roles";

let db: Db;

beforeEach(() => {
  db = migratedDatabase();
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  createRole(db, CLI_ACTOR, { name: "Árbitro", description: "Revisa los cierres del mes", permissions: [] });
});

const names = (db: Db, search: string, locale: "es" | "en") =>
  rolesMatching(db, search, locale).rows.map((r) => r.name);

describe("rolesMatching", () => {
  test("lists every role, the super-administrator first, then by the names people read in their language", () => {
    expect(names(db, "", "es")).toEqual([
      "super-administrator",
      "administrator",
      "Árbitro",
      "cashier",
      "buyer",
      "cafe manager",
      "operations manager",
      "nutritionist",
    ]);
    expect(names(db, "", "en")).toEqual([
      "super-administrator",
      "administrator",
      "Árbitro",
      "buyer",
      "cafe manager",
      "cashier",
      "nutritionist",
      "operations manager",
    ]);
    const all = rolesMatching(db, "", "es");
    expect(all.total).toBe(8);
    expect(all.page).toBe(1);
  });

  test("finds a role by its stored name, by its label in the viewer's language, or by its description", () => {
    expect(names(db, "cashier", "es")).toEqual(["cashier"]);
    expect(names(db, "cajero", "es")).toEqual(["cashier"]);
    // The Spanish label is not what an English reader sees.
    expect(names(db, "cajero", "en")).toEqual([]);
    expect(names(db, "jefe", "es")).toEqual(["cafe manager", "operations manager"]);
    expect(names(db, "CIERRES", "en")).toEqual(["Árbitro"]);
  });

  test("ignores case and accents in both the search and the text, and trims the search", () => {
    expect(names(db, "  arbitro ", "es")).toEqual(["Árbitro"]);
    expect(names(db, "ÁRBITRO", "en")).toEqual(["Árbitro"]);
    expect(names(db, "superadministrador", "es")).toEqual(["super-administrator"]);
    expect(names(db, "nobody at all", "es")).toEqual([]);
  });

  test("gives a page of the matches with the total, and the last page for a page past the end", () => {
    const second = rolesMatching(db, "", "es", { page: 2, perPage: 3 });
    expect(second.rows.map((r) => r.name)).toEqual(["cashier", "buyer", "cafe manager"]);
    expect(second.total).toBe(8);
    expect(second.page).toBe(2);
    const past = rolesMatching(db, "", "es", { page: 9, perPage: 3 });
    expect(past.page).toBe(3);
    expect(past.rows.map((r) => r.name)).toEqual(["operations manager", "nutritionist"]);
    const searched = rolesMatching(db, "jefe", "es", { page: 1, perPage: 1 });
    expect(searched.rows.map((r) => r.name)).toEqual(["cafe manager"]);
    expect(searched.total).toBe(2);
  });

  test("carries each role's permissions and holders", () => {
    const cashier = rolesMatching(db, "cashier", "en").rows[0];
    expect(cashier.isSuper).toBe(false);
    expect(cashier.holders).toBe(0);
    expect(cashier.permissions).toEqual(STARTING_ROLES.find((r) => r.name === "cashier")!.permissions.toSorted());
    expect(rolesMatching(db, "", "en").rows[0].isSuper).toBe(true);
  });
});
