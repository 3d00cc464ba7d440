/**
 * A diner import is invisible until whole, across processes: `./mesa import:diners` writes a large file into the
 * database of a running Mesa and is killed (SIGKILL) at random points — while checking, after one chunk, after
 * several — while a cashier keeps selling credit meals to the file's people through Mesa. Not one of those sales is
 * accepted, and Mesa itself undoes each killed import through its lease, within seconds, with no restart. The last
 * run is left to finish: the same people are sold to at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEASE_MS } from "../../src/domain/sales/diner-import/contract";
import { PROCESS_HEARTBEAT_MS } from "../../src/domain/jobs/processes";
import { dateIn } from "../../src/shared/calendar";
import { type Client, type TestApp, fileTestApp } from "../support/app";
import { MESA } from "../support/cli";
import { freePort, headersOf, startMesa, type MesaProcess } from "../support/mesa-process";
import { populatePos } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";

const ROWS = 30_000;
const FIRST = 60_000_000;

describe("a diner import killed at random points while the till sells to its people", () => {
  let folder: string;
  let dbPath: string;
  let file: string;
  let testApp: TestApp;
  let w: PosWorld;
  let cashier: Client;
  let mesa: MesaProcess;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mesa-import-kill-"));
    dbPath = join(folder, "mesa.sqlite");
    testApp = fileTestApp(dbPath);
    const populated = await populatePos(testApp.db, testApp.config);
    w = populated.w;
    cashier = await signedIn(testApp, populated.people.cajera);
    const lines = ["Nombre,DNI,Subcontrata,Comedor"];
    for (let i = 0; i < ROWS; i++) lines.push(`Trabajador ${i},${FIRST + i},Contrata Uno,Comedor Norte`);
    file = join(folder, "trabajadores.csv");
    writeFileSync(file, lines.join("\n") + "\n");
    mesa = await startMesa(dbPath, freePort(), { APP_LOCALE: "en" });
    expect(mesa.output()).toContain("Mesa is running at");
  }, 60_000);

  afterAll(async () => {
    mesa?.child.kill("SIGKILL");
    await mesa?.exited;
    rmSync(folder, { recursive: true, force: true });
  });

  const one = <T>(query: string, ...params: (string | number)[]) =>
    testApp.db.$client.query(query).values(...params)[0][0] as T;
  const fileDiners = () =>
    one<number>("SELECT count(*) FROM diners WHERE document_number BETWEEN ? AND ?", FIRST, FIRST + ROWS - 1);
  const writingChunks = () =>
    one<number>(
      "SELECT count(*) FROM diner_import_undo u JOIN diner_imports i ON i.id = u.import_id WHERE i.state = 'writing'",
    );
  const writing = () => one<number>("SELECT count(*) FROM diner_imports WHERE state = 'writing'");

  const importer = () =>
    Bun.spawn([MESA, "import:diners", file], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, DB_PATH: dbPath, NODE_ENV: "test", APP_LOCALE: "en", STORAGE_PATH: join(folder, "cli") },
    });

  let sold = 0;
  /** A credit meal for one of the file's people, through Mesa: its status. */
  const sell = async (i: number): Promise<number> => {
    const response = await fetch(`${mesa.origin}/sales`, {
      method: "POST",
      headers: headersOf(cashier),
      body: JSON.stringify({
        key: `kill-${++sold}-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: String(FIRST + i),
        service_date: dateIn("America/Lima"),
        sale_type: "credit",
        other_unit_confirmed: false,
        lines: [{ service_id: w.alm, quantity: 1 }],
      }),
    });
    await response.arrayBuffer();
    return response.status;
  };

  /** Sells to random people of the file, one after another, until `stop` says so; every status seen. */
  async function sellUntil(stop: () => boolean): Promise<number[]> {
    const statuses: number[] = [];
    while (!stop()) statuses.push(await sell(Math.floor(Math.random() * ROWS)));
    return statuses;
  }

  async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await Bun.sleep(20);
    }
  }

  test("every sale to a half-imported diner is refused; the server undoes each killed import within seconds", async () => {
    // Where each run is killed: while it checks the file (no chunk yet), or once 1, 2 or 3 chunks are written.
    // The first waits for the lease to run out on its own; the others let it run out at once.
    const someChunks = () => 1 + Math.floor(Math.random() * 3);
    const points = [someChunks(), 0, someChunks(), someChunks()];
    for (const [round, chunks] of points.entries()) {
      const child = importer();
      let done = false;
      const selling = sellUntil(() => done);
      if (chunks === 0) await Bun.sleep(50 + Math.random() * 200);
      else await until(() => writingChunks() >= chunks, 60_000, `${chunks} chunks written`);
      child.kill("SIGKILL");
      await child.exited;
      const killedAt = Date.now();
      if (round > 0) testApp.db.$client.query("UPDATE diner_imports SET lease_until = 0 WHERE state = 'writing'").run();
      // Mesa's heartbeat undoes it: within a lease and a heartbeat of the kill.
      await until(
        () => writing() === 0 && fileDiners() === 0,
        LEASE_MS + 2 * PROCESS_HEARTBEAT_MS + 5_000,
        "Mesa to undo the killed import",
      );
      if (round === 0 && chunks > 0) expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 2 * PROCESS_HEARTBEAT_MS);
      done = true;
      const statuses = await selling;
      expect(statuses.length).toBeGreaterThan(0);
      // Refused, every one: the person is not registered (yet).
      expect(new Set(statuses)).toEqual(new Set([422]));
    }
    expect(one<number>("SELECT count(*) FROM sales")).toBe(0);
    expect(
      testApp.db.$client
        .query("SELECT state, message_key FROM diner_imports ORDER BY id")
        .values()
        .every(([state, key]) => state === "rolled_back" && key === "diners.import_rolled_back_stopped"),
    ).toBe(true);
    expect(mesa.output()).toMatch(/diner imports? left half-written (was|were) undone/);

    // Left to finish: all of them at once, and sold to.
    const child = importer();
    expect(await child.exited).toBe(0);
    expect(fileDiners()).toBe(ROWS);
    expect(await sell(ROWS - 1)).toBe(201);
  }, 240_000);
});
