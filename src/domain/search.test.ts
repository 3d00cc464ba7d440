/**
 * The list helpers on their own: folding text, the escaped pattern, the search condition run by SQLite (through
 * the function openDatabase registers), the page window and the sort order.
 */
import { describe, expect, test } from "bun:test";
import { sql, type SQL } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import fc from "fast-check";
import { openDatabase } from "../db";
import { preparedQuery } from "../db";
import {
  foldText,
  idList,
  inIdList,
  LIMIT,
  likePattern,
  OFFSET,
  pageWindow,
  readList,
  searchCondition,
  searchMatch,
  searchPattern,
  sortOrder,
} from "./search";

/** A connection with one table of names, as openDatabase gives it (the fold function registered). */
function namesDb(names: (string | null)[]) {
  const db = openDatabase(":memory:");
  db.$client.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, code TEXT)");
  const insert = db.$client.prepare("INSERT INTO t (name, code) VALUES (?1, ?2)");
  names.forEach((name, i) => insert.run(name, `C-${i + 1}`));
  return db;
}

function found(db: ReturnType<typeof namesDb>, search: string, columns: SQL[] = [sql`name`]): string[] {
  const where = searchCondition(search, columns) ?? sql`1`;
  return db.all<{ name: string }>(sql`SELECT name FROM t WHERE ${where} ORDER BY id`).map((r) => r.name);
}

describe("search", () => {
  test("folding lowers the case and drops the accents", () => {
    expect(foldText("Huamán")).toBe("huaman");
    expect(foldText("HUAMÁN")).toBe("huaman");
    expect(foldText("ÑUÑOA Über Çaça")).toBe("nunoa uber caca");
    expect(foldText("José-123@Mesa.test")).toBe("jose-123@mesa.test");
    // Decomposed input (an accent typed as its own character) folds the same as the composed one.
    expect(foldText("Hua\u006d\u0061\u0301n")).toBe("huaman");
  });

  test("a pattern takes %, _ and \\ literally, and a blank search is no search", () => {
    expect(likePattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
    expect(searchPattern("  Huamán  ")).toBe("%huaman%");
    expect(searchPattern("   ")).toBeNull();
    expect(searchPattern(undefined)).toBeNull();
    expect(searchCondition("", [sql`name`])).toBeUndefined();
  });

  test("SQLite finds names whatever their accents and case, and only literally for % and _", () => {
    const db = namesDb([
      "Huamán",
      "HUAMAN",
      "huaman",
      "Quispe",
      "50% off",
      "500 off",
      "a_b",
      "axb",
      "back\\slash",
      null,
    ]);
    expect(found(db, "Huaman")).toEqual(["Huamán", "HUAMAN", "huaman"]);
    expect(found(db, "huamán")).toEqual(["Huamán", "HUAMAN", "huaman"]);
    expect(found(db, "HUAMÁN")).toEqual(["Huamán", "HUAMAN", "huaman"]);
    expect(found(db, "%")).toEqual(["50% off"]);
    expect(found(db, "50%")).toEqual(["50% off"]);
    expect(found(db, "_")).toEqual(["a_b"]);
    expect(found(db, "a_b")).toEqual(["a_b"]);
    expect(found(db, "\\")).toEqual(["back\\slash"]);
    expect(found(db, "  quispe ")).toEqual(["Quispe"]);
    expect(found(db, "")).toHaveLength(10);
  });

  test("any of the columns may match; a NULL column matches nothing", () => {
    const db = namesDb(["Ana", null]);
    const codes = (columns: SQL[]) =>
      db.all<{ code: string }>(sql`SELECT code FROM t WHERE ${searchCondition("c-2", columns)!}`).map((r) => r.code);
    expect(codes([sql`name`, sql`code`])).toEqual(["C-2"]);
    expect(codes([sql`name`])).toEqual([]);
  });

  test("the function openDatabase registers folds like foldText, and keeps NULL", () => {
    const db = openDatabase(":memory:");
    expect(
      db.$client
        .query("SELECT unaccent_lower('Ñandú PÉREZ') AS a, unaccent_lower(NULL) AS b, unaccent_lower(42) AS c")
        .get(),
    ).toEqual({ a: "nandu perez", b: null, c: "42" });
  });

  test("property: a name is found by any piece of it, typed with other accents and case", () => {
    const db = openDatabase(":memory:");
    db.$client.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    const letters = fc.constantFrom(..."aeinouAEINOUáéíñóúÁÉÍÑÓÚüÜ%_\\- 1".split(""));
    const text = fc.array(letters, { maxLength: 12 }).map((cs) => cs.join(""));
    const accentFree = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (before, piece, after, upper) => {
        db.$client.exec("DELETE FROM t");
        db.$client.query("INSERT INTO t (name) VALUES (?1)").run(before + piece + after);
        const typed = upper ? accentFree(piece).toUpperCase() : piece.toLowerCase();
        const hits = db.all<{ name: string }>(
          sql`SELECT name FROM t WHERE ${searchCondition(typed, [sql`name`]) ?? sql`1`}`,
        );
        expect(hits).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });

  test("property: what the user types is never a wildcard", () => {
    const db = openDatabase(":memory:");
    db.$client.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    const text = fc
      .array(fc.constantFrom(..."ab%_\\".split("")), { minLength: 1, maxLength: 6 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, text, (name, typed) => {
        db.$client.exec("DELETE FROM t");
        db.$client.query("INSERT INTO t (name) VALUES (?1)").run(name);
        const hits = db.all(sql`SELECT name FROM t WHERE ${searchCondition(typed, [sql`name`])!}`);
        expect(hits.length).toBe(name.includes(typed) ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("folding and prepared searches", () => {
  /** The folding the fast one must agree with: lower case, decomposed, marks dropped, recomposed. */
  const reference = (text: string) => text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");

  test("property: folding agrees with the reference on any text, Latin letters or not", () => {
    const latin = fc.integer({ min: 0, max: 0x24f }).map((code) => String.fromCharCode(code));
    const anything = fc.oneof(
      latin,
      latin,
      fc.string({ unit: "binary", maxLength: 2 }),
      fc.constantFrom("\u0301", "İ", "Σ", "ß", "가"),
    );
    fc.assert(
      fc.property(fc.array(anything, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        expect(foldText(text)).toBe(reference(text));
      }),
      { numRuns: 500 },
    );
    for (let code = 0; code < 0x250; code++)
      expect(foldText(String.fromCharCode(code))).toBe(reference(String.fromCharCode(code)));
  });

  const people = sqliteTable("people", { id: integer("id").primaryKey(), name: text("name") });

  function peopleDb(names: (string | null)[]) {
    const db = openDatabase(":memory:");
    db.$client.exec("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)");
    const insert = db.$client.prepare("INSERT INTO people (name) VALUES (?1)");
    for (const name of names) insert.run(name);
    return db;
  }

  test("a column's ASCII text is compared without folding, other text folded, with the same result", () => {
    const db = peopleDb(["Huamán", "HUAMAN", "huaman", "Quispe", "50% off", "Ñahui", "a_b", null]);
    const named = (search: string) =>
      db
        .select({ name: people.name })
        .from(people)
        .where(searchCondition(search, [people.name]))
        .orderBy(people.id)
        .all()
        .map((r) => r.name);
    expect(named("huaman")).toEqual(["Huamán", "HUAMAN", "huaman"]);
    expect(named("HUAMÁN")).toEqual(["Huamán", "HUAMAN", "huaman"]);
    expect(named("nah")).toEqual(["Ñahui"]);
    expect(named("%")).toEqual(["50% off"]);
    expect(named("_")).toEqual(["a_b"]);
  });

  test("property: a prepared search finds what the unprepared one finds", () => {
    const db = peopleDb([]);
    const byMatch = preparedQuery((db) =>
      db
        .select({ id: people.id })
        .from(people)
        .where(searchMatch([people.name]))
        .orderBy(people.id)
        .prepare(),
    );
    const letters = fc.constantFrom(..."aeinouAEINOUáéíñóúÁÉÍÑÓÚüÜ%_\\- 1".split(""));
    const text = fc.array(letters, { maxLength: 10 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), text, (names, typed) => {
        db.$client.exec("DELETE FROM people");
        for (const name of names) db.$client.prepare("INSERT INTO people (name) VALUES (?1)").run(name);
        const pattern = searchPattern(typed);
        if (pattern === null) return;
        const unprepared = db
          .select({ id: people.id })
          .from(people)
          .where(searchCondition(typed, [people.name]))
          .orderBy(people.id)
          .all();
        expect(byMatch(db).all({ search: pattern })).toEqual(unprepared);
      }),
      { numRuns: 300 },
    );
  });

  test("a prepared statement is built once per connection and shape, and a list of ids is one value", () => {
    const first = peopleDb(["Ana", "Beto", "Carla"]);
    const second = peopleDb(["Dora"]);
    let built = 0;
    const byIds = preparedQuery((db, all: boolean) => {
      built++;
      return db
        .select({ name: people.name })
        .from(people)
        .where(all ? undefined : inIdList(people.id, "ids"))
        .orderBy(people.id)
        .prepare();
    });
    expect(
      byIds(first, false)
        .all({ ids: idList([1, 3]) })
        .map((r) => r.name),
    ).toEqual(["Ana", "Carla"]);
    expect(
      byIds(first, false)
        .all({ ids: idList(new Set([2])) })
        .map((r) => r.name),
    ).toEqual(["Beto"]);
    expect(byIds(first, false).all({ ids: idList([]) })).toEqual([]);
    expect(built).toBe(1);
    expect(
      byIds(first, true)
        .all()
        .map((r) => r.name),
    ).toEqual(["Ana", "Beto", "Carla"]);
    expect(
      byIds(second, false)
        .all({ ids: idList([1]) })
        .map((r) => r.name),
    ).toEqual(["Dora"]);
    expect(built).toBe(3);
  });

  test("readList counts and reads the page asked for, the last one past the end, or every row without a page", () => {
    const db = peopleDb(Array.from({ length: 7 }, (_, i) => `P${i + 1}`));
    const page = preparedQuery((db) =>
      db.select({ name: people.name }).from(people).orderBy(people.id).limit(LIMIT).offset(OFFSET).prepare(),
    );
    let counted = 0;
    const count = () => {
      counted++;
      return 7;
    };
    const read = (window: { limit: number; offset: number }) =>
      page(db)
        .all(window)
        .map((r) => r.name);
    expect(readList({ page: 2, perPage: 3 }, count, read)).toEqual({ rows: ["P4", "P5", "P6"], total: 7, page: 2 });
    expect(readList({ page: 9, perPage: 3 }, count, read)).toEqual({ rows: ["P7"], total: 7, page: 3 });
    expect(counted).toBe(2);
    expect(readList(undefined, count, read)).toEqual({
      rows: ["P1", "P2", "P3", "P4", "P5", "P6", "P7"],
      total: 7,
      page: 1,
    });
    expect(counted).toBe(2);
  });
});

describe("pages", () => {
  test("the page asked for, when it exists", () => {
    expect(pageWindow(40, { page: 2, perPage: 15 })).toEqual({ page: 2, limit: 15, offset: 15 });
    expect(pageWindow(40, { page: 3, perPage: 15 })).toEqual({ page: 3, limit: 15, offset: 30 });
  });

  test("a page past the end is the last page; an empty list has page 1", () => {
    expect(pageWindow(40, { page: 99, perPage: 15 })).toEqual({ page: 3, limit: 15, offset: 30 });
    expect(pageWindow(45, { page: 4, perPage: 15 })).toEqual({ page: 3, limit: 15, offset: 30 });
    expect(pageWindow(0, { page: 99, perPage: 15 })).toEqual({ page: 1, limit: 15, offset: 0 });
    expect(pageWindow(10, { page: 0, perPage: 15 })).toEqual({ page: 1, limit: 15, offset: 0 });
  });
});

describe("sorting", () => {
  const db = namesDb(["Carla", "ana", "Beto", "Ana"]);
  const allowed = { name: sql`name`, code: sql`code` };
  const byId = [sql`id`];
  const order = (request: Parameters<typeof sortOrder>[1]) =>
    db
      .all<{ name: string }>(sql`SELECT name FROM t ORDER BY ${sql.join(sortOrder(allowed, request, byId), sql`, `)}`)
      .map((r) => r.name);

  test("an allowed column in either direction, ties kept in the default order", () => {
    expect(order({ sort: "code", direction: "desc" })).toEqual(["Ana", "Beto", "ana", "Carla"]);
    expect(order({ sort: "name", direction: "asc" })).toEqual(["Ana", "Beto", "Carla", "ana"]);
    expect(order({ sort: "name" })).toEqual(["Ana", "Beto", "Carla", "ana"]);
  });

  test("an unknown or missing name falls back to the default order", () => {
    expect(order({ sort: "password_hash", direction: "desc" })).toEqual(["Carla", "ana", "Beto", "Ana"]);
    expect(order({ sort: "__proto__" })).toEqual(["Carla", "ana", "Beto", "Ana"]);
    expect(order({ sort: "toString" })).toEqual(["Carla", "ana", "Beto", "Ana"]);
    expect(order({})).toEqual(["Carla", "ana", "Beto", "Ana"]);
  });
});
