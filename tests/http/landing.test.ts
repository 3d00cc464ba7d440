/**
 * Where each person lands after signing in (src/http/landing.ts), and the buyer's what to buy (issue 26): the page
 * of the one job their permissions say they do, the dashboard for everyone else; the page a guest was sent to sign
 * in from still wins. The buyer (starting role) opens What to buy and its workbook, and cannot change a menu.
 *
 * The world: the point-of-sale world (cashiers and a cafe manager at Comedor Norte, a super-administrator) with the
 * what-to-buy world of tests/support/menu-requirements.ts, and at Catering Andino's headquarters a buyer, a
 * nutritionist, an administrator and an operations manager (starting roles), and people with roles made by an
 * administrator: a till-only role, a food keeper, a menu reader and someone who only reads sales.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { and, eq } from "drizzle-orm";
import { headquarters, permissions, rolePermissions, roles, startingRoleGrants } from "../../db/schema";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { findRoleByName } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { bootstrapAccess, STARTING_ROLES } from "../../src/domain/access/starting-roles";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { Client } from "../support/app";
import { addRequirements, type RequirementsWorld } from "../support/menu-requirements";
import { addUser, makeRole } from "../support/people";
import { posApp, type PosApp } from "../support/pos-app";
import { signIn, signInAs, submit, submitJson } from "../support/requests";

let world: PosApp;
let r: RequirementsWorld;
const people: Record<string, User> = {};

beforeAll(async () => {
  world = await posApp({ STORAGE_PATH: mkdtempSync(join(tmpdir(), "mesa-landing-")) });
  const db = world.app.db;
  r = addRequirements(db, world.w);
  const hq = db.insert(headquarters).values({ businessId: world.w.business, name: "Sede Lima" }).returning().get().id;
  const role = (name: string) => findRoleByName(db, name)!.id;
  const custom = {
    till: makeRole(db, "till only", ["sales.create", "sales.view", "diners.view", "diners.manage"]),
    keeper: makeRole(db, "food keeper", ["food.view", "food.manage"]),
    reader: makeRole(db, "menu reader", ["menu.view"]),
    sales: makeRole(db, "sales reader", ["sales.view"]),
  };
  const office = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Oficina",
    headquarters_id: hq,
    role_ids: [
      role("buyer"),
      role("nutritionist"),
      role("administrator"),
      role("operations manager"),
      custom.keeper,
      custom.reader,
      custom.sales,
    ],
  }).id;
  const caja = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Caja propia",
    cafe_id: world.w.norte,
    role_ids: [custom.till],
  }).id;
  const person = async (key: string, areaId: number, roleId: number) => {
    const user = await addUser(db, key, `${key}@landing.test`);
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    people[key] = user;
  };
  await person("buyer", office, role("buyer"));
  await person("nutritionist", office, role("nutritionist"));
  await person("administrator", office, role("administrator"));
  await person("operations", office, role("operations manager"));
  await person("keeper", office, custom.keeper);
  await person("reader", office, custom.reader);
  await person("accountant", office, custom.sales);
  await person("till", caja, custom.till);
  people.cashier = world.people.cajera;
  people.manager = world.people.jefa;
  people.root = world.people.root;
  people.nobody = await addUser(db, "Sin Rol", "nobody@landing.test");
});

const landing = async (who: string) => {
  const response = await signIn(new Client(world.app), people[who]);
  expect(response.status).toBe(302);
  return response.headers.get("location");
};

describe("the first page after sign-in", () => {
  test("each starting role lands on the page it works on", async () => {
    expect({
      cashier: await landing("cashier"),
      nutritionist: await landing("nutritionist"),
      buyer: await landing("buyer"),
      manager: await landing("manager"),
      administrator: await landing("administrator"),
      operations: await landing("operations"),
      root: await landing("root"),
    }).toEqual({
      cashier: "/dinners",
      nutritionist: "/menu/schedule",
      buyer: "/menu/requirements",
      manager: "/dashboard",
      administrator: "/dashboard",
      operations: "/dashboard",
      root: "/dashboard",
    });
  });

  test("roles an administrator made land by their permissions; no job, or only reading, is the dashboard", async () => {
    expect({
      till: await landing("till"),
      keeper: await landing("keeper"),
      reader: await landing("reader"),
      accountant: await landing("accountant"),
      nobody: await landing("nobody"),
    }).toEqual({
      till: "/dinners",
      keeper: "/food",
      reader: "/dashboard",
      accountant: "/dashboard",
      nobody: "/dashboard",
    });
  });

  test("the landing page opens for the person who lands on it", async () => {
    for (const [who, path] of [
      ["cashier", "/dinners"],
      ["nutritionist", "/menu/schedule"],
      ["buyer", "/menu/requirements"],
      ["keeper", "/food"],
    ] as const) {
      const client = await signInAs(new Client(world.app), people[who], path);
      expect({ who, status: (await client.visit(path)).response.status }).toEqual({ who, status: 200 });
    }
  });

  test("the page a guest was sent to sign in from still wins", async () => {
    const cashier = new Client(world.app);
    expect((await cashier.get("/dashboard")).headers.get("location")).toBe("/login");
    await signInAs(cashier, people.cashier, "/dashboard");
    const buyer = new Client(world.app);
    expect((await buyer.get("/providers")).headers.get("location")).toBe("/login");
    await signInAs(buyer, people.buyer, "/providers");
  });
});

describe("the buyer and what to buy", () => {
  test("the buyer has the Menu entry and opens What to buy for a cafe of the business, read only", async () => {
    const buyer = await signInAs(new Client(world.app), people.buyer);
    const { response, page } = await buyer.visit(
      `/menu/requirements?cafe=${world.w.norte}&from=${r.monday}&to=${r.tuesday}`,
    );
    expect(response.status).toBe(200);
    expect(page.component).toBe("menu/requirements");
    expect(page.props.requirements.totalCents).toBeGreaterThan(0);
    expect(page.props.can.manage).toBe(false);
    expect((page.props.navigation as { route: string }[]).map((e) => e.route)).toContain("menu.structures");
  });

  test("the buyer makes and downloads the workbook", async () => {
    const buyer = await signInAs(new Client(world.app), people.buyer);
    const started = await buyer.request("/menu/requirements/export", {
      method: "POST",
      json: { cafe: world.w.norte, from: r.monday, to: r.tuesday },
      headers: { accept: "application/json" },
    });
    expect(started.status).toBe(202);
    await world.app.services.jobs.idle();
    const { job } = (await (
      await buyer.get(`/menu/requirements?job=1`, { headers: { accept: "application/json" } })
    ).json()) as { job: { state: string; downloadUrl: string } };
    expect(job.state).toBe("succeeded");
    const download = await buyer.get(job.downloadUrl);
    expect(download.status).toBe(200);
    const book = XLSX.read(new Uint8Array(await download.arrayBuffer()), { type: "array" });
    expect(book.SheetNames[0]).toBe("Resumen");
  });

  test("the buyer cannot change a menu: the schedule, servings and a forecast stay closed", async () => {
    const buyer = await signInAs(new Client(world.app), people.buyer);
    const day = await submitJson(buyer, "PUT", `/menu/schedule/${world.w.norte}/${r.wednesday}`, { slots: [] });
    expect(day.status).toBe(403);
    const copy = await submitJson(buyer, "POST", `/menu/schedule/${world.w.norte}/copy`, {});
    expect(copy.status).toBe(403);
    const servings = await submitJson(buyer, "PUT", "/menu/requirements/servings", {
      cafe: world.w.norte,
      date: r.monday,
      servings: {},
    });
    expect(servings.status).toBe(403);
  });

  test("a database of the version before gets the buyer's grant once, at start; an administrator's revoke then stays", async () => {
    const db = world.app.db;
    const buyerRole = findRoleByName(db, "buyer")!.id;
    const menuView = db.select().from(permissions).where(eq(permissions.name, "menu.view")).get()!.id;
    // As the version before left it: the buyer neither holds menu.view nor was ever given it.
    db.delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, buyerRole), eq(rolePermissions.permissionId, menuView)))
      .run();
    db.delete(startingRoleGrants)
      .where(and(eq(startingRoleGrants.roleName, "buyer"), eq(startingRoleGrants.permission, "menu.view")))
      .run();
    db.transaction((tx) => bumpAccessVersion(tx));
    const buyer = await signInAs(new Client(world.app), people.buyer);
    const page = `/menu/requirements?cafe=${world.w.norte}`;
    expect((await buyer.get(page)).status).toBe(403);

    bootstrapAccess(db); // what every start does
    expect((await buyer.get(page)).status).toBe(200);

    // An administrator takes it away again on the Roles page: the next starts leave it away.
    const root = await signInAs(new Client(world.app), people.root);
    const kept = STARTING_ROLES.find((x) => x.name === "buyer")!.permissions.filter((p) => p !== "menu.view");
    const saved = await submit(root, "PUT", `/roles/${buyerRole}`, { name: "buyer", permissions: kept }, "/roles");
    expect(saved.status).toBe(303);
    expect((await buyer.get(page)).status).toBe(403);
    bootstrapAccess(db);
    bootstrapAccess(db);
    expect((await buyer.get(page)).status).toBe(403);
    expect(db.select().from(roles).where(eq(roles.id, buyerRole)).get()!.name).toBe("buyer");
  });
});
