/**
 * The meal schedule through the app: the page (a week by default, one cafe of the viewer's scope, a day read again by
 * a partial reload), a day's save (JSON: the day with its figures; a stale version answers 409 with the day as it is
 * now and who changed it; a dish of another category answers 422 naming it), copying days (published targets asked
 * about first), the dish search, permissions (menu.view reads, menu.manage writes) and scope (a planner of Norte
 * neither reads nor writes Sur).
 *
 * The world: tests/support/pos-app.ts with tests/support/schedule-world.ts (figures worked out there), and two
 * planners holding menu.view and menu.manage, one at each cafe.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { menuDays } from "../../db/schema";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import type { Client } from "../support/app";
import { addUser, dni, makeRole } from "../support/people";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submitJson, visitPage } from "../support/requests";
import { scheduleWorld, type ScheduleWorld } from "../support/schedule-world";

let world: PosApp;
let s: ScheduleWorld;
let planner: User;
let surPlanner: User;
const clients = new Map<string, Client>();
const MONDAY = "2026-12-07";

async function as(user: User): Promise<Client> {
  if (!clients.has(user.email)) clients.set(user.email, await signedIn(world.app, user));
  return clients.get(user.email)!;
}

/** Norte's lunch with these dishes. */
const lunch = (entrada: number[], segundo: number[]) => [
  { service_id: world.w.alm, category_id: s.entrada, dish_ids: entrada },
  { service_id: world.w.alm, category_id: s.segundo, dish_ids: segundo },
];

const dayUrl = (cafe: number, date: string) => `/menu/schedule/${cafe}/${date}`;

beforeAll(async () => {
  world = await posApp();
  const { db } = world.app;
  s = scheduleWorld(db, world.w);
  const role = makeRole(db, "menu planner", ["menu.view", "menu.manage"]);
  const area = (name: string, cafeId: number) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, cafe_id: cafeId, role_ids: [role] }).id;
  const cocinaNorte = area("Cocina Norte", world.w.norte);
  const cocinaSur = area("Cocina Sur", world.w.sur);
  planner = await addUser(db, "Nora Planner", "nora@mesa.test", dni("20000001"));
  surPlanner = await addUser(db, "Sergio Sur", "sergio@mesa.test", dni("20000002"));
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: planner.id, areaId: cocinaNorte, roleId: role });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: surPlanner.id, areaId: cocinaSur, roleId: role });
});

describe("the schedule page", () => {
  test("shows the cafe's days of the range with their meals and slots; menu.manage may change them", async () => {
    const page = await visitPage(
      await as(planner),
      `/menu/schedule?cafe=${world.w.norte}&from=${MONDAY}&to=2026-12-13`,
    );
    expect(page.component).toBe("menu/schedule");
    expect(page.props.cafe.id).toBe(world.w.norte);
    expect(page.props.cafes.map((c: { id: number }) => c.id)).toEqual([world.w.norte]);
    expect(page.props.schedule.days).toHaveLength(7);
    expect(page.props.schedule.days[0].meals[0].slots.map((x: { categoryName: string }) => x.categoryName)).toEqual([
      "Entrada",
      "Segundo",
    ]);
    expect(page.props.can.manage).toBe(true);
    // The day prop is only sent when a partial reload asks for it.
    expect(page.props).not.toHaveProperty("day");
  });

  test("a week from this Monday by default; a range longer than 62 days is cut", async () => {
    const client = await as(planner);
    const page = await visitPage(client, "/menu/schedule");
    expect(page.props.schedule.days).toHaveLength(7);
    expect(new Date(`${page.props.from}T00:00:00Z`).getUTCDay()).toBe(1);
    const long = await visitPage(client, `/menu/schedule?from=2026-01-01&to=2026-12-31`);
    expect(long.props.to).toBe("2026-03-03");
    expect(long.props.schedule.days).toHaveLength(62);
  });

  test("scope: a planner of Norte is shown Norte even when asking for Sur; a person without menu.view is refused", async () => {
    const page = await visitPage(await as(planner), `/menu/schedule?cafe=${world.w.sur}`);
    expect(page.props.cafe.id).toBe(world.w.norte);
    const { response } = await (await as(world.people.cajera)).visit("/menu/schedule");
    expect(response.status).toBe(403);
  });
});

describe("saving a day", () => {
  test("answers the day saved with its figures; a stale version is refused with the day as it is now", async () => {
    const client = await as(planner);
    const saved = await submitJson(client, "PUT", dayUrl(world.w.norte, MONDAY), {
      version: 0,
      slots: lunch([s.causa], [s.arrozConPollo]),
    });
    expect(saved.status).toBe(200);
    const { day } = await saved.json();
    expect(day).toMatchObject({ date: MONDAY, version: 1, updatedByName: "Nora Planner", state: "draft" });
    expect(day.meals[0]).toMatchObject({ costCents: 300, kcal: 1300, bound: "within" });

    // Another tab still at version 0.
    const other = await signedIn(world.app, planner);
    const stale = await submitJson(other, "PUT", dayUrl(world.w.norte, MONDAY), {
      version: 0,
      slots: lunch([s.ensalada], []),
    });
    expect(stale.status).toBe(409);
    const refused = await stale.json();
    expect(refused.message).toContain("Nora Planner");
    expect(refused.day.version).toBe(1);
    expect(refused.day.meals[0].slots[0].dishes.map((d: { name: string }) => d.name)).toEqual(["Causa"]);

    // The live page reads the day again through a partial reload of the `day` prop.
    const reload = await visitPage(client, `/menu/schedule?cafe=${world.w.norte}&day=${MONDAY}`, {
      "x-inertia-partial-component": "menu/schedule",
      "x-inertia-partial-data": "day",
    });
    expect(Object.keys(reload.props)).toContain("day");
    expect(reload.props).not.toHaveProperty("schedule");
    expect(reload.props.day.version).toBe(1);
  });

  test("a dish of another category, or no longer offered, is refused naming it; nothing is written", async () => {
    const client = await as(planner);
    const date = "2026-12-08";
    const wrong = await submitJson(client, "PUT", dayUrl(world.w.norte, date), {
      version: 0,
      slots: lunch([s.arrozConPollo], [s.sopaVieja]),
    });
    expect(wrong.status).toBe(422);
    const { errors } = await wrong.json();
    expect(errors["slots.0.dish_ids.0"]).toContain("Arroz con pollo");
    expect(errors["slots.0.dish_ids.0"]).toContain("Entrada");
    expect(errors["slots.1.dish_ids.0"]).toContain("Sopa vieja");
    const row = world.app.db
      .select()
      .from(menuDays)
      .where(and(eq(menuDays.cafeId, world.w.norte), eq(menuDays.date, date)))
      .get();
    expect(row).toBeUndefined();
  });

  test("writes need menu.manage, and a cafe in the scope", async () => {
    const body = { version: 0, slots: [] };
    // The cafe manager of Norte sees the menu (menu.view) but does not plan it.
    const jefa = await as(world.people.jefa);
    expect((await submitJson(jefa, "PUT", dayUrl(world.w.norte, "2026-12-09"), body)).status).toBe(403);
    const sur = await as(surPlanner);
    expect((await submitJson(sur, "PUT", dayUrl(world.w.norte, "2026-12-09"), body)).status).toBe(404);
    expect(
      (
        await submitJson(sur, "POST", `/menu/schedule/${world.w.norte}/copy`, {
          from: MONDAY,
          to: MONDAY,
          target: "2026-12-20",
        })
      ).status,
    ).toBe(404);
    // A date that is no date is not found.
    expect((await submitJson(await as(planner), "PUT", dayUrl(world.w.norte, "2026-02-30"), body)).status).toBe(404);
  });
});

describe("copying days", () => {
  test("copies a week; published targets are named first and overwritten only when confirmed", async () => {
    const client = await as(planner);
    const from = "2027-01-04";
    await submitJson(client, "PUT", dayUrl(world.w.norte, from), { version: 0, slots: lunch([s.causa], []) });
    const copied = await submitJson(client, "POST", `/menu/schedule/${world.w.norte}/copy`, {
      from,
      to: "2027-01-10",
      target: "2027-01-11",
      times: 2,
    });
    expect(copied.status).toBe(200);
    expect(await copied.json()).toMatchObject({ changed: 2, unchanged: 12, lastDate: "2027-01-24" });

    world.app.db
      .update(menuDays)
      .set({ publishedVersion: 1, publishedAt: new Date() })
      .where(and(eq(menuDays.cafeId, world.w.norte), eq(menuDays.date, "2027-01-18")))
      .run();
    await submitJson(client, "PUT", dayUrl(world.w.norte, from), {
      version: 1,
      slots: lunch([s.causa], [s.polloBrasa]),
    });
    const asked = await submitJson(client, "POST", `/menu/schedule/${world.w.norte}/copy`, {
      from,
      to: from,
      target: "2027-01-18",
    });
    expect(asked.status).toBe(409);
    expect((await asked.json()).published).toEqual(["2027-01-18"]);
    const confirmed = await submitJson(client, "POST", `/menu/schedule/${world.w.norte}/copy`, {
      from,
      to: from,
      target: "2027-01-18",
      overwrite_published: true,
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ changed: 1, publishedOverwritten: 1 });
  });

  test("the target must come after the days copied", async () => {
    const response = await submitJson(await as(planner), "POST", `/menu/schedule/${world.w.norte}/copy`, {
      from: MONDAY,
      to: "2026-12-13",
      target: "2026-12-10",
    });
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(["target"]);
  });
});

describe("the dish search", () => {
  test("active dishes of the category matching the name, with their figures at the cafe", async () => {
    const client = await as(planner);
    const response = await client.request(`/menu/dishes?category=${s.entrada}&q=&cafe=${world.w.norte}`);
    expect(response.status).toBe(200);
    const { dishes } = await response.json();
    expect(dishes.map((d: { name: string }) => d.name)).toEqual(["Causa", "Chicha", "Ensalada"]);
    expect(dishes[0]).toEqual({ id: s.causa, name: "Causa", costCents: 40, kcal: 360, problem: null });
    const pollo = await (await client.request(`/menu/dishes?category=${s.segundo}&q=brasa`)).json();
    expect(pollo.dishes.map((d: { name: string }) => d.name)).toEqual(["Pollo a la brasa"]);
    // Another cafe's figures are out of the planner's scope.
    expect((await client.request(`/menu/dishes?category=${s.entrada}&cafe=${world.w.sur}`)).status).toBe(404);
  });
});

describe("the schedule's live channel", () => {
  /** Mesa's channel authorization, as the browser asks it. */
  const authorize = (client: Client, channel: string) =>
    client.request("/broadcasting/auth", {
      method: "POST",
      body: new URLSearchParams({ socket_id: "1234.5678", channel_name: channel }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    });

  test("private-cafe.{cafe}.menu is for holders of menu.view whose scope reaches the cafe", async () => {
    const norte = `private-cafe.${world.w.norte}.menu`;
    expect((await authorize(await as(planner), norte)).status).toBe(200);
    // The cafe manager of Norte reads the menu (menu.view): she hears it too.
    expect((await authorize(await as(world.people.jefa), norte)).status).toBe(200);
    // Sur's planner is outside Norte; a cashier has no menu.view.
    expect((await authorize(await as(surPlanner), norte)).status).toBe(403);
    expect((await authorize(await as(world.people.cajera), norte)).status).toBe(403);
    expect((await authorize(await as(planner), `private-cafe.0${world.w.norte}.menu`)).status).toBe(403);
  });
});
