/**
 * The dashboard's live channel, with Mesa listening on a loopback port and its embedded Pusher-protocol server: a raw
 * WebSocket subscribed to `private-cafe.{id}.figures` (authorized by Mesa's /broadcasting/auth) hears FiguresChanged
 * when sales are recorded or voided at the cafe — counts and service dates, never who ate — at most once a second per
 * cafe, a burst folded into one event; the tab that made the sale hears it too (its figures moved as well); and the
 * channel is refused to people without sales.view or outside the cafe's scope.
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
const FIGURES_CHANGED = `${EVENT_NAMESPACE}.FiguresChanged`.replace(/\./g, "\\");

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
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data));
      this.frames.push(frame);
      if (frame.event === FIGURES_CHANGED) this.figureFrames.push({ at: performance.now(), frame });
    });
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

  /** FiguresChanged frames received so far, as they came (data a JSON string), with when they came. */
  readonly figureFrames: { at: number; frame: Json }[] = [];

  /** FiguresChanged events received so far, their data parsed. */
  figureEvents(): Json[] {
    return this.frames
      .filter((f) => f.event === FIGURES_CHANGED)
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
/** A cash sale through the sales route, as the point of sale sends it; `socketId` names the tab that made it. */
async function sell(client: Client, document: string, cafeId: number, socketId?: string): Promise<number> {
  const response = await client.request("/sales", {
    method: "POST",
    json: {
      key: `figures-key-${++keys}-${Math.random().toString(36).slice(2, 10)}`,
      cafe_id: cafeId,
      document_number: document,
      service_date: today,
      sale_type: "cash",
      lines: [{ service_id: cafeId === w.norte ? w.des : w.alm, quantity: 1 }],
    },
    headers: { accept: "application/json", ...(socketId ? { "x-socket-id": socketId } : {}) },
  });
  expect(response.status).toBe(201);
  return (await response.json()).id;
}

const channelOf = (cafeId: number) => `private-cafe.${cafeId}.figures`;

describe("the cafe's figures channel", () => {
  test("a burst of sales and a void is two events a second apart: the first at once, the rest folded, figures only", async () => {
    const jefa = await signedIn(testApp, people.jefa);
    const cajero = await signedIn(testApp, people.cajero);
    const dashboard = await listening(jefa, channelOf(w.norte));
    // The tab that sells is listening too: its own sale moved its figures.
    const till = await listening(cajero, channelOf(w.norte));
    const first = await sell(cajero, "40000001", w.norte, till.socketId);
    const heard = await eventually(() => dashboard.figureEvents()[0], "the first FiguresChanged");
    expect(heard).toEqual({
      channel: channelOf(w.norte),
      cafeId: w.norte,
      serviceDates: [today],
      recorded: 1,
      voided: 0,
    });
    await eventually(() => till.figureEvents()[0], "the event on the tab that sold");

    // Within the second: three more sales and a void, heard as one event once the second has passed.
    for (const document of ["40000002", "40000001", "40000002"]) await sell(cajero, document, w.norte);
    const voided = await jefa.request(`/sales/${first}/void`, {
      method: "POST",
      json: { reason: "Se equivocó de servicio" },
      headers: { accept: "application/json" },
    });
    expect(voided.status).toBe(200);
    await Bun.sleep(300);
    expect(dashboard.figureEvents()).toHaveLength(1);
    const second = await eventually(() => dashboard.figureEvents()[1], "the folded FiguresChanged", 3000);
    expect(second).toEqual({
      channel: channelOf(w.norte),
      cafeId: w.norte,
      serviceDates: [today],
      recorded: 3,
      voided: 1,
    });
    const [a, b] = dashboard.figureFrames;
    expect(b.at - a.at).toBeGreaterThanOrEqual(900);
    await Bun.sleep(1200);
    expect(dashboard.figureEvents()).toHaveLength(2);

    // What travels: counts and dates. No diner's name or document, no ticket, no amount per sale.
    for (const { frame } of dashboard.figureFrames) {
      expect(Object.keys(JSON.parse(frame.data)).sort()).toEqual(["cafeId", "recorded", "serviceDates", "voided"]);
      for (const secret of ["Ana", "Quispe", "Béto", "Huamán", "40000001", "40000002", "ticket", "saleId"])
        expect(frame.data).not.toContain(secret);
    }
  });

  test("a dashboard of another cafe hears nothing of this cafe's sales", async () => {
    const surena = await signedIn(testApp, people.surena);
    const root = await signedIn(testApp, people.root);
    const sur = await listening(surena, channelOf(w.sur));
    const norte = await listening(root, channelOf(w.norte));
    const before = norte.figureEvents().length;
    await Bun.sleep(1100);
    await sell(await signedIn(testApp, people.cajera), "40000001", w.norte);
    await eventually(() => norte.figureEvents().length > before, "Norte's figures");
    await sur.sync();
    expect(sur.figureEvents()).toEqual([]);
    await sell(surena, "40000003", w.sur);
    const own = await eventually(() => sur.figureEvents()[0], "Sur's figures");
    expect(own).toMatchObject({ cafeId: w.sur, recorded: 1, voided: 0 });
  });

  test("without sales.view, outside the scope, or for an unknown cafe the channel is refused", async () => {
    // A connection acts for the one person who first authorized it: each question gets its own connection.
    const status = async (who: keyof PosPeople, channel: string) => {
      const socket = await Socket.connect();
      return (await authorize(await signedIn(testApp, people[who]), socket.socketId, channel)).status;
    };
    // Sells but may not see sales; sees diners only.
    expect(await status("ciega", channelOf(w.norte))).toBe(403);
    expect(await status("mirona", channelOf(w.norte))).toBe(403);
    // Sur's cashier: Sur's figures, not Norte's.
    expect(await status("surena", channelOf(w.sur))).toBe(200);
    expect(await status("surena", channelOf(w.norte))).toBe(403);
    expect(await status("cajera", channelOf(999_999))).toBe(403);
    expect(await status("cajera", `private-cafe.0${w.norte}.figures`)).toBe(403);
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
