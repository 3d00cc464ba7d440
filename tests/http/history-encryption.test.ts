/**
 * Pages that show document numbers ask the browser to keep them only encrypted in its history (`encryptHistory`),
 * and signing out asks it to forget them (`clearHistory`). The page list is src/http/page-protocol/history.ts;
 * these tests visit every page a super-administrator can open, so a page that starts showing documents without
 * being on the list fails here.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { dateIn } from "../../src/shared/calendar";
import { PAGES_WITH_DOCUMENTS } from "../../src/http/page-protocol/history";
import { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit, submitJson } from "../support/requests";

let world: PosApp;
let root: Client;
let saleId: number;

/** Document numbers of the world: its diners, its people, and a blacklisted person. */
const DOCUMENTS = ["40000001", "40000002", "40000003", "40000004", "10000002", "10000005", "90000001"];

beforeAll(async () => {
  world = await posApp();
  addToBlacklist(
    world.app.db,
    CLI_ACTOR,
    EVERYTHING,
    { document_number: "90000001", name: "Persona Vetada", reason: "Motivo de prueba" },
    world.app.config,
  );
  root = await signedIn(world.app, world.people.root);
  const sale = await submitJson(root, "POST", "/sales", {
    key: "history-sale-1",
    cafe_id: world.w.norte,
    document_number: "40000001",
    service_date: dateIn("America/Lima"),
    sale_type: "credit",
    other_unit_confirmed: false,
    lines: [{ service_id: world.w.alm, quantity: 1 }],
  });
  expect(sale.status).toBe(201);
  saleId = ((await sale.json()) as { id: number }).id;
});

/** Every page-protocol page among the GET routes without parameters, plus the till of a cafe and a ticket. */
function pagePaths(): string[] {
  const plain = world.app.routes
    .filter((r) => r.methods.includes("GET") && !r.uri.includes("{"))
    .map((r) => r.uri)
    .filter((uri) => !uri.endsWith("/export"));
  return [...plain, `/dinners?cafe=${world.w.norte}`, `/sales/${saleId}/ticket`];
}

describe("history encryption", () => {
  test("every page whose page object holds a document number encrypts history, and each listed page does", async () => {
    const seen: { component: string; documents: boolean; encrypted: boolean }[] = [];
    for (const path of pagePaths()) {
      const response = await root.request(path, { inertia: true });
      if (response.status !== 200 || response.headers.get("x-inertia") !== "true") continue;
      const text = await response.text();
      const page = JSON.parse(text) as { component: string; encryptHistory?: boolean };
      seen.push({
        component: page.component,
        documents: DOCUMENTS.some((d) => text.includes(d)),
        encrypted: page.encryptHistory === true,
      });
    }
    const showing = seen.filter((p) => p.documents).map((p) => p.component);
    // The world's documents appear on the till, the ticket, the sales list, the users, the blacklist and the audit.
    expect([...new Set(showing)].sort()).toEqual([...PAGES_WITH_DOCUMENTS].sort());
    expect(seen.filter((p) => p.documents && !p.encrypted)).toEqual([]);
    const encrypted = new Set(seen.filter((p) => p.encrypted).map((p) => p.component));
    expect([...encrypted].sort()).toEqual([...PAGES_WITH_DOCUMENTS].sort());
    // Pages without documents are stored as they are.
    expect(seen.find((p) => p.component === "dashboard")).toEqual({
      component: "dashboard",
      documents: false,
      encrypted: false,
    });
  });

  test("the first load of the till carries encryptHistory in the page it embeds", async () => {
    const html = await (await root.get(`/dinners?cafe=${world.w.norte}`)).text();
    expect(html).toContain('"encryptHistory":true');
  });

  test("after signing out, the next page clears the history, and the till is no longer shown", async () => {
    const client = await signedIn(world.app, world.people.cajera);
    expect((await client.visit("/dinners")).page.encryptHistory).toBe(true);
    const out = await submit(client, "POST", "/logout", {});
    expect(out.status).toBe(302);
    const { page } = await client.visit(out.headers.get("location")!);
    expect(page.clearHistory).toBe(true);
    const till = await client.request("/dinners", { inertia: true });
    expect({ status: till.status, location: till.headers.get("location") }).toEqual({
      status: 302,
      location: "/login",
    });
  });
  test("a session that ended on the server (expired or ended elsewhere, or its person deactivated) clears the history on the next page", async () => {
    const ended = await signedIn(world.app, world.people.cajero);
    world.app.sessions.destroy(ended.cookies.get(world.app.config.sessionCookie)!);
    expect((await ended.request("/dinners", { inertia: true })).headers.get("location")).toBe("/login");
    expect((await ended.visit("/login")).page.clearHistory).toBe(true);
    expect((await ended.visit("/login")).page).not.toHaveProperty("clearHistory");

    const barred = await signedIn(world.app, world.people.ciega);
    // Deactivated while the session row stays: the next request ends the session itself.
    world.app.db.update(users).set({ status: "deactivated" }).where(eq(users.id, world.people.ciega.id)).run();
    expect((await barred.request("/dinners", { inertia: true })).headers.get("location")).toBe("/login");
    expect((await barred.visit("/login")).page.clearHistory).toBe(true);
  });
});
