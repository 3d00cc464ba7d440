/**
 * The point of sale's live channel, with Mesa listening on a loopback port and its embedded Pusher-protocol server:
 * a raw WebSocket subscribed to `private-cafe.{id}.sales` (authorized by Mesa's /broadcasting/auth as a signed-in
 * person) hears SaleChanged when another session sells or voids at the cafe, the tab that made the change (its
 * X-Socket-ID) is left out, and people without sales.view or outside the cafe's scope are refused the channel.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { migratedDatabase } from "../support/database";
import { dateIn } from "../../src/shared/calendar";
import { createApp } from "../../src/http/app";
import { routes as productRoutes } from "../../src/http/routes";
import { createServices } from "../../src/http/services";
import { EVENT_NAMESPACE, realtimeCredentials } from "../../src/realtime/broadcaster";
import { EmbeddedPusherServer } from "../../src/realtime/embedded-server";
import type { AppCredentials } from "../../src/realtime/signatures";
import { Client, testConfig, type TestApp } from "../support/app";
import { populatePos, type PosPeople } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";
import { eventually } from "../support/eventually";

type Json = Record<string, any>;

/** The event's name on the wire, as Echo listens for it. */
const SALE_CHANGED = `${EVENT_NAMESPACE}.SaleChanged`.replace(/\./g, "\\");

let port: number;
let testApp: TestApp;
let realtime: EmbeddedPusherServer;
let creds: AppCredentials;
let w: PosWorld;
let people: PosPeople;
let today: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  port = probe.port!;
  await probe.stop(true);
  const config = testConfig({
    APP_URL: `http://127.0.0.1:${port}`,
    PUSHER_HOST: "127.0.0.1",
    PUSHER_PORT: String(port),
    PUSHER_SCHEME: "http",
  });
  const db = migratedDatabase();
  creds = realtimeCredentials(config, config.appKey!);
  realtime = new EmbeddedPusherServer(creds);
  const services = createServices(config, db, { routes: productRoutes, realtime });
  const app = createApp(services);
  app.listen({ port, hostname: "127.0.0.1" });
  testApp = {
    app,
    services,
    mailPath: config.mail.path,
    db,
    config,
    sessions: services.sessions,
    version: services.assets.version,
    routes: productRoutes,
  };
  ({ w, people } = await populatePos(db, config));
  today = dateIn("America/Lima");
});

afterAll(async () => {
  for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.close();
  realtime.stop();
  await testApp.app.stop(true);
});

/** A raw WebSocket to the embedded server: every frame it receives, and its socket id. */
class Socket {
  readonly frames: Json[] = [];
  socketId = "";
  private constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => this.frames.push(JSON.parse(String(event.data))));
  }

  static async connect(): Promise<Socket> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${creds.key}?protocol=7&client=raw&version=1.0`);
    sockets.push(ws);
    const socket = new Socket(ws);
    const established = await eventually(
      () => socket.frames.find((f) => f.event === "pusher:connection_established"),
      "the connection",
    );
    socket.socketId = JSON.parse(established.data).socket_id;
    return socket;
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** Subscribes with the auth Mesa gave; resolves with the server's answer (succeeded or error). */
  async subscribe(channel: string, auth: string): Promise<Json> {
    this.send("pusher:subscribe", { channel, auth });
    return eventually(
      () =>
        this.frames.find(
          (f) =>
            f.channel === channel &&
            (f.event === "pusher_internal:subscription_succeeded" || f.event === "pusher:subscription_error"),
        ),
      `an answer to the subscription to ${channel}`,
    );
  }

  /** SaleChanged events received so far, their data parsed. */
  saleEvents(): Json[] {
    return this.frames
      .filter((f) => f.event === SALE_CHANGED)
      .map((f) => ({ channel: f.channel, ...(typeof f.data === "string" ? JSON.parse(f.data) : f.data) }));
  }

  /** A ping round trip: whatever the server queued for this socket before now has arrived. */
  async sync(): Promise<void> {
    const before = this.frames.filter((f) => f.event === "pusher:pong").length;
    this.send("pusher:ping", {});
    await eventually(() => this.frames.filter((f) => f.event === "pusher:pong").length > before, "pusher:pong");
  }
}

/** Mesa's channel authorization, as the browser asks it: a form with the socket id and the channel's name. */
function authorize(client: Client, socketId: string, channel: string): Promise<Response> {
  return client.request("/broadcasting/auth", {
    method: "POST",
    body: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
  });
}

/** A socket of `client` subscribed to `channel` through Mesa's authorization. */
async function listening(client: Client, channel: string): Promise<Socket> {
  const socket = await Socket.connect();
  const response = await authorize(client, socket.socketId, channel);
  expect(response.status).toBe(200);
  const answer = await socket.subscribe(channel, (await response.json()).auth);
  expect(answer.event).toBe("pusher_internal:subscription_succeeded");
  return socket;
}

let keys = 0;
function sell(client: Client, document: string, cafeId: number, socketId?: string): Promise<Response> {
  return client.request("/sales", {
    method: "POST",
    json: {
      key: `live-key-${++keys}-${Math.random().toString(36).slice(2, 10)}`,
      cafe_id: cafeId,
      document_number: document,
      service_date: today,
      sale_type: "cash",
      lines: [{ service_id: cafeId === w.norte ? w.des : w.alm, quantity: 1 }],
    },
    headers: { accept: "application/json", ...(socketId ? { "x-socket-id": socketId } : {}) },
  });
}

const channelOf = (cafeId: number) => `private-cafe.${cafeId}.sales`;

describe("the cafe's sales channel", () => {
  test("another till hears a sale and a void at the cafe; the tab that made it does not", async () => {
    const cajera = await signedIn(testApp, people.cajera);
    const cajero = await signedIn(testApp, people.cajero);
    const otherTill = await listening(cajera, channelOf(w.norte));
    const ownTab = await listening(cajero, channelOf(w.norte));
    const sale = await sell(cajero, "40000001", w.norte, ownTab.socketId);
    expect(sale.status).toBe(201);
    const saleId = (await sale.json()).id;
    const heard = await eventually(() => otherTill.saleEvents().find((e) => e.saleId === saleId), "SaleChanged");
    expect(heard).toEqual({
      channel: channelOf(w.norte),
      saleId,
      cafeId: w.norte,
      serviceDate: today,
      change: "recorded",
    });
    await ownTab.sync();
    expect(ownTab.saleEvents()).toEqual([]);

    const voided = await cajero.request(`/sales/${saleId}/void`, {
      method: "POST",
      json: { reason: "Se equivocó de servicio" },
      headers: { accept: "application/json", "x-socket-id": ownTab.socketId },
    });
    expect(voided.status).toBe(200);
    await eventually(() => otherTill.saleEvents().find((e) => e.change === "voided"), "the void");
    expect(otherTill.saleEvents().map((e) => [e.saleId, e.change])).toEqual([
      [saleId, "recorded"],
      [saleId, "voided"],
    ]);
    await ownTab.sync();
    expect(ownTab.saleEvents()).toEqual([]);

    // A request without X-Socket-ID (a scanner, an integration) is heard by every open till, its own included.
    const plain = await sell(cajero, "40000001", w.norte);
    const plainId = (await plain.json()).id;
    await eventually(() => ownTab.saleEvents().find((e) => e.saleId === plainId), "the sale on the own tab");
    await eventually(() => otherTill.saleEvents().find((e) => e.saleId === plainId), "the sale on the other till");
  });

  test("a till of another cafe hears nothing of this cafe's sales", async () => {
    const surena = await signedIn(testApp, people.surena);
    const cajera = await signedIn(testApp, people.cajera);
    const sur = await listening(surena, channelOf(w.sur));
    const norte = await listening(cajera, channelOf(w.norte));
    const sale = await sell(cajera, "40000002", w.norte);
    const saleId = (await sale.json()).id;
    await eventually(() => norte.saleEvents().find((e) => e.saleId === saleId), "Norte's sale");
    await sur.sync();
    expect(sur.saleEvents()).toEqual([]);
    // And Sur's own sale reaches Sur.
    const own = await sell(surena, "40000003", w.sur);
    expect(own.status).toBe(201);
    await eventually(() => sur.saleEvents().find((e) => e.cafeId === w.sur), "Sur's sale");
  });

  test("without sales.view, outside the scope, or for an unknown cafe the channel is refused", async () => {
    // A connection acts for the one person who first authorized it: each question gets its own connection.
    const status = async (who: keyof PosPeople, channel: string) => {
      const socket = await Socket.connect();
      return (await authorize(await signedIn(testApp, people[who]), socket.socketId, channel)).status;
    };
    // Sells but may not see sales.
    expect(await status("ciega", channelOf(w.norte))).toBe(403);
    // Sur's cashier, Norte's channel.
    expect(await status("surena", channelOf(w.sur))).toBe(200);
    expect(await status("surena", channelOf(w.norte))).toBe(403);
    // Sees diners only.
    expect(await status("mirona", channelOf(w.norte))).toBe(403);
    expect(await status("cajera", channelOf(999_999))).toBe(403);
    expect(await status("cajera", `private-cafe.${w.norte}.sales.x`)).toBe(403);
    expect(await status("root", channelOf(w.sur))).toBe(200);
    // A guest is not signed in.
    const socket = await Socket.connect();
    const guest = new Client(testApp);
    await guest.visit("/login");
    expect((await authorize(guest, socket.socketId, channelOf(w.norte))).status).toBe(401);
    // Without Mesa's signature the embedded server refuses the subscription.
    const refused = await socket.subscribe(channelOf(w.norte), `${creds.key}:${"0".repeat(64)}`);
    expect(refused.event).toBe("pusher:subscription_error");
  });
});
