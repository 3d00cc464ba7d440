/**
 * Domain events: the services that deactivate and bar people publish what they did once their transaction has
 * committed, never when it failed, and the Users and Blacklist pages go through them, so the web and the command
 * line (cli/events.test.ts, tests/realtime/cli-parity.test.ts) have the same effects.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { setUserStatus } from "../../src/domain/access/users-admin";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findUserById, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { EventBus, type DomainEvent, type EventOrigin } from "../../src/domain/events";
import type { Db } from "../../src/db";
import { BASE, createTestApp, type TestApp } from "../support/app";
import type { Document } from "../../src/shared/documents";
import { Conflict } from "../../src/domain/errors";
import { addUser, dni, makeRole } from "../support/people";
import { signedIn } from "../support/requests";

interface World {
  app: TestApp;
  db: Db;
  root: User;
  sara: User;
  beto: User;
}

/** A super-administrator at headquarters and two cashiers of one cafe, on a fresh app. */
async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const cashier = makeRole(db, "caja", []);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafe = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración X",
    headquarters_id: x.headquartersId,
    role_ids: [superRole],
  }).id;
  const caja = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Caja A", cafe_id: cafe, role_ids: [cashier] }).id;
  const person = async (
    name: string,
    email: string,
    areaId: number,
    roleId: number,
    document: Document | null = null,
  ) => {
    const user = await addUser(db, name, email, document);
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  return {
    app,
    db,
    root: await person("Raíz Super", "root@mesa.test", sede, superRole),
    sara: await person("Sara Caja", "sara@mesa.test", caja, cashier, dni("12345678")),
    beto: await person("Beto Caja", "beto@mesa.test", caja, cashier),
  };
}

interface Heard {
  event: DomainEvent;
  origin: EventOrigin;
  /** Whether the change was committed when the subscriber ran (no transaction open on the connection). */
  committed: boolean;
  /** The user's status and open sessions as the subscriber saw them. */
  status: string | undefined;
  sessions: number;
}

/** A bus whose only subscriber writes down every event with what the database said at that moment. */
function listeningBus(db: Db): { bus: EventBus; heard: Heard[] } {
  const heard: Heard[] = [];
  const bus = new EventBus();
  const listen = (event: DomainEvent<"UserDeactivated" | "UserBarred">, origin: EventOrigin) => {
    heard.push({
      event,
      origin,
      committed: !db.$client.inTransaction,
      status: findUserById(db, event.userId)?.status,
      sessions: db.$client
        .query<{ n: number }, [number]>("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?")
        .get(event.userId)!.n,
    });
  };
  bus.subscribe("UserDeactivated", listen);
  bus.subscribe("UserBarred", listen);
  return { bus, heard };
}

function addSession(db: Db, userId: number, id: string): void {
  db.$client.query("INSERT INTO sessions (id, user_id, data, last_activity) VALUES (?, ?, '{}', 0)").run(id, userId);
}

/** Makes every audit entry fail: the service's transaction then fails at its last statement and is rolled back. */
function refuseAudit(db: Db): void {
  db.$client.run(
    "CREATE TEMP TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END",
  );
}

let w: World;

beforeEach(async () => {
  w = await buildWorld();
});

describe("domain events", () => {
  test("deactivating publishes UserDeactivated after the transaction committed: the status and the ended sessions are already there", async () => {
    addSession(w.db, w.sara.id, "s-sara");
    const { bus, heard } = listeningBus(w.db);
    const publisher = bus.publisher();
    setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.sara.id, "deactivated", publisher);
    await publisher.settled();
    expect(heard).toEqual([
      {
        event: { name: "UserDeactivated", userId: w.sara.id },
        origin: { socketId: null },
        committed: true,
        status: "deactivated",
        sessions: 0,
      },
    ]);
    expect(publisher.published).toEqual([{ name: "UserDeactivated", userId: w.sara.id }]);
  });

  test("nothing is published when the transaction fails, when nothing changes, or on reactivation", async () => {
    const { bus, heard } = listeningBus(w.db);
    const publisher = bus.publisher();
    // The last super-administrator: refused inside the transaction.
    expect(() => setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.root.id, "deactivated", publisher)).toThrow();
    expect(findUserById(w.db, w.root.id)!.status).toBe("active");
    // A statement of the transaction fails: everything is rolled back, and nothing is announced.
    addSession(w.db, w.sara.id, "s-sara");
    refuseAudit(w.db);
    expect(() => setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.sara.id, "deactivated", publisher)).toThrow(
      /audit refused/,
    );
    expect(findUserById(w.db, w.sara.id)!.status).toBe("active");
    expect(w.db.$client.query("SELECT id FROM sessions WHERE user_id = ?").all(w.sara.id)).toHaveLength(1);
    w.db.$client.run("DROP TRIGGER refuse_audit");
    // Already deactivated: no change, no event; reactivation publishes nothing either.
    setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.beto.id, "deactivated");
    setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.beto.id, "deactivated", publisher);
    setUserStatus(w.db, CLI_ACTOR, EVERYTHING, w.beto.id, "active", publisher);
    await publisher.settled();
    expect(heard).toEqual([]);
    expect(publisher.published).toEqual([]);
  });

  test("barring publishes UserBarred after commit for the linked account and every account with the document; a bar that reaches no account publishes nothing", async () => {
    // Another account of Sara's, with her document number: the entry bars it too.
    const saraAgain = await addUser(w.db, "Sara Otra", "sara.otra@mesa.test", dni("12345678"));
    addSession(w.db, w.sara.id, "s-sara");
    addSession(w.db, saraAgain.id, "s-sara-otra");
    addSession(w.db, w.beto.id, "s-beto");
    const { bus, heard } = listeningBus(w.db);
    const publisher = bus.publisher();
    const entry = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "12345678", name: "Sara Caja", reason: "Robo de vales", user_id: w.sara.id },
      w.app.config,
      publisher,
    );
    const nobody = addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { document_number: "99990000", name: "Nadie", reason: "Robo de vales" },
      w.app.config,
      publisher,
    );
    expect(nobody.userId).toBeNull();
    await publisher.settled();
    expect(heard.map(({ event, committed, sessions }) => ({ event, committed, sessions }))).toEqual([
      { event: { name: "UserBarred", userId: w.sara.id, entryId: entry.id }, committed: true, sessions: 0 },
      { event: { name: "UserBarred", userId: saraAgain.id, entryId: entry.id }, committed: true, sessions: 0 },
    ]);
    expect(w.db.$client.query("SELECT id FROM sessions").all()).toEqual([{ id: "s-beto" }]);
  });

  test("barring publishes nothing when the transaction fails", async () => {
    const { bus, heard } = listeningBus(w.db);
    const publisher = bus.publisher();
    expect(() =>
      addToBlacklist(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        { document_number: "90000001", name: "Raíz Super", reason: "Robo de vales", user_id: w.root.id },
        w.app.config,
        publisher,
      ),
    ).toThrow(Conflict);
    refuseAudit(w.db);
    expect(() =>
      addToBlacklist(
        w.db,
        CLI_ACTOR,
        EVERYTHING,
        { document_number: "12345678", name: "Sara Caja", reason: "Robo de vales" },
        w.app.config,
        publisher,
      ),
    ).toThrow(/audit refused/);
    expect(w.db.$client.query("SELECT id FROM blacklist").all()).toEqual([]);
    await publisher.settled();
    expect(heard).toEqual([]);
  });

  test("subscribers run in the order they subscribed; one that fails is reported and the next still runs", async () => {
    const failures: string[] = [];
    const bus = new EventBus((error, event) => failures.push(`${event.name}: ${(error as Error).message}`));
    const ran: string[] = [];
    bus.subscribe("UserDeactivated", async () => {
      await Bun.sleep(5);
      ran.push("first");
      throw new Error("no realtime server");
    });
    bus.subscribe("UserDeactivated", () => void ran.push("second"));
    const publisher = bus.publisher({ socketId: "1.2" });
    publisher.publish({ name: "UserDeactivated", userId: 7 });
    await publisher.settled();
    expect(ran).toEqual(["first", "second"]);
    expect(failures).toEqual(["UserDeactivated: no realtime server"]);
  });
});

describe("the Users and Blacklist pages publish through the domain", () => {
  test("deactivating on the Users page publishes UserDeactivated, with the tab that asked as the origin", async () => {
    const { heard } = listeningOn(w.app);
    const root = await signedIn(w.app, w.root);
    const response = await root.request(`/users/${w.sara.id}/deactivate`, {
      method: "POST",
      inertia: true,
      json: {},
      headers: { referer: `${BASE}/users`, "x-socket-id": "123.456" },
    });
    expect(response.status).toBe(302);
    expect(heard).toEqual([{ event: { name: "UserDeactivated", userId: w.sara.id }, origin: { socketId: "123.456" } }]);
    // Refused before the service (not yourself): nothing.
    await root.request(`/users/${w.root.id}/deactivate`, {
      method: "POST",
      inertia: true,
      json: {},
      headers: { referer: `${BASE}/users` },
    });
    expect(heard).toHaveLength(1);
  });

  test("barring on the Blacklist page publishes UserBarred for the linked account; a refused bar publishes nothing", async () => {
    const { heard } = listeningOn(w.app);
    const root = await signedIn(w.app, w.root);
    const from = { referer: `${BASE}/blacklist` };
    const response = await root.request("/blacklist", {
      method: "POST",
      inertia: true,
      json: { document_number: "90000002", name: "Beto Caja", reason: "Robo de vales", user_email: "beto@mesa.test" },
      headers: from,
    });
    expect(response.status).toBe(302);
    const entry = w.db.$client.query<{ id: number }, []>("SELECT id FROM blacklist").get()!;
    expect(heard).toEqual([
      { event: { name: "UserBarred", userId: w.beto.id, entryId: entry.id }, origin: { socketId: null } },
    ]);
    // The same document again: refused, nothing published.
    await root.request("/blacklist", {
      method: "POST",
      inertia: true,
      json: { document_number: "90000002", name: "Beto Caja", reason: "Robo de vales" },
      headers: from,
    });
    expect(heard).toHaveLength(1);
  });
});

/** Adds a subscriber to the app's own bus (next to its realtime subscribers) that writes down what it hears. */
function listeningOn(app: TestApp): { heard: { event: DomainEvent; origin: EventOrigin }[] } {
  const heard: { event: DomainEvent; origin: EventOrigin }[] = [];
  app.services.events.subscribe("UserDeactivated", (event, origin) => void heard.push({ event, origin }));
  app.services.events.subscribe("UserBarred", (event, origin) => void heard.push({ event, origin }));
  return { heard };
}
