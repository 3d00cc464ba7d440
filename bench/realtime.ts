/**
 * Realtime fan-out: Mesa's embedded Pusher-protocol server with 1,000 subscribed WebSocket clients, next to a bare
 * Bun.serve WebSocket server (ws.subscribe / server.publish) driven the same way, measured in the same run.
 * Run with `npm run bench:realtime` (or `NODE_ENV=production bun bench/realtime.ts`).
 *
 * Three processes, so that no two roles share an event loop:
 *
 *   this process ─ the orchestrator and the publisher (the `pusher` SDK, as Mesa's Broadcaster uses it)
 *   ├─ server child ─ Mesa (createApp + embedded realtime, as src/server.ts starts it) or the bare baseline;
 *   │                 answers memory / CPU questions over IPC (process.memoryUsage, process.cpuUsage)
 *   └─ clients child ─ 1,000 raw WebSockets speaking the Pusher protocol, timing each received event
 *
 * Latency is the time from just before the publisher calls `trigger` to the moment a client's message handler
 * runs, on the shared wall clock (performance.timeOrigin + performance.now(), corrected by an offset measured
 * over IPC). It includes the SDK's signing, the HTTP request, the server's work and the WebSocket delivery.
 *
 * Settings (environment): BENCH_CLIENTS (1000), BENCH_EVENTS (50 latency events), BENCH_SPACING_MS (100),
 * BENCH_SECONDS (3, the throughput window), BENCH_IN_FLIGHT (8 publish requests at a time), BENCH_PAYLOAD (200
 * bytes of event data), BENCH_CLIENT_PROCESSES (1), BENCH_CASES (bare,mesa; "loop" is a diagnostic, see KINDS).
 * BENCH_SMOKE=1: 20 clients, 5 events 20 ms apart, 0.3 s of publishing, short pauses.
 *
 * Checked, for every case: every client received every event, in both phases, and no frame it did not expect. The
 * figures are printed, not checked.
 */
import type { ServerWebSocket, Subprocess } from "bun";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { check, exitCode, finishChecks, setting, SMOKE } from "./support/smoke";

const CLIENTS = setting("BENCH_CLIENTS", 1000, 20);
const EVENTS = setting("BENCH_EVENTS", 50, 5);
const SPACING_MS = setting("BENCH_SPACING_MS", 100, 20);
const SECONDS = setting("BENCH_SECONDS", 3, 0.3);
/** Pauses for the servers and clients to settle (before measuring idle memory, after connecting), in ms. */
const SETTLE_MS = SMOKE ? 50 : 500;
/** Publish round trips to warm the HTTP API up, then timed ones. */
const WARM_TRIPS = SMOKE ? 10 : 100;
const TIMED_TRIPS = SMOKE ? 20 : 200;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? 1);
const PAYLOAD = Number(process.env.BENCH_PAYLOAD ?? 200);
const CHANNEL = "bench";
const EVENT = "tick";
/** Every data frame starts with this: the clients recognise an event without parsing it. */
const FRAME_PREFIX = `{"event":"${EVENT}","channel":"${CHANNEL}",`;
/** File descriptors the children ask for (one per socket, plus room). */
const FD_LIMIT = Math.max(4096, CLIENTS * 2 + 256);

/**
 * The servers this benchmark can run. The default run is bare and mesa; "loop" is a diagnostic
 * (BENCH_CASES=bare,loop,mesa): the bare server, but fanning out with a JavaScript loop of ws.send as Mesa does.
 */
const KINDS = {
  bare: "bare Bun.serve, ws.subscribe + server.publish",
  loop: "bare Bun.serve, JS loop of ws.send(string)",
  mesa: "Mesa embedded realtime (Elysia app, Pusher protocol 7)",
} as const;
type Kind = keyof typeof KINDS;
const CASES = (process.env.BENCH_CASES ?? "bare,mesa").split(",").map((c) => c.trim()) as Kind[];
for (const c of CASES)
  if (!(c in KINDS)) throw new Error(`BENCH_CASES: unknown case ${c} (known: ${Object.keys(KINDS).join(", ")})`);

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes on one machine. */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ── IPC: a tiny request/response over Bun's child-process channel ────────────────────────────────────────

type Message = { id?: number; cmd?: string; [key: string]: unknown };
type Handler = (message: Message) => unknown | Promise<unknown>;

/** In a child: answers each request from the parent with the handler's result. */
function serveIpc(handler: Handler): void {
  process.on("message", async (message: Message) => {
    try {
      process.send!({ id: message.id, ok: true, result: await handler(message) });
    } catch (error) {
      process.send!({ id: message.id, ok: false, error: error instanceof Error ? error.stack : String(error) });
    }
  });
}

interface Child {
  process: Subprocess;
  call: <T = any>(cmd: string, args?: Record<string, unknown>, timeoutMs?: number) => Promise<T>;
  ready: Promise<any>;
}

/** Starts `bun bench/realtime.ts <role> ...` with a raised descriptor limit and an IPC channel. */
function spawnChild(args: string[]): Child {
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let readyResolve!: (v: any) => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<any>((resolve, reject) => ((readyResolve = resolve), (readyReject = reject)));
  // The soft `ulimit -n` can be raised up to the hard limit without privileges; the shell then execs Bun.
  const raise = `want=${FD_LIMIT}; soft=$(ulimit -S -n); hard=$(ulimit -H -n)
    if [ "$soft" != unlimited ] && [ "$soft" -lt $want ]; then
      if [ "$hard" = unlimited ] || [ "$hard" -ge $want ]; then ulimit -S -n $want; else ulimit -S -n "$hard"; fi
    fi
    exec "$0" "$@"`;
  const child = Bun.spawn(["sh", "-c", raise, process.execPath, import.meta.path, ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
    ipc(message: Message) {
      if (message.cmd === "ready") return readyResolve(message);
      const waiter = pending.get(message.id!);
      if (!waiter) return;
      pending.delete(message.id!);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(String(message.error)));
    },
  });
  children.add(child);
  // A child that dies fails whatever waits for it, at once.
  void child.exited.then((code) => {
    const error = new Error(`the ${args.join(" ")} process exited (code ${code})`);
    readyReject(error);
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  ready.catch(() => {});
  const call = <T>(cmd: string, extra: Record<string, unknown> = {}, timeoutMs = 30_000) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${args[0]}: ${cmd} got no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      child.send({ id, cmd, ...extra });
    });
  return { process: child, call, ready };
}

const children = new Set<Subprocess>();
function killChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill();
}

/** Stops with a clear message when this process may not open `needed` files (Linux; elsewhere it trusts the limit). */
function checkFileLimit(needed: number): void {
  let limit: number;
  try {
    const line = readFileSync("/proc/self/limits", "utf8").match(/Max open files\s+(\S+)/);
    if (!line || line[1] === "unlimited") return;
    limit = Number(line[1]);
  } catch {
    return;
  }
  if (limit < needed) {
    console.error(
      `${process.argv[2]} process: it may open ${limit} files but needs about ${needed}; raise the hard limit (\`ulimit -Hn ${FD_LIMIT}\`, as root or in /etc/security/limits.conf) and run again`,
    );
    process.exit(2);
  }
}

// ── Role: server ─────────────────────────────────────────────────────────────────────────────────────────

interface Credentials {
  id: string;
  key: string;
  secret: string;
}

async function runServer(kind: Kind): Promise<void> {
  checkFileLimit(CLIENTS + 64);
  /** Milliseconds each publish call took (server side, synchronous), since the last "fanOutTimes" question. */
  let fanOutTimes: number[] = [];
  let port: number;
  let credentials: Credentials;
  let connections: () => number;
  let cleanup = () => {};

  if (kind === "mesa") {
    const { loadConfig } = await import("../src/config");
    const { migrateDatabase, openDatabase } = await import("../src/db");
    const { createApp } = await import("../src/http/app");
    const { createServices } = await import("../src/http/services");
    const dir = mkdtempSync(join(tmpdir(), "mesa-bench-rt-"));
    const config = loadConfig({
      NODE_ENV: "production",
      DB_PATH: join(dir, "bench.sqlite"),
      STORAGE_PATH: dir,
      MAIL_PATH: join(dir, "mail"),
      LOG_REQUESTS: "false",
      APP_URL: "http://127.0.0.1:3000",
      BROADCAST_DRIVER: "embedded",
      // Every client connects from loopback: room for all of them under the per-address cap.
      REALTIME_MAX_CONNECTIONS_PER_ADDRESS: String(Math.max(1000, CLIENTS)),
    });
    const db = openDatabase(config.dbPath);
    migrateDatabase(db);
    const services = createServices({ ...config, appKey: "bench-key-bench-key-bench-key-bench-key" }, db);
    const realtime = services.realtime!;
    realtime.start();
    // Time each publish: the synchronous hand-over of one frame to every subscribed socket. (A wrapper on this
    // instance, src is unchanged.)
    const publish = realtime.publish.bind(realtime);
    realtime.publish = (...args: Parameters<typeof publish>) => {
      const started = performance.now();
      const delivered = publish(...args);
      fanOutTimes.push(performance.now() - started);
      return delivered;
    };
    const app = createApp(services);
    // As src/server.ts listens, on an ephemeral loopback port.
    app.listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: 64 * 1024 * 1024 });
    port = app.server!.port!;
    credentials = services.realtimeApp;
    connections = () => realtime.connectionCount;
    cleanup = () => {
      realtime.stop();
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    // The baseline: the least a Pusher-compatible server does — the same handshake frames, the same HTTP API
    // body parsed and the same frame built — but no signature checks, no framework routing, and the fan-out done
    // by uWebSockets' native topics (ws.subscribe / server.publish) instead of a JavaScript loop.
    credentials = { id: "bare", key: "bare-key", secret: "bare-secret" };
    let open = 0;
    const subscribers = new Map<string, Set<ServerWebSocket<{ id: string; channels: string[] }>>>();
    const fanOut = (channel: string, frame: string) => {
      if (kind === "bare") server.publish(channel, frame);
      else for (const ws of subscribers.get(channel) ?? []) ws.send(frame);
    };
    const server = Bun.serve<{ id: string; channels: string[] }, never>({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request, server) {
        const url = new URL(request.url);
        if (url.pathname.startsWith("/app/")) {
          if (
            server.upgrade(request, {
              data: { id: `${Math.floor(Math.random() * 1e9)}.${Math.floor(Math.random() * 1e9)}`, channels: [] },
            })
          )
            return;
          return new Response("Expected a WebSocket connection", { status: 400 });
        }
        if (request.method === "POST" && url.pathname.endsWith("/events")) {
          return request.text().then((body) => {
            const event = JSON.parse(body) as { name: string; channels?: string[]; channel?: string; data: string };
            const started = performance.now();
            for (const channel of event.channels ?? [event.channel!])
              fanOut(channel, JSON.stringify({ event: event.name, channel, data: event.data }));
            fanOutTimes.push(performance.now() - started);
            return Response.json({});
          });
        }
        return new Response("Not found", { status: 404 });
      },
      websocket: {
        open(ws) {
          open++;
          ws.send(
            JSON.stringify({
              event: "pusher:connection_established",
              data: JSON.stringify({ socket_id: ws.data.id, activity_timeout: 120 }),
            }),
          );
        },
        message(ws, raw) {
          const message = JSON.parse(String(raw)) as { event: string; data?: { channel?: string } };
          if (message.event === "pusher:subscribe" && message.data?.channel) {
            const channel = message.data.channel;
            if (kind === "bare") ws.subscribe(channel);
            else {
              if (!subscribers.has(channel)) subscribers.set(channel, new Set());
              subscribers.get(channel)!.add(ws);
              ws.data.channels.push(channel);
            }
            ws.send(
              JSON.stringify({
                event: "pusher_internal:subscription_succeeded",
                channel: message.data.channel,
                data: "{}",
              }),
            );
          }
        },
        close(ws) {
          for (const channel of ws.data.channels) subscribers.get(channel)?.delete(ws);
          open--;
        },
      },
    });
    port = server.port!;
    connections = () => open;
    cleanup = () => server.stop(true);
  }

  // The highest RSS seen, sampled five times a second (the fan-out may queue frames for slow clients).
  let peakRss = process.memoryUsage.rss();
  setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200).unref();

  serveIpc((message) => {
    switch (message.cmd) {
      case "memory": {
        // Settle first: collect garbage twice, so the heap holds only what is live.
        Bun.gc(true);
        Bun.gc(true);
        const m = process.memoryUsage();
        return {
          rss: m.rss,
          heapUsed: m.heapUsed,
          heapTotal: m.heapTotal,
          external: m.external,
          connections: connections(),
        };
      }
      case "cpu":
        return { ...process.cpuUsage(), peakRss, rss: process.memoryUsage.rss(), connections: connections() };
      case "fanOutTimes": {
        const times = fanOutTimes;
        fanOutTimes = [];
        return times;
      }
      case "resetPeak":
        peakRss = process.memoryUsage.rss();
        return peakRss;
      case "stop":
        cleanup();
        setTimeout(() => process.exit(0), 10);
        return true;
    }
    throw new Error(`unknown command ${message.cmd}`);
  });
  process.send!({ cmd: "ready", port, credentials, pid: process.pid });
}

// ── Role: clients ────────────────────────────────────────────────────────────────────────────────────────

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function summary(values: number[]): { p50: number; p99: number; max: number; min: number; n: number } {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    min: sorted[0] ?? NaN,
    n: sorted.length,
  };
}

/** Reads `"s":…` and `"t":…` out of the event data (itself a JSON string inside the frame). */
function parseTick(text: string): { s: number; t: number } {
  const frame = JSON.parse(text) as { data: string };
  return JSON.parse(frame.data);
}

async function runClients(): Promise<void> {
  checkFileLimit(Math.ceil(CLIENTS / CLIENT_PROCESSES) + 64);
  const sockets: WebSocket[] = [];
  let phase: "idle" | "latency" | "throughput" = "idle";
  let offset = 0; // this clock minus the publisher's clock
  // Latency phase: receive times and frames, parsed after the phase so the handler stays cheap.
  let arrivals: number[] = [];
  let frames: string[] = [];
  // Throughput phase.
  let counts = new Int32Array(0);
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  let sampled: number[] = [];
  let unexpected = 0;

  function onData(index: number, text: string): void {
    if (!text.startsWith(FRAME_PREFIX)) {
      unexpected++;
      return;
    }
    if (phase === "throughput") {
      const at = now();
      if (received === 0) firstAt = at;
      lastAt = at;
      received++;
      counts[index]++;
      // A few clients also time what they get, to show the delay while frames queue up.
      if (index % 50 === 0) sampled.push(at - offset - parseTick(text).t);
    } else if (phase === "latency") {
      arrivals.push(now());
      frames.push(text);
    }
  }

  function connect(index: number, url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      let state: "connecting" | "subscribing" | "ready" = "connecting";
      const timer = setTimeout(
        () => reject(new Error(`client ${index}: no subscription in 15 s (state ${state})`)),
        15_000,
      );
      ws.onmessage = (event) => {
        const text = event.data as string;
        if (state === "ready") return onData(index, text);
        const message = JSON.parse(text) as { event: string; channel?: string };
        if (state === "connecting" && message.event === "pusher:connection_established") {
          state = "subscribing";
          ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel: CHANNEL } }));
        } else if (
          state === "subscribing" &&
          message.event === "pusher_internal:subscription_succeeded" &&
          message.channel === CHANNEL
        ) {
          state = "ready";
          clearTimeout(timer);
          resolve();
        } else {
          clearTimeout(timer);
          reject(new Error(`client ${index}: unexpected ${text}`));
        }
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`client ${index}: WebSocket error (state ${state})`));
      };
      ws.onclose = (event) => {
        if (state !== "ready") {
          clearTimeout(timer);
          reject(new Error(`client ${index}: closed ${event.code} ${event.reason}`));
        } else if (phase !== "idle") {
          console.error(`client ${index}: closed during the benchmark (${event.code} ${event.reason})`);
        }
      };
      sockets[index] = ws;
    });
  }

  serveIpc(async (message) => {
    switch (message.cmd) {
      case "clock":
        return now();
      case "connect": {
        const url = String(message.url);
        const n = Number(message.n);
        const wave = Number(message.wave ?? 100);
        const started = now();
        // In waves, so the listen backlog never overflows.
        for (let i = 0; i < n; i += wave) {
          await Promise.all(Array.from({ length: Math.min(wave, n - i) }, (_, j) => connect(i + j, url)));
        }
        return { connected: sockets.length, ms: now() - started };
      }
      case "arm":
        offset = Number(message.offset);
        phase = message.phase as typeof phase;
        arrivals = [];
        frames = [];
        counts = new Int32Array(sockets.length);
        received = 0;
        firstAt = lastAt = 0;
        sampled = [];
        unexpected = 0;
        return true;
      case "latencyResult": {
        // Wait a little for stragglers, then summarise.
        const expected = Number(message.events) * sockets.length;
        const deadline = now() + 5000;
        while (arrivals.length < expected && now() < deadline) await sleep(20);
        phase = "idle";
        // latencies[seq] holds one entry per client that got event seq, on the publisher's clock.
        const latencies: number[][] = [];
        const parsed = new Map<string, { s: number; t: number }>();
        for (let i = 0; i < frames.length; i++) {
          let tick = parsed.get(frames[i]);
          if (!tick) parsed.set(frames[i], (tick = parseTick(frames[i])));
          (latencies[tick.s] ??= []).push(arrivals[i] - offset - tick.t);
        }
        return { latencies, unexpected };
      }
      case "throughputResult": {
        // Wait until every frame has arrived, or nothing has arrived for 2 s (the rest was dropped).
        const expected = Number(message.events) * sockets.length;
        let seen = -1;
        let quietSince = now();
        const deadline = now() + Number(message.maxWaitMs ?? 20_000);
        while (received < expected && now() < deadline) {
          if (received !== seen) {
            seen = received;
            quietSince = now();
          } else if (now() - quietSince > 2000) break;
          await sleep(10);
        }
        phase = "idle";
        let minCount = Infinity;
        let maxCount = 0;
        for (const c of counts) {
          minCount = Math.min(minCount, c);
          maxCount = Math.max(maxCount, c);
        }
        return {
          received,
          expected,
          firstAt: firstAt - offset,
          lastAt: lastAt - offset,
          minCount,
          maxCount,
          sampled,
          unexpected,
        };
      }
      case "close": {
        phase = "idle";
        const closed = sockets.map(
          (ws) =>
            new Promise<void>((r) =>
              ws.readyState === WebSocket.CLOSED ? r() : ws.addEventListener("close", () => r()),
            ),
        );
        for (const ws of sockets) ws.close(1000);
        await Promise.race([Promise.all(closed), sleep(3000)]);
        setTimeout(() => process.exit(0), 10);
        return true;
      }
    }
    throw new Error(`unknown command ${message.cmd}`);
  });
  process.send!({ cmd: "ready", pid: process.pid });
}

// ── Role: orchestrator and publisher ─────────────────────────────────────────────────────────────────────

interface Result {
  kind: Kind;
  connectMs: number;
  memoryBefore: { rss: number; heapUsed: number };
  memoryAfter: { rss: number; heapUsed: number };
  apiRoundTrip: ReturnType<typeof summary>;
  latency: any;
  throughput: {
    published: number;
    publishSeconds: number;
    publishRate: number;
    received: number;
    expected: number;
    deliverySeconds: number;
    deliveredRate: number;
    minCount: number;
    sampled: ReturnType<typeof summary>;
    serverCpuMs: number;
    serverSystemMs: number;
    cpuMicrosPerDelivery: number;
    peakRss: number;
  };
}

/** Clock offset of a child (its clock minus ours), from the IPC exchange with the shortest round trip. */
async function clockOffset(child: Child): Promise<{ offset: number; rtt: number }> {
  let best = { offset: 0, rtt: Infinity };
  for (let i = 0; i < 30; i++) {
    const sent = now();
    const theirs = await child.call<number>("clock");
    const back = now();
    if (back - sent < best.rtt) best = { offset: theirs - (sent + back) / 2, rtt: back - sent };
  }
  return best;
}

/** The event data: its sequence number, the publish time, and padding to PAYLOAD bytes whatever the numbers. */
function tickData(seq: number): string {
  const t = now();
  const head = JSON.stringify({ s: seq, t, p: "" });
  return JSON.stringify({ s: seq, t, p: "x".repeat(Math.max(0, PAYLOAD - head.length)) });
}

async function runCase(kind: Kind): Promise<Result> {
  const { default: PusherServer } = await import("pusher");
  const server = spawnChild(["server", kind]);
  const hello = await Promise.race([
    server.ready,
    sleep(20_000).then(() => Promise.reject(new Error(`${kind} server did not start`))),
  ]);
  const { port, credentials } = hello as { port: number; credentials: Credentials };
  const publisher = new PusherServer({
    appId: credentials.id,
    key: credentials.key,
    secret: credentials.secret,
    host: "127.0.0.1",
    port: String(port),
    useTLS: false,
    timeout: 10_000,
  });
  const trigger = (channel: string, data: string) => publisher.trigger(channel, EVENT, data);

  // Idle memory first, on the fresh server: the connections then cannot reuse memory that other traffic freed.
  const clients = Array.from({ length: CLIENT_PROCESSES }, () => spawnChild(["clients"]));
  await Promise.all(clients.map((c) => c.ready));
  await sleep(SETTLE_MS);
  const memoryBefore = await server.call<Result["memoryBefore"]>("memory");
  const url = `ws://127.0.0.1:${port}/app/${credentials.key}?protocol=7&client=bench&version=1.0`;
  const connectStart = now();
  await Promise.all(
    clients.map((c, i) =>
      c.call(
        "connect",
        { url, n: Math.floor(CLIENTS / CLIENT_PROCESSES) + (i < CLIENTS % CLIENT_PROCESSES ? 1 : 0) },
        60_000,
      ),
    ),
  );
  const connectMs = now() - connectStart;
  await sleep(2 * SETTLE_MS);
  const memoryAfter = await server.call<Result["memoryAfter"] & { connections: number }>("memory");
  if (memoryAfter.connections !== CLIENTS)
    throw new Error(`${kind}: the server counts ${memoryAfter.connections} connections, expected ${CLIENTS}`);
  const clocks: { offset: number; rtt: number }[] = [];
  for (const c of clients) clocks.push(await clockOffset(c));
  const arm = (phase: string) => Promise.all(clients.map((c, i) => c.call("arm", { phase, offset: clocks[i].offset })));

  // Warm the HTTP API (JIT, keep-alive connections), and time it with no subscribers: the fixed cost per event.
  for (let i = 0; i < WARM_TRIPS; i++) await trigger("nobody", tickData(-1));
  const roundTrips: number[] = [];
  for (let i = 0; i < TIMED_TRIPS; i++) {
    const started = now();
    await trigger("nobody", tickData(-1));
    roundTrips.push(now() - started);
  }
  await server.call("fanOutTimes");

  // A few events to the subscribers before timing, so the fan-out path is compiled too (the clients ignore them).
  for (let i = 0; i < 5; i++) {
    await trigger(CHANNEL, tickData(-1));
    await sleep(SPACING_MS / 2);
  }

  // Fan-out latency: one event at a time, spaced, on an otherwise idle system.
  await arm("latency");
  for (let seq = 0; seq < EVENTS; seq++) {
    const slot = now() + SPACING_MS;
    await trigger(CHANNEL, tickData(seq));
    const rest = slot - now();
    if (rest > 0) await sleep(rest);
  }
  const parts = await Promise.all(
    clients.map((c) =>
      c.call<{ latencies: number[][]; unexpected: number }>("latencyResult", { events: EVENTS }, 15_000),
    ),
  );
  const serverFanOut = summary(await server.call<number[]>("fanOutTimes"));
  const all: number[] = [];
  const first: number[] = [];
  const last: number[] = [];
  for (let seq = 0; seq < EVENTS; seq++) {
    const list = parts.flatMap((part) => part.latencies[seq] ?? []);
    if (list.length === 0) continue;
    all.push(...list);
    first.push(Math.min(...list));
    last.push(Math.max(...list));
  }
  const latency = {
    perClient: summary(all),
    firstClient: summary(first),
    lastClient: summary(last),
    received: all.length,
    expected: EVENTS * CLIENTS,
    unexpected: parts.reduce((sum, part) => sum + part.unexpected, 0),
  };

  // Sustained throughput: publish for SECONDS with IN_FLIGHT requests outstanding, then wait for delivery.
  await arm("throughput");
  await server.call("resetPeak");
  const cpuBefore = await server.call<{ user: number; system: number }>("cpu");
  let published = 0;
  const publishStart = now();
  const publishEnd = publishStart + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (now() < publishEnd) {
        const seq = EVENTS + published++;
        await trigger(CHANNEL, tickData(seq));
      }
    }),
  );
  const publishSeconds = (now() - publishStart) / 1000;
  const got = await Promise.all(
    clients.map((c) =>
      c.call<{ received: number; expected: number; lastAt: number; minCount: number; sampled: number[] }>(
        "throughputResult",
        { events: published, maxWaitMs: 30_000 },
        40_000,
      ),
    ),
  );
  const cpuAfter = await server.call<{ user: number; system: number; peakRss: number }>("cpu");
  await server.call("fanOutTimes");
  const serverCpuMs = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000;
  const serverSystemMs = (cpuAfter.system - cpuBefore.system) / 1000;
  const received = got.reduce((sum, g) => sum + g.received, 0);
  const deliverySeconds = (Math.max(...got.map((g) => g.lastAt)) - publishStart) / 1000;

  await Promise.all(clients.map((c) => c.call("close", {}, 10_000).catch(() => {})));
  await server.call("stop", {}, 5000).catch(() => {});
  await Promise.race([Promise.all([...clients.map((c) => c.process.exited), server.process.exited]), sleep(3000)]);
  killChildren();

  return {
    kind,
    connectMs,
    memoryBefore,
    memoryAfter,
    apiRoundTrip: summary(roundTrips),
    latency: {
      ...latency,
      serverFanOut,
      clockRtt: Math.max(...clocks.map((c) => c.rtt)),
      clockOffset: Math.max(...clocks.map((c) => Math.abs(c.offset))),
    },
    throughput: {
      published,
      publishSeconds,
      publishRate: published / publishSeconds,
      received,
      expected: published * CLIENTS,
      deliverySeconds,
      deliveredRate: received / deliverySeconds,
      minCount: Math.min(...got.map((g) => g.minCount)),
      sampled: summary(got.flatMap((g) => g.sampled)),
      serverCpuMs,
      serverSystemMs,
      cpuMicrosPerDelivery: (serverCpuMs * 1000) / received,
      peakRss: cpuAfter.peakRss,
    },
  };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const int = (v: number) => Math.round(v).toLocaleString("en-US");

function report(r: Result): void {
  const name = KINDS[r.kind];
  const l = r.latency;
  const t = r.throughput;
  console.log(`\n── ${name}`);
  console.log(`  ${CLIENTS} clients connected and subscribed in ${ms(r.connectMs)}`);
  console.log(
    `  publish round trip (SDK trigger → HTTP API → response), channel with no subscribers: p50 ${ms(r.apiRoundTrip.p50)}  p99 ${ms(r.apiRoundTrip.p99)}`,
  );
  console.log(
    `  fan-out latency, ${EVENTS} events ${SPACING_MS} ms apart (received ${l.received}/${l.expected}${l.received < l.expected ? " — SOME LOST" : ""}${l.unexpected ? `, ${l.unexpected} unexpected frames` : ""}):`,
  );
  console.log(
    `    each client     p50 ${ms(l.perClient.p50).padStart(9)}  p99 ${ms(l.perClient.p99).padStart(9)}  max ${ms(l.perClient.max).padStart(9)}`,
  );
  console.log(
    `    first client    p50 ${ms(l.firstClient.p50).padStart(9)}  p99 ${ms(l.firstClient.p99).padStart(9)}  max ${ms(l.firstClient.max).padStart(9)}`,
  );
  console.log(
    `    last client     p50 ${ms(l.lastClient.p50).padStart(9)}  p99 ${ms(l.lastClient.p99).padStart(9)}  max ${ms(l.lastClient.max).padStart(9)}   (whole fan-out)`,
  );
  console.log(
    `    server publish  p50 ${ms(l.serverFanOut.p50).padStart(9)}  p99 ${ms(l.serverFanOut.p99).padStart(9)}  max ${ms(l.serverFanOut.max).padStart(9)}   (${r.kind === "bare" ? "server.publish only queues; uWS writes after" : `the synchronous loop writing to ${CLIENTS} sockets`})`,
  );
  console.log(
    `    clock offset to the clients process${CLIENT_PROCESSES > 1 ? "es" : ""} ${l.clockOffset.toFixed(3)} ms (measured with a ${l.clockRtt.toFixed(3)} ms round trip)`,
  );
  console.log(`  throughput, ${SECONDS} s publishing with ${IN_FLIGHT} requests in flight:`);
  console.log(`    events published   ${int(t.published)} (${int(t.publishRate)} events/s accepted by the API)`);
  console.log(
    `    messages delivered ${int(t.received)}/${int(t.expected)}${t.received < t.expected ? `  (${int(t.expected - t.received)} LOST; fewest to one client: ${t.minCount})` : ""} in ${t.deliverySeconds.toFixed(2)} s`,
  );
  console.log(
    `    delivered          ${int(t.deliveredRate).padStart(10)} messages/s  (${int(t.deliveredRate / CLIENTS)} events/s to all ${CLIENTS})`,
  );
  console.log(
    `    latency under load p50 ${ms(t.sampled.p50)}  p99 ${ms(t.sampled.p99)}  max ${ms(t.sampled.max)}  (sampled on 1 client in 50)`,
  );
  console.log(
    `    server CPU         ${int(t.serverCpuMs)} ms (${Math.round((100 * t.serverSystemMs) / t.serverCpuMs)}% in the kernel) = ${t.cpuMicrosPerDelivery.toFixed(3)} µs per delivered message; peak RSS ${mib(t.peakRss)}`,
  );
  const rssPer = (r.memoryAfter.rss - r.memoryBefore.rss) / CLIENTS;
  const heapPer = (r.memoryAfter.heapUsed - r.memoryBefore.heapUsed) / CLIENTS;
  console.log(
    `  idle memory: RSS ${mib(r.memoryBefore.rss)} → ${mib(r.memoryAfter.rss)}, heap used ${mib(r.memoryBefore.heapUsed)} → ${mib(r.memoryAfter.heapUsed)}`,
  );
  console.log(`    per connection     RSS ${kib(rssPer)}  heap ${kib(heapPer)}`);
}

/** What else runs on the machine: the load average and, where the kernel reports it, CPU pressure. */
function machineLoad(): string {
  let pressure = "";
  try {
    const some = readFileSync("/proc/pressure/cpu", "utf8").match(/some avg10=([\d.]+)/);
    if (some) pressure = `, CPU pressure ${some[1]}% (10 s)`;
  } catch {}
  return `load average ${loadavg()[0].toFixed(2)} (1 min)${pressure}`;
}

async function main(): Promise<void> {
  const started = now();
  console.log(
    `Mesa realtime fan-out, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; ${CLIENTS} WebSocket clients on one public channel, ${PAYLOAD}-byte event data`,
  );
  console.log(
    `processes: publisher (this one), server (child), clients (${CLIENT_PROCESSES} child${CLIENT_PROCESSES > 1 ? "ren" : ""}); before: ${machineLoad()}`,
  );
  // (A run just before this one counts in the load average too; the CPU pressure reflects the last 10 s only.)
  if (loadavg()[0] > navigator.hardwareConcurrency)
    console.log(`warning: the machine is busy with other work; wall-clock figures will be low and noisy`);
  const results = new Map<Kind, Result>();
  for (const kind of CASES) {
    const result = await runCase(kind);
    results.set(kind, result);
    report(result);
    const { latency, throughput } = result;
    check(
      latency.received === latency.expected && latency.unexpected === 0,
      `${kind}: every client received every spaced event (${latency.received} of ${latency.expected}, ${latency.unexpected} unexpected frames)`,
    );
    check(
      throughput.received === throughput.expected,
      `${kind}: every client received every event published under load (${throughput.received} of ${throughput.expected})`,
    );
  }
  console.log(`\nafter: ${machineLoad()}; total ${((now() - started) / 1000).toFixed(1)} s`);
  const bare = results.get("bare");
  const mesa = results.get("mesa");
  if (!bare || !mesa) return finishChecks();

  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(`\n── Mesa / bare`);
  console.log(`  fan-out latency, each client p50   ${ratio(mesa.latency.perClient.p50, bare.latency.perClient.p50)}`);
  console.log(
    `  fan-out latency, last client p50   ${ratio(mesa.latency.lastClient.p50, bare.latency.lastClient.p50)}`,
  );
  console.log(
    `  fan-out latency, last client p99   ${ratio(mesa.latency.lastClient.p99, bare.latency.lastClient.p99)}`,
  );
  console.log(
    `  delivered messages/s               ${ratio(mesa.throughput.deliveredRate, bare.throughput.deliveredRate)}`,
  );
  console.log(
    `  events/s accepted by the API       ${ratio(mesa.throughput.publishRate, bare.throughput.publishRate)}`,
  );
  console.log(
    `  server CPU per delivered message   ${ratio(mesa.throughput.cpuMicrosPerDelivery, bare.throughput.cpuMicrosPerDelivery)}`,
  );
  const per = (r: Result, key: "rss" | "heapUsed") => (r.memoryAfter[key] - r.memoryBefore[key]) / CLIENTS;
  console.log(`  idle RSS per connection            ${ratio(per(mesa, "rss"), per(bare, "rss"))}`);
  console.log(`  idle heap per connection           ${ratio(per(mesa, "heapUsed"), per(bare, "heapUsed"))}`);
  finishChecks();
}

const role = process.argv[2];
if (role === "server") await runServer(process.argv[3] as Kind);
else if (role === "clients") await runClients();
else {
  process.on("exit", killChildren);
  try {
    await main();
  } catch (error) {
    console.error(
      error instanceof Error ? `benchmark failed: ${process.env.BENCH_DEBUG ? error.stack : error.message}` : error,
    );
    killChildren();
    process.exit(1);
  }
  process.exit(exitCode());
}
