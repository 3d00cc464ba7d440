/**
 * Diners through the app: registering, editing and deleting (JSON for an API client, a flash and back for the page),
 * validation per field, the unique document, scope (a diner's home cafe before and after must be the person's),
 * the delete guard for a diner with sales (it says to deactivate), audit entries, permissions, and the point of
 * sale's search (a document across every cafe, a name within the person's cafes, accents ignored, at most 8).
 *
 * One app for the file (tests/support/pos-app.ts): Comedor Norte and Comedor Sur, a cashier at each.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, blacklist, diners, levels } from "../../db/schema";
import { CLI_ACTOR } from "../../src/domain/audit";
import { EVERYTHING } from "../../src/domain/access/scope";
import { createDiner } from "../../src/domain/sales/diners";
import { dateIn } from "../../src/shared/calendar";
import { LIMITS } from "../../src/domain/rate-limit";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit, submitJson, visitPage } from "../support/requests";
import { addUser, dni, makeRole } from "../support/people";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

let world: PosApp;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  world = await posApp();
});

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

let documents = 45_000_000;
const nextDocument = () => String(++documents);

const levelId = (name: string) => world.app.db.select().from(levels).where(eq(levels.name, name)).get()!.id;

function dinerBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Teodoro Ccama",
    document_type: "dni",
    document_number: nextDocument(),
    phone: "+51 987 654 321",
    subdealership_id: world.w.contrata,
    cafe_id: world.w.norte,
    level_id: levelId("Laborer"),
    ...extra,
  };
}

const row = (id: number) => world.app.db.select().from(diners).where(eq(diners.id, id)).get();
const auditOf = (id: number) =>
  world.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "diner"), eq(auditLog.subjectId, id)))
    .all();

const search = async (client: Client, q: string) => {
  const response = await client.request(`/diners/search?q=${encodeURIComponent(q)}`, {
    headers: { accept: "application/json" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>[];
};

describe("registering a diner", () => {
  test("a cashier registers a diner of their cafe: 201 with the diner, audited", async () => {
    const client = await as("cajera");
    const body = dinerBody({ name: "  Úrsula Gonzáles  ", document_number: " 4500-9001 " });
    const response = await submitJson(client, "POST", "/diners", body);
    expect(response.status).toBe(201);
    const diner = await response.json();
    expect(diner).toMatchObject({
      name: "Úrsula Gonzáles",
      documentType: "dni",
      documentNumber: "45009001",
      phone: "+51 987 654 321",
      active: true,
      cafeId: world.w.norte,
      cafeName: "Comedor Norte",
      cafePath: "Mina Toquepala › Unidad Central › Comedor Norte",
      subdealershipId: world.w.contrata,
      subdealershipName: "Contrata Uno",
      dealershipName: "Minera del Sur",
      levelName: "Laborer",
      barredReason: null,
    });
    expect(row(diner.id)).toMatchObject({ name: "Úrsula Gonzáles", documentNumber: "45009001" });
    const audit = auditOf(diner.id);
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([["diner.created", world.people.cajera.id]]);
    expect(JSON.parse(audit[0].after!)).toMatchObject({ name: "Úrsula Gonzáles", documentNumber: "45009001" });
    // The new diner can be sold to at once.
    const sale = await submitJson(client, "POST", "/sales", {
      key: `diner-sale-${diner.id}-0001`,
      cafe_id: world.w.norte,
      document_number: "45009001",
      service_date: dateIn("America/Lima"),
      sale_type: "credit",
      lines: [{ service_id: world.w.alm, quantity: 1 }],
    });
    expect(sale.status).toBe(201);
  });

  test("through the page it goes back with a flash", async () => {
    const client = await as("cajera");
    const body = dinerBody({ name: "Valeria Huanca" });
    const response = await submit(client, "POST", "/diners", body, "/dinners");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dinners");
    expect((await visitPage(client, "/dinners")).flash.success).toBe(es("diners.created", { name: "Valeria Huanca" }));
    expect(
      world.app.db
        .select()
        .from(diners)
        .where(eq(diners.documentNumber, body.document_number as string))
        .get(),
    ).toBeDefined();
  });

  test("bad input is refused per field and writes nothing", async () => {
    const client = await as("cajera");
    const count = () => world.app.db.select().from(diners).all().length;
    const before = count();
    const cases: [string, Record<string, unknown>, Record<string, string | true>][] = [
      ["empty", {}, { name: true, document_number: true, subdealership_id: true, cafe_id: true }],
      ["short name", dinerBody({ name: "A" }), { name: true }],
      ["DNI too short", dinerBody({ document_number: "1234567" }), { document_number: true }],
      ["DNI with letters", dinerBody({ document_number: "1234567A" }), { document_number: true }],
      ["unknown type", dinerBody({ document_type: "licencia" }), { document_type: true }],
      ["phone with letters", dinerBody({ phone: "llámame" }), { phone: es("diners.phone_invalid") }],
      ["subdealership missing", dinerBody({ subdealership_id: undefined }), { subdealership_id: true }],
      [
        "subdealership unknown",
        dinerBody({ subdealership_id: 999_999 }),
        {
          subdealership_id: es("diners.subdealership_unknown"),
        },
      ],
      ["cafe as text", dinerBody({ cafe_id: "Norte" }), { cafe_id: true }],
      ["cafe unknown", dinerBody({ cafe_id: 999_999 }), { cafe_id: es("diners.cafe_outside_scope") }],
      ["cafe outside the scope", dinerBody({ cafe_id: world.w.sur }), { cafe_id: es("diners.cafe_outside_scope") }],
      ["level unknown", dinerBody({ level_id: 999_999 }), { level_id: es("diners.level_unknown") }],
      ["active as text", dinerBody({ active: "quizá" }), { active: true }],
      ["name huge", dinerBody({ name: "n".repeat(500) }), { name: true }],
    ];
    for (const [what, body, expected] of cases) {
      const response = await submitJson(client, "POST", "/diners", body);
      expect({ what, status: response.status }).toEqual({ what, status: 422 });
      const errors = (await response.json()).errors as Record<string, string>;
      for (const [field, said] of Object.entries(expected))
        expect({ what, field, said: said === true ? typeof errors[field] : errors[field] }).toEqual({
          what,
          field,
          said: said === true ? "string" : said,
        });
    }
    expect(count()).toBe(before);
  });

  test("a document is registered once, whichever cafe has it", async () => {
    const cajera = await as("cajera");
    // Carla (40000003) is Sur's: a cashier of Norte is told the document is taken, and by whom.
    const taken = await submitJson(cajera, "POST", "/diners", dinerBody({ document_number: "40000003" }));
    expect(taken.status).toBe(422);
    expect((await taken.json()).errors).toEqual({
      document_number: es("diners.document_taken", { name: "Carla Ñahui" }),
    });
    // The same number as another type is another document; a search by the number finds both.
    const number = nextDocument();
    expect((await submitJson(cajera, "POST", "/diners", dinerBody({ document_number: number }))).status).toBe(201);
    const passport = await submitJson(
      cajera,
      "POST",
      "/diners",
      dinerBody({ name: "Pasaporte Igual", document_type: "pas", document_number: number }),
    );
    expect(passport.status).toBe(201);
    expect((await search(cajera, number)).map((d) => d.documentType).sort()).toEqual(["dni", "pas"]);
    const again = await submitJson(
      cajera,
      "POST",
      "/diners",
      dinerBody({ document_type: "pas", document_number: number }),
    );
    expect(again.status).toBe(422);
    expect((await again.json()).errors).toEqual({
      document_number: es("diners.document_taken", { name: "Pasaporte Igual" }),
    });
  });

  test("without diners.manage it is forbidden; without diners.view the search is too", async () => {
    const mirona = await as("mirona");
    expect((await submitJson(mirona, "POST", "/diners", dinerBody())).status).toBe(403);
    expect((await submitJson(mirona, "PUT", `/diners/${world.w.ana}`, dinerBody())).status).toBe(403);
    expect((await submitJson(mirona, "DELETE", `/diners/${world.w.ana}`)).status).toBe(403);
    expect((await search(mirona, "40000001")).map((d) => d.id)).toEqual([world.w.ana]);

    const db = world.app.db;
    const role = makeRole(db, "sales viewer", ["sales.view"]);
    const area = createArea(db, CLI_ACTOR, EVERYTHING, {
      name: "Consulta",
      cafe_id: world.w.norte,
      role_ids: [role],
    }).id;
    const viewer = await addUser(db, "Solo Ventas", "ventas@mesa.test", dni("10000099"));
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: viewer.id, areaId: area, roleId: role });
    const client = await signedIn(world.app, viewer);
    const response = await client.request("/diners/search?q=40000001", { headers: { accept: "application/json" } });
    expect(response.status).toBe(403);
  });
});

describe("editing a diner", () => {
  async function registered(extra: Record<string, unknown> = {}) {
    const response = await submitJson(await as("cajera"), "POST", "/diners", dinerBody(extra));
    expect(response.status).toBe(201);
    return (await response.json()) as Record<string, any>;
  }

  test("a cashier edits a diner of their cafe: 200, audited with what changed", async () => {
    const client = await as("cajera");
    const diner = await registered({ name: "Wilber Pari" });
    const response = await submitJson(
      client,
      "PUT",
      `/diners/${diner.id}`,
      dinerBody({
        name: "Wilber Pari Ccori",
        document_number: diner.documentNumber,
        subdealership_id: world.w.otraContrata,
        level_id: levelId("Staff"),
        phone: "",
        active: false,
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: diner.id,
      name: "Wilber Pari Ccori",
      subdealershipName: "Contrata Dos",
      levelName: "Staff",
      phone: "",
      active: false,
    });
    const audit = auditOf(diner.id).at(-1)!;
    expect(audit.action).toBe("diner.updated");
    expect(JSON.parse(audit.before!)).toMatchObject({ name: "Wilber Pari", active: true });
    expect(JSON.parse(audit.after!)).toMatchObject({ name: "Wilber Pari Ccori", active: false });
    expect(Object.keys(JSON.parse(audit.after!)).sort()).toEqual(
      ["active", "levelId", "name", "phone", "subdealershipId"].sort(),
    );
    // Deactivated: the point of sale refuses them.
    const sale = await submitJson(client, "POST", "/sales", {
      key: `inactive-${diner.id}-0001`,
      cafe_id: world.w.norte,
      document_number: diner.documentNumber,
      service_date: dateIn("America/Lima"),
      sale_type: "credit",
      lines: [{ service_id: world.w.alm, quantity: 1 }],
    });
    expect(sale.status).toBe(422);
    expect((await sale.json()).errors).toEqual({
      document_number: es("sales.diner_inactive", { name: "Wilber Pari Ccori" }),
    });
  });

  test("an edit that changes nothing writes no audit entry; a page edit goes back with a flash", async () => {
    const client = await as("cajera");
    const diner = await registered({ name: "Yolanda Mayta" });
    const same = dinerBody({ name: "Yolanda Mayta", document_number: diner.documentNumber });
    expect((await submitJson(client, "PUT", `/diners/${diner.id}`, same)).status).toBe(200);
    expect(auditOf(diner.id).map((a) => a.action)).toEqual(["diner.created"]);
    const page = await submit(
      client,
      "PUT",
      `/diners/${diner.id}`,
      { ...same, name: "Yolanda Mayta Condori" },
      "/dinners",
    );
    expect(page.status).toBe(303);
    expect((await visitPage(client, "/dinners")).flash.success).toBe(
      es("diners.updated", { name: "Yolanda Mayta Condori" }),
    );
  });

  test("garbage in an edit is refused per field and changes nothing; an odd id is not found", async () => {
    const client = await as("cajera");
    const diner = await registered({ name: "Gumercindo Sin Cambios" });
    const before = row(diner.id);
    for (const [what, body] of [
      ["empty", {}],
      ["name a number list", dinerBody({ name: [1, 2], document_number: diner.documentNumber })],
      ["cafe a list", dinerBody({ cafe_id: [world.w.norte], document_number: diner.documentNumber })],
      ["level as text", dinerBody({ level_id: "Master", document_number: diner.documentNumber })],
      ["phone huge", dinerBody({ phone: "9".repeat(200), document_number: diner.documentNumber })],
    ] as [string, unknown][]) {
      const response = await submitJson(client, "PUT", `/diners/${diner.id}`, body);
      expect({ what, status: response.status }).toEqual({ what, status: 422 });
      expect(Object.keys((await response.json()).errors).length).toBeGreaterThan(0);
    }
    expect(row(diner.id)).toEqual(before);
    for (const path of ["/diners/abc", "/diners/0", "/diners/99999999999999999999"])
      expect((await submitJson(client, "PUT", path, dinerBody())).status).toBe(404);
  });

  test("a sale keeps the diner as they were: editing the diner later does not change the ticket", async () => {
    const client = await as("cajera");
    const diner = await registered({ name: "Félix Antes" });
    const sale = await submitJson(client, "POST", "/sales", {
      key: `snapshot-${diner.id}-0001`,
      cafe_id: world.w.norte,
      document_number: diner.documentNumber,
      service_date: dateIn("America/Lima"),
      sale_type: "cash",
      lines: [{ service_id: world.w.des, quantity: 1 }],
    });
    const saleId = (await sale.json()).id;
    const edited = await submitJson(
      client,
      "PUT",
      `/diners/${diner.id}`,
      dinerBody({
        name: "Félix Después",
        document_number: diner.documentNumber,
        subdealership_id: world.w.otraContrata,
      }),
    );
    expect(edited.status).toBe(200);
    const ticket = await client.request(`/sales/${saleId}/ticket`, { headers: { accept: "application/json" } });
    expect(await ticket.json()).toMatchObject({
      dinerId: diner.id,
      dinerName: "Félix Antes",
      subdealershipName: "Contrata Uno",
    });
  });

  test("a document already registered to someone else is refused", async () => {
    const client = await as("cajera");
    const diner = await registered();
    const response = await submitJson(client, "PUT", `/diners/${diner.id}`, dinerBody({ document_number: "40000001" }));
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual({
      document_number: es("diners.document_taken", { name: "Ana Quispe Mamani" }),
    });
    expect(row(diner.id)!.documentNumber).toBe(diner.documentNumber);
  });

  test("scope: a diner cannot be moved to a cafe outside it, nor a diner of another cafe edited", async () => {
    const cajera = await as("cajera");
    const diner = await registered();
    const moved = await submitJson(
      cajera,
      "PUT",
      `/diners/${diner.id}`,
      dinerBody({ document_number: diner.documentNumber, cafe_id: world.w.sur }),
    );
    expect(moved.status).toBe(422);
    expect((await moved.json()).errors).toEqual({ cafe_id: es("diners.cafe_outside_scope") });
    expect(row(diner.id)!.cafeId).toBe(world.w.norte);
    // Carla is Sur's: Norte's cashier does not find her to edit.
    const carla = await submitJson(
      cajera,
      "PUT",
      `/diners/${world.w.carla}`,
      dinerBody({ name: "Carla Cambiada", document_number: "40000003", cafe_id: world.w.norte }),
    );
    expect(carla.status).toBe(404);
    expect(row(world.w.carla)).toMatchObject({ name: "Carla Ñahui", cafeId: world.w.sur });
    expect((await submitJson(cajera, "PUT", "/diners/999999", dinerBody())).status).toBe(404);
    // The super-administrator may move a diner anywhere.
    const root = await as("root");
    const ok = await submitJson(
      root,
      "PUT",
      `/diners/${diner.id}`,
      dinerBody({ document_number: diner.documentNumber, cafe_id: world.w.sur }),
    );
    expect(ok.status).toBe(200);
    expect((await ok.json()).cafeName).toBe("Comedor Sur");
    // Now Sur's, Norte's cashier no longer reaches them.
    expect(
      (
        await submitJson(
          cajera,
          "PUT",
          `/diners/${diner.id}`,
          dinerBody({ document_number: diner.documentNumber, cafe_id: world.w.norte }),
        )
      ).status,
    ).toBe(404);
  });
});

describe("deleting a diner", () => {
  test("a diner without sales is deleted (204), audited; one with sales is refused, saying to deactivate", async () => {
    const client = await as("cajera");
    const created = await submitJson(client, "POST", "/diners", dinerBody({ name: "Zenón Borrable" }));
    const diner = await created.json();
    const deleted = await submitJson(client, "DELETE", `/diners/${diner.id}`);
    expect(deleted.status).toBe(204);
    expect(row(diner.id)).toBeUndefined();
    expect(auditOf(diner.id).map((a) => a.action)).toEqual(["diner.created", "diner.deleted"]);
    expect(JSON.parse(auditOf(diner.id)[1].before!)).toMatchObject({ name: "Zenón Borrable" });

    const sold = await (await submitJson(client, "POST", "/diners", dinerBody({ name: "Zoila Vendida" }))).json();
    const sale = await submitJson(client, "POST", "/sales", {
      key: `delete-guard-${sold.id}-0001`,
      cafe_id: world.w.norte,
      document_number: sold.documentNumber,
      service_date: dateIn("America/Lima"),
      sale_type: "cash",
      lines: [{ service_id: world.w.des, quantity: 1 }],
    });
    expect(sale.status).toBe(201);
    const refusedJson = await submitJson(client, "DELETE", `/diners/${sold.id}`);
    expect(refusedJson.status).toBe(409);
    expect((await refusedJson.json()).message).toBe(es("diners.has_sales", { name: "Zoila Vendida" }));
    const refusedPage = await submit(client, "DELETE", `/diners/${sold.id}`, {}, "/dinners");
    expect(refusedPage.status).toBe(303);
    expect((await visitPage(client, "/dinners")).props.errors).toEqual({
      form: es("diners.has_sales", { name: "Zoila Vendida" }),
    });
    expect(row(sold.id)).toBeDefined();
    // Even a voided sale keeps the diner: the sale stays, and it references them.
    const saleId = (await sale.json()).id;
    expect((await submitJson(client, "POST", `/sales/${saleId}/void`, { reason: "Prueba de anulación" })).status).toBe(
      200,
    );
    expect((await submitJson(client, "DELETE", `/diners/${sold.id}`)).status).toBe(409);
  });

  test("through the page it goes back with a flash; another cafe's diner is not found", async () => {
    const client = await as("cajera");
    const diner = await (await submitJson(client, "POST", "/diners", dinerBody({ name: "Abel Temporal" }))).json();
    const response = await submit(client, "DELETE", `/diners/${diner.id}`, {}, "/dinners");
    expect(response.status).toBe(303);
    expect((await visitPage(client, "/dinners")).flash.success).toBe(es("diners.deleted", { name: "Abel Temporal" }));
    expect((await submitJson(client, "DELETE", `/diners/${world.w.carla}`)).status).toBe(404);
    expect(row(world.w.carla)).toBeDefined();
  });
});

describe("searching diners (diners.search)", () => {
  test("a document finds the diner in any cafe; a name only within the person's cafes", async () => {
    const cajera = await as("cajera");
    // Carla is Sur's: found by her document (to be sold to as other unit), not by her name.
    const byDocument = await search(cajera, "40000003");
    expect(byDocument).toHaveLength(1);
    expect(byDocument[0]).toMatchObject({
      id: world.w.carla,
      name: "Carla Ñahui",
      cafeId: world.w.sur,
      cafeName: "Comedor Sur",
      subdealershipName: "Contrata Uno",
      active: true,
      barredReason: null,
    });
    expect(await search(cajera, "Carla")).toEqual([]);
    expect(await search(cajera, "ñahui")).toEqual([]);
    // Sur's cashier finds her by name, accents ignored, and does not find Norte's diners by name.
    const surena = await as("surena");
    expect((await search(surena, "carla nahui")).map((d) => d.id)).toEqual([world.w.carla]);
    expect(await search(surena, "Ana Quispe")).toEqual([]);
    expect((await search(surena, "40000001")).map((d) => d.id)).toEqual([world.w.ana]);
  });

  test("names match without accents or case; a scanner's digits find the document", async () => {
    const cajera = await as("cajera");
    expect((await search(cajera, "beto huaman")).map((d) => d.id)).toEqual([world.w.beto]);
    expect((await search(cajera, "BÉTO")).map((d) => d.id)).toEqual([world.w.beto]);
    expect((await search(cajera, "quispe")).map((d) => d.id)).toEqual([world.w.ana]);
    expect((await search(cajera, " 40000002 ")).map((d) => d.id)).toEqual([world.w.beto]);
    // Inactive diners are found, marked, so the cashier sees why they cannot be sold to.
    expect(await search(cajera, "40000004")).toEqual([expect.objectContaining({ id: world.w.dario, active: false })]);
  });

  test("a barred diner comes with the reason", async () => {
    world.app.db
      .insert(blacklist)
      .values({
        documentType: "dni",
        documentNumber: "40000002",
        name: "Béto Huamán",
        reason: "Deuda pendiente",
        createdAt: new Date(),
      })
      .run();
    try {
      expect((await search(await as("cajera"), "40000002"))[0]).toMatchObject({ barredReason: "Deuda pendiente" });
    } finally {
      world.app.db.delete(blacklist).where(eq(blacklist.documentNumber, "40000002")).run();
    }
  });

  test("at most 8 results; nothing for an empty or one-letter query; never a 500 for odd input", async () => {
    const db = world.app.db;
    for (let i = 0; i < 12; i++)
      createDiner(
        db,
        CLI_ACTOR,
        EVERYTHING,
        {
          name: `Xiomara Prueba ${String(i).padStart(2, "0")}`,
          document_number: String(46_000_000 + i),
          subdealership_id: world.w.contrata,
          cafe_id: world.w.norte,
        },
        world.app.config,
      );
    const cajera = await as("cajera");
    const found = await search(cajera, "xiomara");
    expect(found).toHaveLength(8);
    expect(found.map((d) => d.name)).toEqual([...found.map((d) => d.name)].sort());
    expect(await search(cajera, "")).toEqual([]);
    expect(await search(cajera, "x")).toEqual([]);
    expect(await search(cajera, "   ")).toEqual([]);
    for (const q of ["%", "_", "%%%%", "'; DROP TABLE diners; --", "x".repeat(5000), "\u0000", "[]"]) {
      const response = await cajera.request(`/diners/search?q=${encodeURIComponent(q)}`, {
        headers: { accept: "application/json" },
      });
      expect({ q: q.slice(0, 20), status: response.status }).toEqual({ q: q.slice(0, 20), status: 200 });
      const list = await response.json();
      expect(Array.isArray(list) && list.length <= 8).toBe(true);
    }
    // "%" is not a wildcard: it finds nothing rather than everyone.
    expect(await search(cajera, "%%")).toEqual([]);
    // A query given twice (q[]=…) is not a 500.
    const twice = await cajera.request("/diners/search?q=ana&q=beto", { headers: { accept: "application/json" } });
    expect(twice.status).toBeLessThan(500);
  });

  test("lookups by document, which reach every cafe, are limited per person; names are not", async () => {
    const jefa = await as("jefa");
    for (let i = 0; i < LIMITS.dinerLookup.max; i++) await search(jefa, String(47_000_000 + i));
    const refused = await jefa.request("/diners/search?q=40000001", { headers: { accept: "application/json" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await search(jefa, "quispe")).map((d) => d.id)).toEqual([world.w.ana]);
    // Another person's lookups are their own.
    expect(await search(await as("cajera"), "40000001")).toHaveLength(1);
  });
});
