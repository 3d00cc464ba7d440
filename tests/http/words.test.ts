/**
 * The words of the pages as the server renders them (docs/words.md): the Roles page names every permission group in
 * the reader's language ("Comensales", not "DINERS"), the dashboard names the reader's roles by their labels ("Jefe
 * de comedor", not "cafe manager"), and money reads "S/" in English too.
 *
 * The world (tests/support/pos-app.ts): a super-administrator and a cafe manager at Comedor Norte.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit } from "../support/requests";
import type { Client } from "../support/app";

let world: PosApp;
let root: Client;
let jefa: Client;

/** The text a person reads in a server-rendered page: its markup without tags, spaces collapsed. */
async function pageText(client: Client, path: string): Promise<string> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  const html = await response.text();
  return html
    .slice(html.indexOf('id="app"'))
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");
}

beforeAll(async () => {
  world = await posApp();
  root = await signedIn(world, world.people.root);
  jefa = await signedIn(world, world.people.jefa);
});

describe("the Roles page", () => {
  test("names every permission group in Spanish, the diners' and the sales' too", async () => {
    const text = await pageText(root, "/roles");
    // Each group's name heads its permissions (before, "diners" and "sales" stood there, shown as DINERS and SALES).
    expect(text).toContain("Comensales Importar comensales desde hojas de cálculo");
    expect(text).toContain("Ventas y reportes Gestionar los medios de pago");
    expect(text).not.toMatch(/\b(diners|sales) (Importar|Vender)/i);
  });

  test("and in English", async () => {
    const client = await signedIn(world, world.people.root);
    await submit(client, "PUT", "/settings/language", { locale: "en" }, "/roles");
    const text = await pageText(client, "/roles");
    for (const group of ["Diners", "Sales and reports", "People and areas"]) expect(text).toContain(group);
  });
});

describe("the dashboard", () => {
  test("names the reader's roles in their language", async () => {
    expect(await pageText(jefa, "/dashboard")).toContain("Jefe de comedor");
    const client = await signedIn(world, world.people.jefa);
    await submit(client, "PUT", "/settings/language", { locale: "en" }, "/dashboard");
    const english = await pageText(client, "/dashboard");
    expect(english).toContain("Cafe manager");
    expect(english).not.toContain("cafe manager");
  });
});
