/**
 * Starting and stopping the real Mesa process (`bun src/server.ts`) on loopback: a SIGTERM while fifty sales are in
 * flight answers every one of them, closes the realtime sockets with 4200 (reconnect at once) and exits 0; a second
 * Mesa on the same address is refused; a database file Mesa cannot use stops start-up with a message naming it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processes, sales } from "../../db/schema";
import { EVERYTHING } from "../../src/domain/access/scope";
import { createJob, findJob, INTERRUPTED, markRunning } from "../../src/domain/jobs/jobs";
import { PROCESS_HEARTBEAT_MS, PROCESS_LEASE_MS } from "../../src/domain/jobs/processes";
import { message } from "../../src/shared/message";
import { type Db } from "../../src/db";
import { dateIn } from "../../src/shared/calendar";
import { type Client, type TestApp, fileTestApp } from "../support/app";
import { freePort, headersOf, startMesa } from "../support/mesa-process";
import { populatePos } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";

describe("a graceful stop", () => {
  let folder: string;
  let dbPath: string;
  let testApp: TestApp;
  let w: PosWorld;
  let cashier: Client;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mesa-lifecycle-"));
    dbPath = join(folder, "mesa.sqlite");
    testApp = fileTestApp(dbPath);
    const populated = await populatePos(testApp.db, testApp.config);
    w = populated.w;
    cashier = await signedIn(testApp, populated.people.cajera);
  }, 30_000);

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const countSales = (db: Db) => db.select().from(sales).where(eq(sales.cafeId, w.norte)).all().length;

  test("SIGTERM with fifty sales in flight: every one answered, sockets told to reconnect, exit 0", async () => {
    const mesa = await startMesa(dbPath, freePort());
    expect(mesa.output()).toContain("Mesa is running at");
    const before = countSales(testApp.db);

    // A till listening on the realtime socket.
    const socket = new WebSocket(
      `${mesa.origin.replace("http", "ws")}/app/${testApp.services.realtimeApp.key}?protocol=7`,
    );
    const established = new Promise<void>((resolve) =>
      socket.addEventListener("message", (event) => {
        if (String(event.data).includes("pusher:connection_established")) resolve();
      }),
    );
    const closed = new Promise<number>((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));
    await established;

    // Fifty sales whose bodies arrive in two halves: the second half only after the SIGTERM, so every one of them
    // is in flight (its headers read, its body still coming) when Mesa is told to stop.
    const today = dateIn("America/Lima");
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const responses = Array.from({ length: 50 }, (_, i) => {
      const body = JSON.stringify({
        key: `lifecycle-${i}-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: today,
        sale_type: "cash",
        other_unit_confirmed: false,
        lines: [{ service_id: w.alm, quantity: 1 }],
      });
      const half = Math.floor(body.length / 2);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(body.slice(0, half)));
          await released;
          controller.enqueue(new TextEncoder().encode(body.slice(half)));
          controller.close();
        },
      });
      return fetch(`${mesa.origin}/sales`, { method: "POST", headers: headersOf(cashier), body: stream }).then(
        (r) => r.status,
        (error: Error) => `failed: ${error.message}`,
      );
    });
    await Bun.sleep(500);
    mesa.child.kill("SIGTERM");
    // Once it stops listening, a new connection is refused.
    let refused = false;
    for (let i = 0; i < 50 && !refused; i++) {
      await Bun.sleep(20);
      refused = await fetch(`${mesa.origin}/up`).then(
        () => false,
        () => true,
      );
    }
    expect(refused).toBe(true);
    release();

    expect(await Promise.all(responses)).toEqual(Array.from({ length: 50 }, () => 201));
    expect(await closed).toBe(4200);
    expect(await mesa.exited).toBe(0);
    expect(mesa.output()).toContain("SIGTERM: Mesa is stopping");
    expect(mesa.output()).toContain("Mesa stopped in");
    expect(countSales(testApp.db)).toBe(before + 50);
  }, 60_000);

  test("a second Mesa on the same address is refused and the first goes on", async () => {
    const port = freePort();
    const first = await startMesa(dbPath, port);
    expect(first.output()).toContain("Mesa is running at");
    const second = await startMesa(dbPath, port);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Mesa cannot listen on 127.0.0.1:${port}: the address is in use`);
    expect(second.output()).not.toContain("Mesa is running at");
    expect((await fetch(`${first.origin}/up`)).status).toBe(200);
    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);
  }, 60_000);

  test("two servers on one database keep each other's jobs; a killed one's jobs are failed by the other within seconds", async () => {
    const [portA, portB] = [freePort(), freePort()];
    const a = await startMesa(dbPath, portA);
    const b = await startMesa(dbPath, portB);
    const processOf = (port: number) =>
      testApp.db
        .select()
        .from(processes)
        .where(eq(processes.address, `127.0.0.1:${port}`))
        .get()!;
    const aId = processOf(portA).id;
    // A job of server A, running (as a long import would be).
    const job = createJob(testApp.db, {
      kind: "places.import",
      actor: { userId: 1, label: "test" },
      scope: EVERYTHING,
      input: {},
      processId: aId,
    });
    markRunning(testApp.db, job.id);

    // B restarts: its start-up leaves A's job alone, and its graceful stop gives up its lease.
    const bId = processOf(portB).id;
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    expect(testApp.db.select().from(processes).where(eq(processes.id, bId)).get()).toBeUndefined();
    const b2 = await startMesa(dbPath, portB);
    expect(b2.output()).toContain("Mesa is running at");
    expect(findJob(testApp.db, job.id)!.state).toBe("running");

    // A is killed: its lease runs out, and B's heartbeat fails its job.
    a.child.kill("SIGKILL");
    await a.exited;
    const deadline = Date.now() + PROCESS_LEASE_MS + 3 * PROCESS_HEARTBEAT_MS;
    while (findJob(testApp.db, job.id)!.state === "running" && Date.now() < deadline) await Bun.sleep(250);
    expect(findJob(testApp.db, job.id)!).toMatchObject({ state: "failed", error: message(INTERRUPTED) });
    b2.child.kill("SIGTERM");
    expect(await b2.exited).toBe(0);
  }, 60_000);

  test("a database file Mesa cannot use stops start-up with a message naming it, not a stack trace", async () => {
    const notADatabase = join(folder, "notes.sqlite");
    writeFileSync(notADatabase, "These are notes, not a database. ".repeat(20));
    const aFolder = join(folder, "folder.sqlite");
    mkdirSync(aFolder);
    const cases: [string, string][] = [
      [notADatabase, "it is not a SQLite database"],
      [aFolder, "it cannot be opened (the path is a folder, or its folder is missing or cannot be written)"],
      [join(notADatabase, "mesa.sqlite"), "a part of its path is a file, not a folder"],
    ];
    for (const [path, problem] of cases) {
      const mesa = await startMesa(path, freePort());
      expect(await mesa.exited).toBe(1);
      expect(mesa.output().trim()).toBe(`Mesa cannot use its database ${path}: ${problem}.`);
    }
  }, 60_000);
});
