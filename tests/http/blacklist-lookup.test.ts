/**
 * The blacklist form's lookup (`GET /blacklist/lookup`): a complete document of a diner or a user the person's scope
 * reaches answers their name, and only their name; an unknown document, a half-typed one, one of another type and one
 * outside the person's places answer nothing; without blacklist.manage it is 403; complete documents are counted like
 * the point of sale's lookups (429 past LIMITS.dinerLookup), half-typed ones are not.
 *
 * The point-of-sale world (tests/support/pos-app.ts): Ana (40000001) and Beto eat at Comedor Norte, Carla (40000003)
 * at Comedor Sur; Cajera Norte (10000002) works at Norte, Cajera Sur (10000005) at Sur. A gatekeeper holds the
 * blacklist at Norte only.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { LIMITS } from "../../src/domain/rate-limit";
import type { Client } from "../support/app";
import { addUser, dni, makeRole } from "../support/people";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit, visitPage } from "../support/requests";
import { translate } from "../../src/shared/i18n";

let world: PosApp;
let root: Client;
let gatekeeper: Client;

beforeAll(async () => {
  world = await posApp();
  const { db } = world.app;
  const role = makeRole(db, "gatekeeper", ["blacklist.view", "blacklist.manage"]);
  const area = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Portería Norte",
    cafe_id: world.w.norte,
    role_ids: [role],
  });
  const person = await addUser(db, "Portera Norte", "portera@mesa.test", dni("10000099"));
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: person.id, areaId: area.id, roleId: role });
  root = await signedIn(world.app, world.people.root);
  gatekeeper = await signedIn(world.app, { email: "portera@mesa.test" });
});

async function lookup(client: Client, number: string, type = "dni") {
  const params = new URLSearchParams({ document_type: type, document_number: number });
  const response = await client.request(`/blacklist/lookup?${params}`, { headers: { accept: "application/json" } });
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
}

describe("the blacklist form's document lookup", () => {
  test("a known diner's document answers their name, and nothing else about them", async () => {
    const found = await lookup(root, "40000001");
    expect(found).toEqual({ status: 200, body: { name: "Ana Quispe Mamani" } });
    // Written with spaces or a dash, it is the same document.
    expect((await lookup(root, " 4000-0003 ")).body).toEqual({ name: "Carla Ñahui" });
  });

  test("a known user's document answers their name", async () => {
    expect((await lookup(root, "10000002")).body).toEqual({ name: "Cajera Norte" });
    expect((await lookup(root, "10000005")).body).toEqual({ name: "Cajera Sur" });
  });

  test("an unknown document, a half-typed one and another type's answer nothing", async () => {
    expect(await lookup(root, "49999999")).toEqual({ status: 200, body: { name: null } });
    expect((await lookup(root, "4000000")).body).toEqual({ name: null });
    expect((await lookup(root, "4000")).body).toEqual({ name: null });
    expect((await lookup(root, "400000011")).body).toEqual({ name: null });
    // The same digits as a foreign-resident card are another document.
    expect((await lookup(root, "400000010", "ce")).body).toEqual({ name: null });
    expect((await lookup(root, "40000001", "xx")).body).toEqual({ name: null });
  });

  test("within the person's scope only: a gatekeeper of Norte finds Norte's diners and users, not Sur's", async () => {
    expect((await lookup(gatekeeper, "40000001")).body).toEqual({ name: "Ana Quispe Mamani" });
    expect((await lookup(gatekeeper, "10000002")).body).toEqual({ name: "Cajera Norte" });
    expect((await lookup(gatekeeper, "40000003")).body).toEqual({ name: null });
    expect((await lookup(gatekeeper, "10000005")).body).toEqual({ name: null });
  });

  test("forbidden without blacklist.manage: a cashier and a cafe manager, who see the blacklist, get 403", async () => {
    for (const who of [world.people.cajera, world.people.jefa]) {
      const client = await signedIn(world.app, who);
      expect((await lookup(client, "40000001")).status).toBe(403);
    }
  });

  test("a lookup beside a save leaves the session alone: the page after the save still gets its flash", async () => {
    const saved = await submit(
      root,
      "POST",
      "/blacklist",
      { document_type: "dni", document_number: "48888888", name: "Persona Vetada", reason: "Prueba de la búsqueda" },
      "/blacklist",
    );
    expect(saved.status).toBe(302);
    // The form's lookup, still on its way when the save came back.
    expect((await lookup(root, "40000001")).body).toEqual({ name: "Ana Quispe Mamani" });
    const page = await visitPage(root, "/blacklist");
    expect(page.flash.success).toBe(translate("es", "access.blacklist_added", { document: "48888888" }));
  });

  test("any JSON a page asks for beside a save (the till's diner search) leaves the save's flash to the next page", async () => {
    const saved = await submit(
      root,
      "POST",
      "/blacklist",
      { document_type: "dni", document_number: "47777777", name: "Otra Persona", reason: "Prueba de la búsqueda" },
      "/blacklist",
    );
    expect(saved.status).toBe(302);
    const search = await root.get("/diners/search?q=Quispe");
    expect(search.status).toBe(200);
    const page = await visitPage(root, "/blacklist");
    expect(page.flash.success).toBe(translate("es", "access.blacklist_added", { document: "47777777" }));
  });

  test("complete documents are counted like the point of sale's lookups; half-typed ones are not", async () => {
    const app = world.app;
    const { db } = app;
    const role = makeRole(db, "gatekeeper 2", ["blacklist.view", "blacklist.manage"]);
    const area = createArea(db, CLI_ACTOR, EVERYTHING, {
      name: "Portería 2",
      cafe_id: world.w.norte,
      role_ids: [role],
    });
    const person = await addUser(db, "Portero Dos", "portero2@mesa.test", dni("10000098"));
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: person.id, areaId: area.id, roleId: role });
    const client = await signedIn(app, { email: "portero2@mesa.test" });
    for (let i = 0; i < 50; i++) expect((await lookup(client, "4000")).status).toBe(200);
    for (let i = 0; i < LIMITS.dinerLookup.max; i++) expect((await lookup(client, "40000001")).status).toBe(200);
    expect((await lookup(client, "40000001")).status).toBe(429);
  });
});
