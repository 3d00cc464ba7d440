/**
 * The till's rules of issue 26 through the app: a cafe's "sales stay cash" setting (off by default, set with
 * prices.manage, validated and audited like the other point-of-sale settings), automatic printing on for cafes made
 * from now on while migration 0022 leaves existing cafes as they were, reprints from the point of sale audited,
 * a misread document refused with what is wrong with it, and the services listed by time of day, not by code.
 */
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { and, eq } from "drizzle-orm";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditLog, cafes, units } from "../../db/schema";
import { foldText } from "../../src/shared/fold";
import { dateIn } from "../../src/shared/calendar";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

let world: PosApp;
const clients: Record<string, Client> = {};
async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

beforeAll(async () => {
  world = await posApp();
});

const settingsPath = () => `/dinners/cafes/${world.w.norte}/settings`;
const norte = () => world.app.db.select().from(cafes).where(eq(cafes.id, world.w.norte)).get()!;

describe("keep cash after a cash sale (a cash-only cafe)", () => {
  test("off by default: the page says the till goes back to credit", async () => {
    expect(norte().keepCash).toBe(false);
    const page = await visitPage(await as("cajera"), `/dinners?cafe=${world.w.norte}`);
    expect(page.props.pos.cafe.keepCash).toBe(false);
  });

  test("prices.manage turns it on and off, audited with what it was; the page shows it", async () => {
    const jefa = await as("jefa");
    expect((await submitJson(jefa, "PUT", settingsPath(), { keep_cash: true })).status).toBe(204);
    expect(norte().keepCash).toBe(true);
    const audit = world.app.db.select().from(auditLog).where(eq(auditLog.action, "cafe.pos_updated")).all().at(-1)!;
    expect(audit.actorId).toBe(world.people.jefa.id);
    expect(JSON.parse(audit.before!)).toEqual({ keepCash: false });
    expect(JSON.parse(audit.after!)).toEqual({ keepCash: true });
    expect((await visitPage(jefa, `/dinners?cafe=${world.w.norte}`)).props.pos.cafe.keepCash).toBe(true);
    // The same value again changes nothing and writes no audit entry.
    const entries = world.app.db.select().from(auditLog).all().length;
    expect((await submitJson(jefa, "PUT", settingsPath(), { keep_cash: true })).status).toBe(204);
    expect(world.app.db.select().from(auditLog).all().length).toBe(entries);
    expect((await submitJson(jefa, "PUT", settingsPath(), { keep_cash: false })).status).toBe(204);
    expect(norte().keepCash).toBe(false);
  });

  test("a value that is not true or false is refused per field; a cashier may not set it", async () => {
    const jefa = await as("jefa");
    for (const value of ["yes", null, { on: true }]) {
      const response = await submitJson(jefa, "PUT", settingsPath(), { keep_cash: value });
      expect(response.status).toBe(422);
      expect(Object.keys((await response.json()).errors)).toContain("keep_cash");
    }
    expect((await submitJson(await as("cajera"), "PUT", settingsPath(), { keep_cash: true })).status).toBe(403);
    expect(norte().keepCash).toBe(false);
  });
});

describe("automatic printing", () => {
  test("a cafe made from Management prints every sale at once; keep cash is off", async () => {
    const root = await as("root");
    const unit = world.app.db.select().from(units).get()!;
    const response = await submitJson(root, "POST", "/management/places", {
      mine_id: unit.mineId,
      unit_id: unit.id,
      cafe_name: "Comedor Nuevo",
      business_id: world.w.business,
    });
    expect(response.status).toBeLessThan(400);
    const made = world.app.db
      .select()
      .from(cafes)
      .where(and(eq(cafes.unitId, unit.id), eq(cafes.name, "Comedor Nuevo")))
      .get()!;
    expect({ autoPrint: made.autoPrint, keepCash: made.keepCash }).toEqual({ autoPrint: true, keepCash: false });
  });

  test("migration 0022: existing cafes keep their setting; cafes written afterwards without one print at once", () => {
    const folder = mkdtempSync(join(tmpdir(), "mesa-migrations-"));
    try {
      cpSync("db/migrations", folder, { recursive: true });
      const journalPath = join(folder, "meta/_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8"));
      const before = journal.entries.filter((e: { idx: number }) => e.idx < 22);
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: before }));
      const client = new Database(":memory:");
      client.exec("PRAGMA foreign_keys = ON");
      const db = drizzle(client);
      migrate(db, { migrationsFolder: folder });
      client.exec(`INSERT INTO mines (name) VALUES ('Mina')`);
      client.exec(`INSERT INTO units (mine_id, name) VALUES (1, 'Unidad')`);
      client.exec(`INSERT INTO cafes (unit_id, name, auto_print) VALUES (1, 'Imprime', 1), (1, 'No imprime', 0)`);
      // Something that references the cafes, so the migration cannot have rebuilt the table behind it.
      client.exec(`INSERT INTO areas (name, cafe_id) VALUES ('Caja', 2)`);

      writeFileSync(journalPath, JSON.stringify(journal));
      migrate(db, { migrationsFolder: folder });
      const rows = client.query("SELECT name, auto_print, keep_cash, ticket_series FROM cafes ORDER BY id").all();
      expect(rows).toEqual([
        { name: "Imprime", auto_print: 1, keep_cash: 0, ticket_series: "T001" },
        { name: "No imprime", auto_print: 0, keep_cash: 0, ticket_series: "T002" },
      ]);
      client.exec(`INSERT INTO cafes (unit_id, name) VALUES (1, 'Nuevo')`);
      // New: printing on, keep cash off, and the series trigger still gives it its series.
      expect(client.query("SELECT auto_print, keep_cash, ticket_series FROM cafes WHERE name = 'Nuevo'").get()).toEqual(
        {
          auto_print: 1,
          keep_cash: 0,
          ticket_series: "T003",
        },
      );
      expect(client.query("SELECT count(*) AS n FROM areas WHERE cafe_id = 2").get()).toEqual({ n: 1 });
      client.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("printing the last ticket from the point of sale: the first print is not a reprint, the next ones are audited", async () => {
    const cajera = await as("cajera");
    const now = new Date();
    const document = "47000001";
    world.app.db.$client
      .query(
        `INSERT INTO diners (document_type, document_number, name, name_folded, subdealership_id, cafe_id, created_at, updated_at)
         VALUES ('dni', ?, 'Impreso Dos Veces', ?, ?, ?, ?, ?)`,
      )
      .run(document, foldText("Impreso Dos Veces"), world.w.contrata, world.w.norte, now.getTime(), now.getTime());
    const response = await submitJson(cajera, "POST", "/sales", {
      key: `till-print-${Date.now()}`,
      cafe_id: world.w.norte,
      document_number: document,
      service_date: dateIn("America/Lima"),
      sale_type: "credit",
      other_unit_confirmed: false,
      lines: [{ service_id: world.w.alm, quantity: 1 }],
    });
    expect(response.status).toBe(201);
    const sale = await response.json();
    const print = () => submitJson(cajera, "POST", `/sales/${sale.id}/print`);
    expect(await (await print()).json()).toEqual({ reprint: false });
    expect(await (await print()).json()).toEqual({ reprint: true });
    expect(await (await print()).json()).toEqual({ reprint: true });
    const reprints = world.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sale.reprinted"), eq(auditLog.subjectId, sale.id)))
      .all();
    expect(reprints.map((r) => r.actorId)).toEqual([world.people.cajera.id, world.people.cajera.id]);
    // Sur's cashier neither prints nor reprints Norte's ticket.
    expect((await submitJson(await as("surena"), "POST", `/sales/${sale.id}/print`)).status).toBe(404);
  });
});

describe("a misread document", () => {
  test("a sale for four digits is refused with what a DNI needs, never as a name", async () => {
    const response = await submitJson(await as("cajera"), "POST", "/sales", {
      key: `till-misread-${Date.now()}`,
      cafe_id: world.w.norte,
      document_number: "1234",
      service_date: dateIn("America/Lima"),
      sale_type: "credit",
      other_unit_confirmed: false,
      lines: [{ service_id: world.w.alm, quantity: 1 }],
    });
    expect(response.status).toBe(422);
    expect((await response.json()).errors.document_number).toBe(es("validation.document.dni", { length: 8 }));
  });
});

describe("services by time of day", () => {
  test("the point of sale lists a cafe's services by their window's start, not by code", async () => {
    const jefa = await as("jefa");
    const order = async () =>
      ((await visitPage(jefa, `/dinners?cafe=${world.w.norte}`)).props.pos.services as { code: string }[]).map(
        (s) => s.code,
      );
    const windows = (des: string, alm: string, cen: string) =>
      submitJson(jefa, "PUT", settingsPath(), {
        windows: [
          { service_id: world.w.des, start: des, end: "10:00" },
          { service_id: world.w.alm, start: alm, end: "15:00" },
          { service_id: world.w.cen, start: cen, end: "23:00" },
        ],
      });
    expect((await windows("04:30", "11:00", "18:00")).status).toBe(204);
    expect(await order()).toEqual(["DES", "ALM", "CEN"]);
    // Without windows: breakfast, lunch, dinner all the same.
    expect(
      (
        await submitJson(jefa, "PUT", settingsPath(), {
          windows: [world.w.des, world.w.alm, world.w.cen].map((id) => ({ service_id: id, start: "", end: "" })),
        })
      ).status,
    ).toBe(204);
    expect(await order()).toEqual(["DES", "ALM", "CEN"]);
  });
});
