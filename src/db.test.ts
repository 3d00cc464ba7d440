/**
 * The connection's prepared statements: preparedQuery's rows are what drizzle's own mapping gives (nested objects,
 * decoded timestamps and booleans, a left-joined table missing as null), and a statement is built once per shape.
 * Taking the write lock: beginImmediate gets in between another process's short transactions. A copy of a migrated
 * database is that database, set up as openDatabase sets one up, and copies share nothing.
 */
import { describe, expect, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { areas, cafes, headquarters, mines, roles, units, users } from "../db/schema";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  beginImmediate,
  BUSY_TIMEOUT_MS,
  immediateTransaction,
  migrateDatabase,
  openDatabase,
  openDatabaseCopy,
  preparedQuery,
  type Db,
} from "./db";
import { boundNumber } from "./domain/search";

function database(): Db {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  const client = db.$client;
  client.exec(`INSERT INTO mines (id, name) VALUES (1, 'Mina Norte')`);
  client.exec(`INSERT INTO units (id, mine_id, name) VALUES (1, 1, 'Unidad A')`);
  client.exec(`INSERT INTO cafes (id, unit_id, name) VALUES (1, 1, 'Comedor Uno'), (2, 1, 'Comedor Dos')`);
  client.exec(`INSERT INTO businesses (id, name) VALUES (1, 'Servicios')`);
  client.exec(`INSERT INTO headquarters (id, business_id, name) VALUES (1, 1, 'Sede')`);
  client.exec(
    `INSERT INTO areas (id, name, cafe_id, headquarters_id) VALUES (1, 'Caja', 1, NULL), (2, 'Oficina', NULL, 1), (3, 'Cocina', 2, NULL)`,
  );
  client.exec(
    `INSERT INTO users (id, name, email, password_hash, email_verified_at, created_at, updated_at) VALUES
     (1, 'Ana', 'ana@mesa.test', 'x', 1700000000000, 1700000000000, 1700000001000),
     (2, 'Beto', 'beto@mesa.test', 'x', NULL, 1700000002000, 1700000003000)`,
  );
  return db;
}

describe("preparedQuery", () => {
  test("rows come out as drizzle maps them: nested, decoded, a missing joined row as null", () => {
    const db = database();
    const place = alias(cafes, "place");
    const selection = () =>
      db
        .select({
          area: areas,
          place: { id: place.id, name: place.name },
          unitName: units.name,
          hq: headquarters,
          members: sql<number>`(SELECT COUNT(*) FROM assignments a WHERE a.area_id = ${areas.id})`,
          upper: sql<string>`upper(${areas.name})`.mapWith((v: string) => `«${v}»`),
        })
        .from(areas)
        .leftJoin(place, eq(place.id, areas.cafeId))
        .leftJoin(units, eq(units.id, place.unitId))
        .leftJoin(headquarters, eq(headquarters.id, areas.headquartersId))
        .orderBy(asc(areas.id));
    const byDrizzle = selection().all();
    const prepared = preparedQuery(() => selection().prepare());
    expect(prepared(db).all()).toEqual(byDrizzle);
    expect(byDrizzle[1].place).toBeNull();
    expect(byDrizzle[0].hq).toBeNull();
    expect(byDrizzle[0].upper).toBe("«CAJA»");
    expect(prepared(db).get()).toEqual(byDrizzle[0]);

    const people = preparedQuery((db) =>
      db
        .select()
        .from(users)
        .where(eq(users.id, boundNumber("id")))
        .prepare(),
    );
    for (const id of [1, 2]) {
      const user = people(db).get({ id });
      expect(user).toEqual(db.select().from(users).where(eq(users.id, id)).get());
      expect(user!.createdAt).toBeInstanceOf(Date);
    }
    expect(people(db).get({ id: 3 })).toBeUndefined();
    expect(people(db).all({ id: 3 })).toEqual([]);

    const superRoles = preparedQuery((db) =>
      db.select({ name: roles.name, isSuper: roles.isSuper }).from(roles).prepare(),
    );
    db.$client.exec(`INSERT INTO roles (name, is_super) VALUES ('root', 1), ('cajero', 0)`);
    expect(superRoles(db).all()).toEqual([
      { name: "root", isSuper: true },
      { name: "cajero", isSuper: false },
    ]);
  });

  test("a statement is built once per connection and shape", () => {
    const first = database();
    const second = database();
    let built = 0;
    const names = preparedQuery((db, byName: boolean) => {
      built++;
      return db
        .select({ name: mines.name })
        .from(mines)
        .where(byName ? eq(mines.name, sql.placeholder("name")) : undefined)
        .prepare();
    });
    names(first, false).all();
    names(first, false).all();
    names(first, true).all({ name: "Mina Norte" });
    names(second, false).all();
    expect(built).toBe(3);
    expect(names(first, true).all({ name: "Mina Norte" })).toEqual([{ name: "Mina Norte" }]);
  });
});

describe("openDatabaseCopy", () => {
  const schemaOf = (db: Db) =>
    db.$client.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();
  const migrationsOf = (db: Db) =>
    db.$client.prepare("SELECT hash, created_at FROM __drizzle_migrations ORDER BY id").all();

  test("a copy of a migrated database has its schema and its migrations, and migrating it again changes nothing", () => {
    const migrated = openDatabase(":memory:");
    migrateDatabase(migrated);
    const copy = openDatabaseCopy(migrated.$client.serialize());
    expect(schemaOf(copy)).toEqual(schemaOf(migrated));
    expect(migrationsOf(copy)).toEqual(migrationsOf(migrated));
    expect(migrationsOf(copy).length).toBeGreaterThan(0);
    migrateDatabase(copy);
    expect(migrationsOf(copy)).toEqual(migrationsOf(migrated));
  });

  test("a copy is set up as openDatabase sets one up: foreign keys, strict parameters, the folding function", () => {
    const migrated = openDatabase(":memory:");
    migrateDatabase(migrated);
    const copy = openDatabaseCopy(migrated.$client.serialize()).$client;
    expect(copy.prepare("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(() => copy.prepare("INSERT INTO units (mine_id, name) VALUES (999, 'Sin mina')").run()).toThrow(
      /FOREIGN KEY/,
    );
    // Strict: a parameter is named without its prefix, and a missing one is an error rather than NULL.
    copy.prepare("INSERT INTO mines (name) VALUES ($name)").run({ name: "Mina Huarón" });
    expect(() => copy.prepare("SELECT $missing AS value").get({ other: 1 } as never)).toThrow(/missing/);
    expect(copy.prepare("SELECT unaccent_lower(name) AS folded FROM mines").get()).toEqual({ folded: "mina huaron" });
  });

  test("copies share nothing: what one writes, the image and the other copies do not see", () => {
    const image = database().$client.serialize();
    const [first, second] = [openDatabaseCopy(image), openDatabaseCopy(image)];
    first.$client.exec("DELETE FROM areas");
    first.$client.exec("INSERT INTO mines (name) VALUES ('Mina Nueva')");
    expect(second.$client.prepare("SELECT count(*) AS n FROM areas").get()).toEqual({ n: 3 });
    expect(second.$client.prepare("SELECT name FROM mines").values()).toEqual([["Mina Norte"]]);
    expect(openDatabaseCopy(image).$client.prepare("SELECT count(*) AS n FROM areas").get()).toEqual({ n: 3 });
  });
});

describe("beginImmediate", () => {
  /** A second process on `path` that takes the write lock `cycles` times, holding it `holdMs` and freeing it `gapMs`. */
  async function holder(path: string, cycles: number, holdMs: number, gapMs: number) {
    const code = `
      import { Database } from "bun:sqlite";
      const db = new Database(${JSON.stringify(path)});
      db.exec("PRAGMA busy_timeout = 5000");
      for (let i = 1; i <= ${cycles}; i++) {
        db.exec("BEGIN IMMEDIATE");
        db.prepare("UPDATE held SET cycles = ?").run(i);
        if (i === 1) console.log("holding");
        Bun.sleepSync(${holdMs});
        db.exec("COMMIT");
        Bun.sleepSync(${gapMs});
      }`;
    const child = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "inherit" });
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain("holding");
    return child;
  }

  function fileDatabase() {
    const dir = mkdtempSync(join(tmpdir(), "mesa-db-test-"));
    const path = join(dir, "lock.sqlite");
    const db = openDatabase(path);
    db.$client.exec("CREATE TABLE held (cycles INTEGER NOT NULL); INSERT INTO held VALUES (0)");
    return { db, path, done: () => (db.$client.close(), rmSync(dir, { recursive: true, force: true })) };
  }

  test("gets the write lock in a short gap between another process's transactions", async () => {
    const { db, path, done } = fileDatabase();
    const child = await holder(path, 20, 40, 8);
    beginImmediate(db.$client);
    // In within the first few gaps of 8 ms. SQLite's own wait, which sleeps up to 100 ms between tries, mostly
    // misses all nineteen and gets in after the last transaction.
    const cycles = (db.$client.prepare("SELECT cycles FROM held").get() as { cycles: number }).cycles;
    db.$client.exec("COMMIT");
    expect(cycles).toBeGreaterThanOrEqual(1);
    expect(cycles).toBeLessThanOrEqual(5);
    expect(await child.exited).toBe(0);
    expect(db.$client.prepare("PRAGMA busy_timeout").get()).toEqual({ timeout: BUSY_TIMEOUT_MS });
    done();
  });

  test("fails with SQLITE_BUSY when the lock stays taken past its time, leaving the connection's timeout as it was", async () => {
    const { db, path, done } = fileDatabase();
    const child = await holder(path, 1, 3000, 0);
    let error: unknown = null;
    try {
      beginImmediate(db.$client, 100);
    } catch (caught) {
      error = caught;
    }
    expect((error as { code?: string } | null)?.code).toBe("SQLITE_BUSY");
    expect(db.$client.inTransaction).toBe(false);
    expect(db.$client.prepare("PRAGMA busy_timeout").get()).toEqual({ timeout: BUSY_TIMEOUT_MS });
    child.kill();
    await child.exited;
    done();
  });
});

describe("immediateTransaction", () => {
  test("commits what the work wrote, and rolls it all back when the work throws", () => {
    const db = database();
    const client = db.$client;
    client.exec("CREATE TABLE notes (text TEXT NOT NULL)");
    expect(immediateTransaction(client, () => client.prepare("INSERT INTO notes VALUES ('kept')").run().changes)).toBe(
      1,
    );
    expect(() =>
      immediateTransaction(client, () => {
        client.prepare("INSERT INTO notes VALUES ('lost')").run();
        throw new Error("stop");
      }),
    ).toThrow("stop");
    expect(client.inTransaction).toBe(false);
    expect(client.prepare("SELECT text FROM notes").values()).toEqual([["kept"]]);
  });
});
