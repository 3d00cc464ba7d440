/**
 * Realtime across servers: two Mesa servers (real processes) on one database file, set to BROADCAST_DRIVER=pusher,
 * and Mesa's realtime server as a third process standing in for a hosted Pusher-protocol service (reached through
 * the same `pusher` SDK settings a hosted account uses). A till whose socket was authorized by one server hears a
 * sale made through the other; the servers then embed no endpoint of their own, and the service checks the app's key
 * and secret as a hosted one does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { EVENT_NAMESPACE } from "../../src/realtime/broadcaster";
import { dateIn } from "../../src/shared/calendar";
import { type Client, type TestApp, fileTestApp } from "../support/app";
import { freePort, headersOf, startMesa, type MesaProcess } from "../support/mesa-process";
import { populatePos, type PosPeople } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";
import { eventually } from "../support/eventually";

type Json = Record<string, any>;

const SALE_CHANGED = `${EVENT_NAMESPACE}.SaleChanged`.replace(/\./g, "\\");
const ROOT = join(import.meta.dir, "..", "..");
const APP = { PUSHER_APP_ID: "mesa-multi", PUSHER_APP_KEY: "mesa-multi-key", PUSHER_APP_SECRET: "s3cret-multi-0123" };

/** A raw Pusher-protocol socket: every frame it receives, and its socket id. */
async function connect(url: string): Promise<{ ws: WebSocket; frames: Json[]; socketId: string }> {
  const ws = new WebSocket(url);
  const frames: Json[] = [];
  ws.addEventListener("message", (event) => frames.push(JSON.parse(String(event.data))));
  const established = await eventually(
    () => frames.find((f) => f.event === "pusher:connection_established"),
    `a connection to ${url}`,
  );
  return { ws, frames, socketId: JSON.parse(established.data).socket_id };
}

describe("two Mesa servers and one Pusher-protocol service", () => {
  let folder: string;
  let dbPath: string;
  let testApp: TestApp;
  let w: PosWorld;
  let people: PosPeople;
  let realtime: Subprocess<"ignore", "pipe", "pipe">;
  let realtimeOutput = "";
  let realtimePort: number;
  const servers: MesaProcess[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mesa-realtime-multi-"));
    dbPath = join(folder, "mesa.sqlite");
    testApp = fileTestApp(dbPath);
    ({ w, people } = await populatePos(testApp.db, testApp.config));
    realtimePort = freePort();
    const shared = {
      ...APP,
      BROADCAST_DRIVER: "pusher",
      PUSHER_HOST: "127.0.0.1",
      PUSHER_PORT: String(realtimePort),
      PUSHER_SCHEME: "http",
    };
    realtime = Bun.spawn([process.execPath, "src/realtime-server.ts"], {
      cwd: ROOT,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "info", HOST: "127.0.0.1", ...shared },
    });
    void (async () => {
      const decoder = new TextDecoder();
      const reader = realtime.stdout.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        realtimeOutput += decoder.decode(chunk.value);
    })();
    await eventually(() => realtimeOutput.includes("realtime server is running"), "the realtime server", 15_000);
    for (let i = 0; i < 2; i++) servers.push(await startMesa(dbPath, freePort(), shared));
    for (const server of servers) expect(server.output()).toContain("Mesa is running at");
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill("SIGKILL");
    realtime?.kill("SIGTERM");
    await Promise.all([...servers.map((s) => s.exited), realtime?.exited]);
    rmSync(folder, { recursive: true, force: true });
  });

  /** A till: a socket on the realtime service, subscribed to the cafe's sales through `server`'s authorization. */
  async function till(client: Client, server: MesaProcess, channel: string) {
    const socket = await connect(`ws://127.0.0.1:${realtimePort}/app/${APP.PUSHER_APP_KEY}?protocol=7&client=raw`);
    const response = await fetch(`${server.origin}/broadcasting/auth`, {
      method: "POST",
      headers: {
        ...headersOf(client),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ socket_id: socket.socketId, channel_name: channel }).toString(),
    });
    expect(response.status).toBe(200);
    socket.ws.send(
      JSON.stringify({ event: "pusher:subscribe", data: { channel, auth: (await response.json()).auth } }),
    );
    await eventually(
      () => socket.frames.find((f) => f.channel === channel && f.event === "pusher_internal:subscription_succeeded"),
      `the subscription to ${channel}`,
    );
    return socket;
  }

  test("a sale made through one server reaches a till authorized by the other", async () => {
    const [a, b] = servers;
    const cajera = await signedIn(testApp, people.cajera);
    const channel = `private-cafe.${w.norte}.sales`;
    const onB = await till(cajera, b, channel);
    const sale = await fetch(`${a.origin}/sales`, {
      method: "POST",
      headers: headersOf(cajera),
      body: JSON.stringify({
        key: `multi-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: dateIn("America/Lima"),
        sale_type: "cash",
        other_unit_confirmed: false,
        lines: [{ service_id: w.alm, quantity: 1 }],
      }),
    });
    expect(sale.status).toBe(201);
    const { id } = await sale.json();
    const heard = await eventually(
      () =>
        onB.frames
          .filter((f) => f.event === SALE_CHANGED)
          .map((f) => JSON.parse(f.data))
          .find((data) => data.saleId === id),
      "the sale on the other server's till",
    );
    expect(heard).toMatchObject({ saleId: id, cafeId: w.norte, change: "recorded" });
    onB.ws.close();
  });

  test("the servers embed no realtime of their own then: their /app endpoint is not there", async () => {
    const response = await fetch(`${servers[0].origin}/app/${APP.PUSHER_APP_KEY}`);
    expect(response.status).toBe(404);
  });

  test("the realtime server refuses a socket with another app's key, and a signed request without the secret", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${realtimePort}/app/another-key?protocol=7`);
    const closed = await new Promise<number>((resolve) => socket.addEventListener("close", (e) => resolve(e.code)));
    expect(closed).toBe(4001);
    const events = await fetch(`http://127.0.0.1:${realtimePort}/apps/${APP.PUSHER_APP_ID}/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "x", channels: ["public"], data: "{}" }),
    });
    expect(events.status).toBe(401);
  });
});
