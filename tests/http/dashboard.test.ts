/**
 * The dashboard through the app: its figures are a deferred prop (left out of the page, fetched by the partial reload
 * the client makes next), to the cent for what was sold through the point of sale, voids counted apart; scope (a
 * cashier of Norte sees Norte's figures only) and the cafe filter (another cafe, or a value that is not an id, is not
 * found); no figures for someone without sales.view, who still sees the rest; who to ask for a person without a
 * role; and a failure of the figures rescued (the page still answers, naming the prop in rescuedProps).
 *
 * The world (tests/support/pos-app.ts): Comedor Norte (DES 8.00, ALM 15.00, CEN 12.00) and Comedor Sur (ALM 14.00).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { dateIn } from "../../src/shared/calendar";
import { Client } from "../support/app";
import { addUser } from "../support/people";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submitJson, visitPage } from "../support/requests";
import { captureLog } from "../support/log";

let world: PosApp;
let today: string;
const clients: Record<string, Client> = {};
let keys = 0;

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

/** The headers of the client's partial reload of the figures (the deferred group, or a live refresh). */
const figuresReload = { "x-inertia-partial-component": "dashboard", "x-inertia-partial-data": "figures" };

async function sold(client: Client, body: Record<string, unknown>): Promise<{ id: number; totalCents: number }> {
  const response = await submitJson(client, "POST", "/sales", {
    key: `dashboard-http-${++keys}-${Math.random().toString(36).slice(2)}`,
    service_date: today,
    sale_type: "cash",
    other_unit_confirmed: false,
    ...body,
  });
  expect(response.status).toBe(201);
  return response.json();
}

beforeAll(async () => {
  world = await posApp();
  today = dateIn("America/Lima");
  const { w } = world;
  const cajera = await as("cajera");
  const surena = await as("surena");
  // Norte: a cash breakfast and two lunches (8.00 + 30.00), a credit dinner (12.00) that is voided; Sur: a lunch.
  await sold(cajera, {
    cafe_id: w.norte,
    document_number: "40000001",
    lines: [
      { service_id: w.des, quantity: 1 },
      { service_id: w.alm, quantity: 2 },
    ],
  });
  const voided = await sold(cajera, {
    cafe_id: w.norte,
    document_number: "40000002",
    sale_type: "credit",
    lines: [{ service_id: w.cen, quantity: 1 }],
  });
  await sold(surena, { cafe_id: w.sur, document_number: "40000003", lines: [{ service_id: w.alm, quantity: 1 }] });
  const jefa = await as("jefa");
  const response = await submitJson(jefa, "POST", `/sales/${voided.id}/void`, { reason: "Se equivocó de servicio" });
  expect(response.status).toBe(200);
});

describe("the dashboard's figures", () => {
  test("are deferred: the page paints without them, and the partial reload that follows brings them", async () => {
    const cajera = await as("cajera");
    const page = await visitPage(cajera, "/dashboard");
    expect(page.component).toBe("dashboard");
    expect(page.props).not.toHaveProperty("figures");
    expect(page.deferredProps).toEqual({ figures: ["figures"] });
    expect(page.props.salesView).toBe(true);
    expect(page.props.cafe).toBeNull();
    // The role by the name a Spanish-speaking cashier reads, not its stored English name.
    expect(page.props.account.roles).toEqual(["Cajero"]);

    const reload = await visitPage(cajera, "/dashboard", figuresReload);
    expect(reload).not.toHaveProperty("deferredProps");
    // Only what was asked for: the page's other props stay as the client has them.
    expect(reload.props).not.toHaveProperty("account");
    expect(reload.props).not.toHaveProperty("cafes");
    const f = reload.props.figures;
    expect(f.today).toBe(today);
    // Norte only (the cashier's scope): 8.00 + 2 × 15.00, three meals; the voided dinner apart.
    expect(f.day).toEqual({
      meals: 3,
      totalCents: 3800,
      sales: 1,
      otherUnit: { sales: 0, totalCents: 0 },
      voided: { sales: 1, totalCents: 1200 },
    });
    expect(f.byType).toEqual([
      { type: "breakfast", meals: 1, totalCents: 800 },
      { type: "lunch", meals: 2, totalCents: 3000 },
      { type: "dinner", meals: 0, totalCents: 0 },
    ]);
    expect(f.days.at(-1)).toEqual({ date: today, meals: 3, totalCents: 3800 });
    expect(f.days).toHaveLength(14);
    expect(f.month.totalCents).toBeGreaterThanOrEqual(3800);
  });

  test("scope and the cafe filter: the cafes offered are the person's; another cafe or a malformed one is not found", async () => {
    const cajera = await as("cajera");
    const page = await visitPage(cajera, "/dashboard");
    expect(page.props.cafes).toEqual([{ id: world.w.norte, name: "Comedor Norte", unit: "Unidad Central" }]);
    for (const bad of [String(world.w.sur), "abc", "0", `0${world.w.norte}`, "1e0"]) {
      const { response } = await cajera.visit(`/dashboard?cafe=${encodeURIComponent(bad)}`);
      expect({ bad, status: response.status }).toEqual({ bad, status: 404 });
    }
    // The super-administrator reaches both; one cafe's figures are its own, and both add up to all of them.
    const root = await as("root");
    const all = (await visitPage(root, "/dashboard", figuresReload)).props.figures;
    const norte = (await visitPage(root, `/dashboard?cafe=${world.w.norte}`, figuresReload)).props.figures;
    expect((await visitPage(root, `/dashboard?cafe=${world.w.sur}`)).props.cafe).toBe(world.w.sur);
    const sur = await visitPage(root, `/dashboard?cafe=${world.w.sur}`, figuresReload);
    expect(sur.props.figures.day.totalCents).toBe(1400);
    expect(norte.day.totalCents).toBe(3800);
    expect(all.day.totalCents).toBe(3800 + 1400);
    expect(all.day.meals).toBe(norte.day.meals + sur.props.figures.day.meals);
  });

  test("someone without sales.view sees the rest of the dashboard, and no figures even when asking for them", async () => {
    for (const who of ["mirona", "ciega"] as const) {
      const client = await as(who);
      const page = await visitPage(client, "/dashboard");
      expect(page.props.salesView).toBe(false);
      expect(page).not.toHaveProperty("deferredProps");
      expect(page.props.account.roles.length).toBe(1);
      expect(page.props.cafes.map((c: { id: number }) => c.id)).toEqual([world.w.norte]);
      const asked = await visitPage(client, "/dashboard", figuresReload);
      expect(asked.props).not.toHaveProperty("figures");
    }
  });

  test("a person without a role is told who can give one: names and places, never their e-mail", async () => {
    const nuevo = await addUser(world.app.db, "Nuevo Sin Rol", "nuevo@mesa.test");
    const client = await signedIn(world.app, nuevo);
    const page = await visitPage(client, "/dashboard");
    expect(page.props.account.roles).toEqual([]);
    expect(page.props.salesView).toBe(false);
    expect(page.props.cafes).toEqual([]);
    // The super-administrator, at Caja Norte; the cafe manager and the cashiers cannot give roles.
    expect(page.props.roleKeepers).toEqual([{ name: "Raíz Super", area: "Caja Norte", place: "Comedor Norte" }]);
    expect(JSON.stringify(page.props.roleKeepers)).not.toContain("@");
    // Someone with a role is not told.
    expect((await visitPage(await as("cajera"), "/dashboard")).props.roleKeepers).toEqual([]);
  });

  test("a failure of the figures is rescued: the reload answers with the other props and names figures in rescuedProps", async () => {
    const { app } = await posApp();
    const client = await signedIn(app, "root@mesa.test");
    app.db.$client.exec("ALTER TABLE daily_sale_figures RENAME TO daily_sale_figures_away");
    const log = captureLog();
    try {
      const { response, page } = await client.visit("/dashboard", figuresReload);
      expect(response.status).toBe(200);
      expect(page.rescuedProps).toEqual(["figures"]);
      expect(page.props).not.toHaveProperty("figures");
      expect(page.component).toBe("dashboard");
    } finally {
      log.restore();
      app.db.$client.exec("ALTER TABLE daily_sale_figures_away RENAME TO daily_sale_figures");
    }
    expect(log.lines[0]).toMatchObject({ prop: "figures", component: "dashboard" });
    // Once it works again, the next reload brings them and rescues nothing.
    const { page } = await client.visit("/dashboard", figuresReload);
    expect(page.props.figures.day.sales).toBe(0);
    expect(page).not.toHaveProperty("rescuedProps");
  });
});
