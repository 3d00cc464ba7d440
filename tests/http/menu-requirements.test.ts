/**
 * The Compras page through the app: who may see it (menu.view) and change servings (menu.manage), each within their
 * cafes (a cafe outside them is 404), the requirements it shows against the numbers worked by hand in
 * src/domain/menu/requirements.test.ts, a day's servings saved, a forecast workbook refused row by row (nothing
 * written) or loaded, and the `menu.requirements` job's workbook read back with SheetJS, downloadable by its owner
 * only.
 *
 * People: root (super-administrator, Norte), jefa (Norte's cafe manager: menu.view only), cocinera (menu.view and
 * menu.manage at Norte), surcocina (the same at Sur), surena (Sur's cashier: no menu permission).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { eq, inArray } from "drizzle-orm";
import { menuExpectedServings, offers, providers } from "../../db/schema";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { buildWorkbook } from "../../src/domain/spreadsheets/write";
import type { Client } from "../support/app";
import { addRequirements, type RequirementsWorld } from "../support/menu-requirements";
import { addUser, dni, makeRole } from "../support/people";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn } from "../support/requests";

let world: PosApp;
let r: RequirementsWorld;
const people: Record<string, User> = {};
const clients: Record<string, Client> = {};

beforeAll(async () => {
  world = await posApp({ STORAGE_PATH: mkdtempSync(join(tmpdir(), "mesa-menu-req-")) });
  const db = world.app.db;
  r = addRequirements(db, world.w);
  const planner = makeRole(db, "menu planner", ["menu.view", "menu.manage"]);
  const area = (name: string, cafeId: number) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, cafe_id: cafeId, role_ids: [planner] }).id;
  const cocinaNorte = area("Cocina Norte", world.w.norte);
  const cocinaSur = area("Cocina Sur", world.w.sur);
  const person = async (name: string, email: string, areaId: number, document: string) => {
    const user = await addUser(db, name, email, dni(document));
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId: planner });
    return user;
  };
  people.cocinera = await person("Cocinera Norte", "cocinera@mesa.test", cocinaNorte, "20000001");
  people.surcocina = await person("Cocinera Sur", "surcocina@mesa.test", cocinaSur, "20000002");
  people.root = world.people.root;
  people.jefa = world.people.jefa;
  people.surena = world.people.surena;
});

async function as(who: string): Promise<Client> {
  clients[who] ??= await signedIn(world.app, people[who]);
  return clients[who];
}

const page = (cafe: number, from = r.monday, to = r.wednesday) =>
  `/menu/requirements?cafe=${cafe}&from=${from}&to=${to}`;

const storedServings = () =>
  world.app.db
    .select()
    .from(menuExpectedServings)
    .all()
    .map((s) => `${s.date} ${s.serviceId} ${s.servings}`)
    .sort();

describe("the Compras page", () => {
  test("menu.view opens it on a cafe of the person's own, with what to buy as worked by hand", async () => {
    const jefa = await as("jefa");
    const { response, page: p } = await jefa.visit(page(world.w.norte));
    expect(response.status).toBe(200);
    expect(p.component).toBe("menu/requirements");
    expect(p.props.cafe.name).toBe("Comedor Norte");
    expect(p.props.requirements.totalCents).toBe(59_425);
    expect(p.props.requirements.providers.map((x: { totalCents: number }) => x.totalCents)).toEqual([18_025, 41_400]);
    expect(p.props.requirements.missing.map((m: { ingredientName: string }) => m.ingredientName)).toEqual([
      "Sal yodada",
    ]);
    expect(p.props.servings.days.map((d: { date: string }) => d.date)).toEqual([r.monday, r.tuesday, r.wednesday]);
    expect(p.props.can.manage).toBe(false);
    // Sur is not hers: the page stays on Norte.
    const other = await jefa.visit(page(world.w.sur));
    expect(other.page.props.cafe.id).toBe(world.w.norte);
  });

  test("without menu.view it is forbidden; a range past 62 days is said on the page", async () => {
    expect((await (await as("surena")).get(page(world.w.sur))).status).toBe(403);
    const { page: p } = await (await as("jefa")).visit(page(world.w.norte, "2026-12-01", "2027-02-15"));
    expect(Object.keys(p.props.rangeErrors)).toEqual(["to"]);
  });

  test("menu.manage saves a day's servings at its own cafe only; menu.view alone cannot", async () => {
    const body = { cafe: world.w.norte, date: r.wednesday, servings: { [world.w.alm]: "75" } };
    const jefa = await as("jefa");
    expect((await jefa.request("/menu/requirements/servings", { method: "PUT", json: body })).status).toBe(403);
    const sur = await as("surcocina");
    expect((await sur.request("/menu/requirements/servings", { method: "PUT", json: body })).status).toBe(404);
    const cocinera = await as("cocinera");
    const bad = await cocinera.request("/menu/requirements/servings", {
      method: "PUT",
      json: { ...body, servings: { [world.w.alm]: "7.5" } },
      headers: { accept: "application/json" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual([`servings.${world.w.alm}`]);
    const saved = await cocinera.request("/menu/requirements/servings", { method: "PUT", json: body });
    expect(saved.status).toBe(303);
    expect(storedServings()).toContain(`${r.wednesday} ${world.w.alm} 75`);
  });

  test("a forecast with bad rows loads nothing and says each problem; a good one loads every row", async () => {
    const cocinera = await as("cocinera");
    const upload = (rows: (string | number)[][], cafe = world.w.norte) => {
      const bytes = buildWorkbook([
        {
          name: "Pronóstico",
          columns: rows[0].map((h, i) => ({ header: String(h), value: (row: (string | number)[]) => row[i] })),
          rows: rows.slice(1),
        },
      ]);
      const form = new FormData();
      form.set("cafe", String(cafe));
      form.set("file", new File([bytes], "pronostico.xlsx"));
      return cocinera.request("/menu/requirements/forecast", {
        method: "POST",
        body: form,
        headers: { accept: "application/json" },
      });
    };
    const before = storedServings();
    const refused = await upload([
      ["Fecha", "Servicio", "Comensales"],
      ["2026-12-21", "ALM", 110],
      ["2026-12-21", "Lonche", 10],
      ["2026-12-22", "CEN", -4],
    ]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { problems: string[] }).problems).toEqual([
      "Fila 3 (Servicio): No hay un servicio «Lonche».",
      "Fila 4 (Comensales): Debe estar entre 0 y 100,000.",
    ]);
    expect(storedServings()).toEqual(before);

    const loaded = await upload([
      ["Fecha", "Servicio", "Comensales"],
      ["2026-12-21", "ALM", 110],
      ["22/12/2026", "Cena", 30],
    ]);
    expect(loaded.status).toBe(200);
    expect(await loaded.json()).toEqual({ rows: 2, days: 2, from: "2026-12-21", to: "2026-12-22" });
    expect(storedServings()).toEqual(
      [...before, `2026-12-21 ${world.w.alm} 110`, `2026-12-22 ${world.w.cen} 30`].sort(),
    );
    // Another cafe's forecast: not hers.
    expect(
      (
        await upload(
          [
            ["Fecha", "Servicio", "Comensales"],
            ["2026-12-21", "ALM", 1],
          ],
          world.w.sur,
        )
      ).status,
    ).toBe(404);
  });

  test("the Excel job writes a sheet per provider, a summary, the ingredients without an offer and the servings", async () => {
    const jefa = await as("jefa");
    const started = await jefa.request("/menu/requirements/export", {
      method: "POST",
      json: { cafe: world.w.norte, from: r.monday, to: r.tuesday },
      headers: { accept: "application/json" },
    });
    expect(started.status).toBe(202);
    const { job } = (await started.json()) as { job: { id: number } };
    await world.app.services.jobs.idle();
    const finished = (await (
      await jefa.get(`/menu/requirements?job=1`, { headers: { accept: "application/json" } })
    ).json()) as { job: { id: number; state: string; downloadUrl: string; result: { fileName: string } } };
    expect(finished.job.id).toBe(job.id);
    expect(finished.job.state).toBe("succeeded");
    expect(finished.job.result.fileName).toBe(`compras-comedor-norte-${r.monday}-${r.tuesday}.xlsx`);

    // Someone else's job reads as missing.
    expect((await (await as("root")).get(finished.job.downloadUrl)).status).toBe(404);
    const download = await jefa.get(finished.job.downloadUrl);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    const book = XLSX.read(bytes, { type: "array", cellNF: true, cellStyles: true });
    expect(book.SheetNames).toEqual([
      "Resumen",
      "Distribuidora Andina",
      "Mercado Mayorista Sur",
      "Sin oferta",
      "Comensales",
    ]);
    const rows = (sheet: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet], { header: 1, raw: true });
    const summary = rows("Resumen");
    expect(summary[0]).toEqual(["Proveedor", "RUC", "Contacto", "Teléfono", "Ingredientes", "Costo sin IGV"]);
    expect(summary[1]).toEqual(["Distribuidora Andina", "20100934729", "Rosa", "999", 2, 180.25]);
    expect(summary[2]).toEqual(["Mercado Mayorista Sur", "20551673911", "Rosa", "999", 4, 414]);
    expect([summary[3][0], summary[3][4], summary[3][5]]).toEqual(["Total", 6, 594.25]);
    const andina = rows("Distribuidora Andina");
    expect(andina[1]).toEqual(["Aceites", "Aceite vegetal", "ml", 2884, "Botella 1 L", 1000, 3, 3000, 10.0847, 30.25]);
    expect(andina.at(-1)?.at(-1)).toBe(180.25);
    expect(book.Sheets["Distribuidora Andina"]["J2"].z).toContain("S/");
    expect(book.Sheets["Distribuidora Andina"]["!cols"]?.map((c) => c.width)).toEqual([
      18, 30, 8, 13, 20, 11, 15, 18, 20, 16, 60,
    ]);
    // Every sheet's header row is frozen.
    const zip = XLSX.CFB.read(bytes, { type: "array" });
    for (let i = 1; i <= 5; i++) {
      const xml = new TextDecoder().decode(XLSX.CFB.find(zip, `/xl/worksheets/sheet${i}.xml`)!.content as Uint8Array);
      expect(xml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    }
    expect(rows("Sin oferta")[1]).toEqual(["Verduras", "Sal yodada", "g", 372, "Arroz con pollo"]);
    expect(rows("Comensales")[0]).toEqual(["Fecha", "Desayuno", "Almuerzo", "Cena"]);
    expect(
      rows("Comensales")
        .slice(1)
        .map((row) => row.slice(1)),
    ).toEqual([
      [16, 100, 0],
      [0, 86, 40],
    ]);
  });

  test("the workbook buys the cheapest mix of a provider's presentations, notes a larger pack, and writes phones as typed", async () => {
    const db = world.app.db;
    const at = new Date("2026-11-20T12:00:00Z");
    const addOffer = (presentation: string, quantity: number, priceCents: number) =>
      db
        .insert(offers)
        .values({
          providerId: r.andina,
          ingredientId: r.ingredient.aceite,
          cityId: r.lima,
          presentation,
          quantity,
          priceCents,
          priceIncludesIgv: true,
          priceChangedAt: at,
          createdAt: at,
          updatedAt: at,
        })
        .returning()
        .get().id;
    const added = [addOffer("Botella 500 ml", 500, 649), addOffer("Bidón 5 L", 5000, 4720)];
    db.update(providers).set({ phone: "+51 987 654 321" }).where(eq(providers.id, r.andina)).run();
    db.update(providers).set({ phone: "987654321" }).where(eq(providers.id, r.mercado)).run();
    try {
      const jefa = await as("jefa");
      // The page: Tuesday's 1,404 ml of oil is one 1 L bottle and one 500 ml bottle, with the can noted.
      const { page: p } = await jefa.visit(page(world.w.norte, r.tuesday, r.tuesday));
      const andinaLines = p.props.requirements.providers.find((x: { providerId: number }) => x.providerId === r.andina)
        .lines as {
        ingredientName: string;
        packs: { presentation: string; presentations: number }[];
        largerPack: unknown;
      }[];
      const oil = andinaLines.find((l) => l.ingredientName === "Aceite vegetal")!;
      expect(oil.packs.map((x) => [x.presentation, x.presentations])).toEqual([
        ["Botella 1 L", 1],
        ["Botella 500 ml", 1],
      ]);
      expect(oil.largerPack).toMatchObject({ presentation: "Bidón 5 L" });

      const started = await jefa.request("/menu/requirements/export", {
        method: "POST",
        json: { cafe: world.w.norte, from: r.tuesday, to: r.tuesday },
        headers: { accept: "application/json" },
      });
      expect(started.status).toBe(202);
      await world.app.services.jobs.idle();
      const { job } = (await (
        await jefa.get(`/menu/requirements?job=1`, { headers: { accept: "application/json" } })
      ).json()) as { job: { downloadUrl: string } };
      const bytes = new Uint8Array(await (await jefa.get(job.downloadUrl)).arrayBuffer());
      const book = XLSX.read(bytes, { type: "array" });
      const rows = (sheet: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet], { header: 1, raw: true });
      const oilRows = rows("Distribuidora Andina").filter((row) => row[1] === "Aceite vegetal");
      expect(oilRows).toEqual([
        [
          "Aceites",
          "Aceite vegetal",
          "ml",
          1404,
          "Botella 1 L",
          1000,
          1,
          1000,
          10.0847,
          10.08,
          "Bidón 5 L sale más barato: S/\u00a08.00 el litro frente a S/\u00a010.39 el litro de lo comprado; cubrir todo con él costaría S/\u00a040.00.",
        ],
        ["Aceites", "Aceite vegetal", "ml", undefined, "Botella 500 ml", 500, 1, 500, 5.5, 5.5],
      ]);
      // Phones read as typed: no apostrophe, text cells; the one starting with + is marked as text (quotePrefix).
      const summary = rows("Resumen");
      expect(summary[1][3]).toBe("+51 987 654 321");
      expect(summary[2][3]).toBe("987654321");
      const zip = XLSX.CFB.read(bytes, { type: "array" });
      const part = (name: string) => new TextDecoder().decode(XLSX.CFB.find(zip, `/${name}`)!.content as Uint8Array);
      const sheet1 = part("xl/worksheets/sheet1.xml");
      const row2 = /<row r="2">(.*?)<\/row>/.exec(sheet1)![1];
      const cells = [...row2.matchAll(/<c([^>]*)>/g)].map((m) => m[1]);
      expect(cells[3]).toContain('s="10"');
      expect(cells[3]).toContain('t="s"');
      expect(part("xl/styles.xml")).toContain('quotePrefix="1"');
      expect(sheet1).not.toContain("<f>");
      expect(part("xl/sharedStrings.xml")).not.toContain("'+51");
    } finally {
      db.delete(offers).where(inArray(offers.id, added)).run();
      db.update(providers)
        .set({ phone: "999" })
        .where(inArray(providers.id, [r.andina, r.mercado]))
        .run();
    }
  });

  test("an export of a range too long, or of a cafe outside the person's scope, is refused", async () => {
    const jefa = await as("jefa");
    const long = await jefa.request("/menu/requirements/export", {
      method: "POST",
      json: { cafe: world.w.norte, from: "2026-12-01", to: "2027-03-01" },
      headers: { accept: "application/json" },
    });
    expect(long.status).toBe(422);
    const outside = await jefa.request("/menu/requirements/export", {
      method: "POST",
      json: { cafe: world.w.sur, from: r.monday, to: r.tuesday },
      headers: { accept: "application/json" },
    });
    expect(outside.status).toBe(404);
  });

  test("a cafe without a city shows its servings but nothing to buy, and cannot be exported", async () => {
    const db = world.app.db;
    db.$client.run(`UPDATE cafes SET city_id = NULL WHERE id = ${world.w.sur}`);
    try {
      const sur = await as("surcocina");
      const { page: p } = await sur.visit(page(world.w.sur));
      expect(p.props.cafe.id).toBe(world.w.sur);
      expect(p.props.requirements).toBeNull();
      expect(p.props.problem).toContain("no tiene ciudad");
      expect(p.props.servings.services.map((s: { code: string }) => s.code)).toEqual(["ALM"]);
      expect(p.props.can.manage).toBe(true);
      const refused = await sur.request("/menu/requirements/export", {
        method: "POST",
        json: { cafe: world.w.sur, from: r.monday, to: r.tuesday },
        headers: { accept: "application/json" },
      });
      expect(refused.status).toBe(422);
      expect(Object.keys(((await refused.json()) as { errors: object }).errors)).toEqual(["cafe"]);
    } finally {
      db.$client.run(`UPDATE cafes SET city_id = ${r.lima} WHERE id = ${world.w.sur}`);
    }
  });
});
