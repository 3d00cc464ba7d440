/**
 * The replication drill, to a folder and to S3 (a local stand-in of the S3 protocol, tests/support/s3-stand-in.ts):
 * a real Mesa process replicates its database with Litestream while a cashier sells; a moment T is taken once the first sales have had time to ship; more sales follow; Mesa is killed
 * (SIGKILL), and its Litestream with it. `./mesa db:restore --at T` then brings back every sale acknowledged before T
 * and none of those made after it, keeps the database it replaced, and refused while Mesa still ran.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { litestreamConfigPath } from "../../src/replication";
import { clockIn, dateIn } from "../../src/shared/calendar";
import { type Client, fileTestApp } from "../support/app";
import { MESA } from "../support/cli";
import { eventually } from "../support/eventually";
import { freePort, headersOf, startMesa, type MesaProcess } from "../support/mesa-process";
import { populatePos } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn } from "../support/requests";
import { startS3StandIn } from "../support/s3-stand-in";

const SYNC_MS = 100;
const METRICS_TOKEN = "drill-metrics-token-0123456789";
const BUCKET = "mesa-replicas";

/** Where the drill replicates to: its settings, and whether anything has reached it yet. */
interface Target {
  settings: (folder: string) => Record<string, string>;
  holdsSomething: (folder: string) => boolean;
  stop?: () => void;
}

const inFolder: Target = {
  settings: (folder) => ({ REPLICA_URL: join(folder, "replica") }),
  holdsSomething: (folder) => existsSync(join(folder, "replica", "generations")),
};

function inS3(): Target {
  const s3 = startS3StandIn([BUCKET], "MESA-DRILL");
  return {
    settings: () => ({
      REPLICA_URL: `s3://${BUCKET}/cusco`,
      REPLICA_ENDPOINT: s3.endpoint,
      REPLICA_REGION: "us-east-1",
      LITESTREAM_ACCESS_KEY_ID: "MESA-DRILL",
      LITESTREAM_SECRET_ACCESS_KEY: "drill-secret",
    }),
    holdsSomething: () => s3.keys(BUCKET).some((key) => key.includes("/snapshots/")),
    stop: s3.stop,
  };
}

describe.each([
  ["a folder", () => inFolder],
  ["S3", inS3],
])("replication to %s: sell, replicate, kill, restore to a moment", (_, makeTarget) => {
  let target: Target;
  let folder: string;
  let dbPath: string;
  let w: PosWorld;
  let cashier: Client;
  let mesa: MesaProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    target = makeTarget();
    folder = mkdtempSync(join(tmpdir(), "mesa-replication-"));
    dbPath = join(folder, "mesa.sqlite");
    const testApp = fileTestApp(dbPath);
    const populated = await populatePos(testApp.db, testApp.config);
    w = populated.w;
    cashier = await signedIn(testApp, populated.people.cajera);
    testApp.db.$client.close();
    env = {
      DB_PATH: dbPath,
      STORAGE_PATH: join(folder, "storage"),
      NODE_ENV: "test",
      APP_LOCALE: "en",
      APP_TIMEZONE: "America/Lima",
      REPLICA_SYNC_INTERVAL: `${SYNC_MS}ms`,
      ...target.settings(folder),
    };
    mesa = await startMesa(dbPath, freePort(), { ...env, METRICS_TOKEN });
    expect(mesa.output()).toContain("Mesa is running at");
  }, 30_000);

  afterAll(async () => {
    mesa?.child.kill("SIGKILL");
    await mesa?.exited;
    target?.stop?.();
    rmSync(folder, { recursive: true, force: true });
  });

  // Not spawnSync: the S3 stand-in answers from this process's event loop.
  const cli = async (...args: string[]) => {
    const run = Bun.spawn([MESA, ...args], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...env },
    });
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ]);
    return { code, out, err };
  };

  let keys = 0;
  /** A cash lunch at Norte through Mesa; its id once acknowledged. */
  const sell = async (): Promise<number> => {
    const response = await fetch(`${mesa.origin}/sales`, {
      method: "POST",
      headers: headersOf(cashier),
      body: JSON.stringify({
        key: `drill-${++keys}-${Math.random().toString(36).slice(2)}`,
        cafe_id: w.norte,
        document_number: "40000001",
        service_date: dateIn("America/Lima"),
        sale_type: "cash",
        other_unit_confirmed: false,
        lines: [{ service_id: w.alm, quantity: 1 }],
      }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  };

  /** The processes whose command line names this database's Litestream configuration. */
  const litestreams = () =>
    readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(litestreamConfigPath(dbPath));
        } catch {
          return false;
        }
      });

  const saleIds = (path: string): Set<number> => {
    const db = new Database(path, { readonly: true });
    try {
      return new Set(
        db
          .query<{ id: number }, []>("SELECT id FROM sales")
          .all()
          .map((r) => r.id),
      );
    } finally {
      db.close();
    }
  };

  test("every sale acknowledged before the moment is restored, none after; the replaced database is kept", async () => {
    // Litestream starts with the server and writes the first snapshot.
    await eventually(() => target.holdsSomething(folder), "Litestream's first snapshot", 10_000);
    const before: number[] = [];
    for (let i = 0; i < 25; i++) before.push(await sell());
    // T: a whole second (as --at names it) after Litestream has surely shipped them: it reads the write-ahead log
    // every second, ships every SYNC_MS, and S3 stamps what it stores to the second. The next sales come a second
    // after T.
    const at = new Date(Math.ceil((Date.now() + 2_500) / 1000) * 1000);
    await Bun.sleep(at.getTime() - Date.now() + 1_100);
    const after: number[] = [];
    for (let i = 0; i < 25; i++) after.push(await sell());

    // The replica holds writes from after T (the second batch, the lease's renewals) before the server dies.
    let replicas: { replicatedBy: { pid: number }; spans: { to: string }[]; lastSnapshot: unknown };
    for (;;) {
      const status = await cli("db:replicas", "--json");
      expect(status.code).toBe(0);
      replicas = JSON.parse(status.out);
      if (new Date(replicas.spans.at(-1)?.to ?? 0) > at) break;
      await Bun.sleep(200);
    }
    expect(replicas.replicatedBy.pid).toBe(mesa.child.pid);
    expect(replicas.spans.length).toBeGreaterThanOrEqual(1);
    expect(replicas.lastSnapshot).not.toBeNull();

    const metrics = await fetch(`${mesa.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(await metrics.text()).toContain("mesa_replication_running 1");

    // Asked while Mesa runs, the restore refuses and says how.
    const moment = clockIn("America/Lima", at);
    const refused = await cli("db:restore", "--at", moment, "--yes");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Stop it first");

    // The server dies, and its Litestream with it.
    expect(litestreams().length).toBeGreaterThan(0);
    mesa.child.kill("SIGKILL");
    await mesa.exited;
    await eventually(() => litestreams().length === 0, "Litestream to end with the killed server");

    // A killed server counts as running until its lease lapses (15 s): the drill ages the lease instead of waiting.
    const db = new Database(dbPath);
    db.query("UPDATE processes SET seen_at = seen_at - 60000").run();
    db.close();

    const restored = await cli("db:restore", "--at", moment, "--yes");
    expect(restored.err).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.out).toContain("Restoring from the replica needs about");
    expect(restored.out).toContain(`Restored the database as it was at ${moment} (America/Lima)`);

    const now = saleIds(dbPath);
    expect(before.filter((id) => !now.has(id))).toEqual([]);
    expect(after.filter((id) => now.has(id))).toEqual([]);
    // The database it replaced is kept whole in the backups folder: every sale of both batches.
    const kept = readdirSync(join(folder, "storage", "backups")).filter((f) => f.startsWith("mesa-before-restore"));
    expect(kept.length).toBe(1);
    const keptIds = saleIds(join(folder, "storage", "backups", kept[0]));
    expect([...before, ...after].filter((id) => !keptIds.has(id))).toEqual([]);

    // A moment the replica does not cover is refused, saying what it covers.
    const outside = await cli("db:restore", "--at", "2020-01-01 10:00", "--yes");
    expect(outside.code).toBe(1);
    expect(outside.err).toMatch(/The replica covers .* 2020-01-01 10:00:00 \(America\/Lima\) is outside it/);
  }, 60_000);
});
