/**
 * The point-of-sale world of tests/support/pos.ts inside a test app, with people who sign in: a super-administrator,
 * two cashiers and a cafe manager at Comedor Norte, a cashier at Comedor Sur, someone at Norte who sees diners but
 * cannot sell, and someone at Norte who sells but cannot see sales. Roles are the starting roles (the catalogue's
 * grants), so the tests also check what a real cashier and cafe manager may do.
 */
import { rolesSeeder } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";
import { createTestApp, type TestApp } from "./app";
import { addUser, dni, makeRole } from "./people";
import { posWorld, type PosWorld } from "./pos";

export interface PosPeople {
  root: User;
  /** Cashiers of Comedor Norte. */
  cajera: User;
  cajero: User;
  /** Cafe manager of Comedor Norte (backdate, void any sale, prices). */
  jefa: User;
  /** Cashier of Comedor Sur. */
  surena: User;
  /** At Norte with diners.view only. */
  mirona: User;
  /** At Norte with sales.create and diners.view, without sales.view. */
  ciega: User;
}

export interface PosApp {
  app: TestApp;
  w: PosWorld;
  people: PosPeople;
}

/** A test app (in memory) with the point-of-sale world and its people. */
export async function posApp(env: Record<string, string> = {}): Promise<PosApp> {
  const app = createTestApp({ env });
  return { app, ...(await populatePos(app.db, app.config)) };
}

/** Writes the point-of-sale world and its people into a migrated database. */
export async function populatePos(db: Db, config: Config): Promise<{ w: PosWorld; people: PosPeople }> {
  await rolesSeeder.run(db, config);
  const w = posWorld(db);
  const role = (name: string) => findRoleByName(db, name)!.id;
  const onlyDiners = makeRole(db, "diners only", ["diners.view"]);
  const blindSeller = makeRole(db, "blind seller", ["sales.create", "diners.view"]);
  const area = (name: string, cafeId: number, roleIds: number[]) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, cafe_id: cafeId, role_ids: roleIds }).id;
  const cajaNorte = area("Caja Norte", w.norte, [
    role(SUPER_ROLE),
    role("cashier"),
    role("cafe manager"),
    onlyDiners,
    blindSeller,
  ]);
  const cajaSur = area("Caja Sur", w.sur, [role("cashier")]);
  const person = async (name: string, email: string, areaId: number, roleId: number, document: string) => {
    const user = await addUser(db, name, email, dni(document));
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  const people: PosPeople = {
    root: await person("Raíz Super", "root@mesa.test", cajaNorte, role(SUPER_ROLE), "10000001"),
    cajera: await person("Cajera Norte", "cajera@mesa.test", cajaNorte, role("cashier"), "10000002"),
    cajero: await person("Cajero Norte", "cajero@mesa.test", cajaNorte, role("cashier"), "10000003"),
    jefa: await person("Jefa Norte", "jefa@mesa.test", cajaNorte, role("cafe manager"), "10000004"),
    surena: await person("Cajera Sur", "surena@mesa.test", cajaSur, role("cashier"), "10000005"),
    mirona: await person("Mira Nomás", "mirona@mesa.test", cajaNorte, onlyDiners, "10000006"),
    ciega: await person("Vende Aciegas", "ciega@mesa.test", cajaNorte, blindSeller, "10000007"),
  };
  return { w, people };
}
