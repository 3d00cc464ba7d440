/**
 * What the web does, the command line does: with Mesa running (its embedded realtime server on a free loopback
 * port, as in protocol.test.ts), `./mesa user:deactivate` and `./mesa blacklist:add`, run as separate processes on
 * the same database file, reach it through the Pusher HTTP API and sign the person out exactly like the Users and
 * Blacklist pages: SessionEnded on their private channel, then every connection that acts for them closed (4009),
 * also one Mesa authorized for them that never signed in. Without a running Mesa: cli/events.test.ts.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { findUserById, type User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { migrateDatabase, openDatabase } from "../../src/db";
import { createApp } from "../../src/http/app";
import { routes } from "../../src/http/routes";
import { createServices } from "../../src/http/services";
import { BASE, Client, TEST_APP_KEY, testConfig, type TestApp } from "../support/app";
import { MESA } from "../support/cli";
import { addUser, makeRole } from "../support/people";
import { signedIn } from "../support/requests";
import { eventually } from "../support/eventually";

type Json = Record<string, any>;

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch {}
  }
});

/** Polls `check` until it returns something (truthy). */
interface Mesa {
  testApp: TestApp;
  port: number;
  /** The settings a `./mesa` process on the same database and realtime server runs with. */
  cliEnv: Record<string, string>;
  root: User;
  sara: User;
  beto: User;
  carla: User;
}

/** Mesa on a free loopback port and a database file, with a super-administrator and three cashiers of one cafe. */
async function startMesa(): Promise<Mesa> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  const dir = mkdtempSync(join(tmpdir(), "mesa-cli-parity-"));
  // The command line finds the realtime server where the web server is (APP_URL), with the same app key.
  const cliEnv = {
    DB_PATH: join(dir, "mesa.sqlite"),
    STORAGE_PATH: join(dir, "storage"),
    APP_URL: `http://127.0.0.1:${port}`,
    APP_KEY: TEST_APP_KEY,
    APP_LOCALE: "en",
    NODE_ENV: "test",
    LOG_REQUESTS: "false",
  };
  const config = testConfig({ ...cliEnv, PUSHER_HOST: "127.0.0.1", PUSHER_PORT: String(port), PUSHER_SCHEME: "http" });
  const db = openDatabase(cliEnv.DB_PATH);
  migrateDatabase(db);
  const services = createServices(config, db, { routes });
  const app = createApp(services);
  app.listen({ port, hostname: "127.0.0.1" });
  cleanups.push(async () => {
    services.realtime!.stop();
    await app.stop(true);
    db.$client.close();
  });
  const testApp: TestApp = {
    app,
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes,
  };

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
  const person = async (name: string, email: string, areaId: number, roleId: number) => {
    const user = await addUser(db, name, email);
    assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  return {
    testApp,
    port,
    cliEnv,
    root: await person("Raíz Super", "root@mesa.test", sede, superRole),
    sara: await person("Sara Caja", "sara@mesa.test", caja, cashier),
    beto: await person("Beto Caja", "beto@mesa.test", caja, cashier),
    carla: await person("Carla Caja", "carla@mesa.test", caja, cashier),
  };
}

/** `./mesa ARGS` in a process of its own, without blocking this one (its Mesa has to answer). */
async function mesa(m: Mesa, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn([MESA, ...args], {
    env: { ...process.env, ...m.cliEnv },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, out, err };
}

/**
 * A browser tab's realtime connection, authorized by Mesa's own endpoints for the signed-in `client`: it joins
 * the user's private channel and, when `signIn`, also does pusher:signin (as app-layout.tsx does). Without it, Mesa
 * only knows the socket through /broadcasting/auth.
 */
class Tab {
  readonly frames: Json[] = [];
  closeCode: number | null = null;
  socketId = "";
  /** How many frames the setup took: what came after is what the test looks at. */
  private setup = 0;

  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => this.frames.push(JSON.parse(String(event.data))));
    ws.addEventListener("close", (event) => (this.closeCode = event.code));
  }

  static async open(m: Mesa, client: Client, user: User, signIn: boolean): Promise<Tab> {
    const ws = new WebSocket(
      `ws://127.0.0.1:${m.port}/app/${m.testApp.services.realtimeApp.key}?protocol=7&client=js&version=8.4.0`,
    );
    const tab = new Tab(ws);
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.close());
    const established = await eventually(
      () => tab.frames.find((f) => f.event === "pusher:connection_established"),
      "connection_established",
    );
    tab.socketId = JSON.parse(established.data).socket_id;
    const endpoint = async (path: string, form: Record<string, string>) => {
      const response = await client.request(path, {
        method: "POST",
        body: new URLSearchParams(form).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    };
    if (signIn) {
      const signin = await endpoint("/broadcasting/user-auth", { socket_id: tab.socketId });
      tab.send("pusher:signin", signin);
      await eventually(() => tab.frames.some((f) => f.event === "pusher:signin_success"), "signin_success");
    }
    const channel = `private-App.Models.User.${user.id}`;
    const auth = await endpoint("/broadcasting/auth", { socket_id: tab.socketId, channel_name: channel });
    tab.send("pusher:subscribe", { channel, ...auth });
    await eventually(
      () => tab.frames.some((f) => f.event === "pusher_internal:subscription_succeeded" && f.channel === channel),
      "subscription_succeeded",
    );
    tab.setup = tab.frames.length;
    return tab;
  }

  send(event: string, data: Json): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** What the tab received after its setup, and how it was closed, with the user's id written as {id}. */
  seen(user: User): { frames: Json[]; closed: number | null } {
    const frames = this.frames.slice(this.setup).map((f) => ({
      ...f,
      ...(f.channel === undefined ? {} : { channel: String(f.channel).replace(String(user.id), "{id}") }),
      data: typeof f.data === "string" ? JSON.parse(f.data) : f.data,
    }));
    return { frames, closed: this.closeCode };
  }
}

/** Two tabs of `user`: one signed in on its socket, one Mesa authorized that never signed in. */
async function tabsOf(m: Mesa, user: User): Promise<Tab[]> {
  const client = await signedIn(m.testApp, user);
  return [await Tab.open(m, client, user, true), await Tab.open(m, client, user, false)];
}

async function untilClosed(tabs: Tab[]): Promise<void> {
  await eventually(() => tabs.every((t) => t.closeCode !== null), "the tabs to be closed");
}

describe("the command line signs people out like the web, through the running Mesa", () => {
  test("./mesa user:deactivate: SessionEnded on the private channel, then every connection of the user closed (4009), as on the Users page", async () => {
    const m = await startMesa();
    const [saraTabs, betoTabs, carlaTabs] = [
      await tabsOf(m, m.sara),
      await tabsOf(m, m.beto),
      await tabsOf(m, m.carla),
    ];

    // Sara from the Users page.
    const root = await signedIn(m.testApp, m.root);
    const response = await root.request(`/users/${m.sara.id}/deactivate`, {
      method: "POST",
      inertia: true,
      json: {},
      headers: { referer: `${BASE}/users` },
    });
    expect(response.status).toBe(302);
    await untilClosed(saraTabs);

    // Beto from the command line, another process.
    const { code, out, err } = await mesa(m, ["user:deactivate", "beto@mesa.test"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe(
      "Deactivated beto@mesa.test; their sessions have ended.\nTheir open tabs were signed out and their realtime connections closed.\n",
    );
    await untilClosed(betoTabs);
    expect(findUserById(m.testApp.db, m.beto.id)!.status).toBe("deactivated");

    const expected = {
      frames: [
        {
          event: "App\\Events\\SessionEnded",
          channel: "private-App.Models.User.{id}",
          data: { reason: "deactivated" },
        },
        // terminate_connections: the protocol's error, then the close.
        { event: "pusher:error", data: { code: 4009, message: "Connections terminated by the app" } },
      ],
      closed: 4009,
    };
    // The tab that signed in hears SessionEnded, then closes; the one that never signed in is closed as well.
    expect(saraTabs.map((t) => t.seen(m.sara))).toEqual([expected, { ...expected }]);
    expect(betoTabs.map((t) => t.seen(m.beto))).toEqual(saraTabs.map((t) => t.seen(m.sara)));
    // Carla is not touched.
    expect(carlaTabs.map((t) => t.seen(m.carla))).toEqual([
      { frames: [], closed: null },
      { frames: [], closed: null },
    ]);
    expect(m.testApp.services.realtime!.connectionCount).toBe(2);
  });

  test("./mesa blacklist:add --user: the same as barring the account on the Blacklist page", async () => {
    const m = await startMesa();
    const [saraTabs, betoTabs, carlaTabs] = [
      await tabsOf(m, m.sara),
      await tabsOf(m, m.beto),
      await tabsOf(m, m.carla),
    ];

    const root = await signedIn(m.testApp, m.root);
    const response = await root.request("/blacklist", {
      method: "POST",
      inertia: true,
      json: { document_number: "11112222", name: "Sara Caja", reason: "Robo de vales", user_email: "sara@mesa.test" },
      headers: { referer: `${BASE}/blacklist` },
    });
    expect(response.status).toBe(302);
    await untilClosed(saraTabs);

    const { code, out, err } = await mesa(m, [
      "blacklist:add",
      "33334444",
      "--reason",
      "Robo de vales",
      "--user",
      "beto@mesa.test",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe(
      "Added DNI 33334444 (Beto Caja) to the blacklist: Robo de vales\nbeto@mesa.test can no longer sign in; their sessions have ended.\nTheir open tabs were signed out and their realtime connections closed.\n",
    );
    await untilClosed(betoTabs);

    const expected = {
      frames: [
        {
          event: "App\\Events\\SessionEnded",
          channel: "private-App.Models.User.{id}",
          data: { reason: "blacklisted" },
        },
        // terminate_connections: the protocol's error, then the close.
        { event: "pusher:error", data: { code: 4009, message: "Connections terminated by the app" } },
      ],
      closed: 4009,
    };
    expect(saraTabs.map((t) => t.seen(m.sara))).toEqual([expected, { ...expected }]);
    expect(betoTabs.map((t) => t.seen(m.beto))).toEqual(saraTabs.map((t) => t.seen(m.sara)));
    expect(carlaTabs.map((t) => t.seen(m.carla))).toEqual([
      { frames: [], closed: null },
      { frames: [], closed: null },
    ]);
  });
});
