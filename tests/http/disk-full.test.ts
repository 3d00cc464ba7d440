/**
 * A full disk: writes become 503 with a clear message (never 500), nothing is half-written, the log says so once a
 * minute rather than once a request, `/ready` says not ready while `/up` stays alive, and Mesa resumes by itself
 * once there is room.
 *
 * The disk is filled two ways: a small tmpfs filled to the last byte where this machine lets the test mount one
 * (root on Linux), and everywhere SQLite's own ceiling on the database's size (`PRAGMA max_page_count`), which
 * refuses a write exactly as a full disk does (SQLITE_FULL).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { sales } from "../../db/schema";
import { dateIn } from "../../src/shared/calendar";
import { translate } from "../../src/shared/i18n";
import { LOG_EVERY_MS, StorageWatch, isStorageFull } from "../../src/storage-health";
import { type Client, type TestApp, fileTestApp } from "../support/app";
import { populatePos } from "../support/pos-app";
import type { PosWorld } from "../support/pos";
import { signedIn, submitJson } from "../support/requests";
import { captureLog, type CapturedLog } from "../support/log";

/** Fills the file system of `folder` to its last byte with one file; returns its path. */
function fill(folder: string): string {
  const path = join(folder, "filler.bin");
  const fd = openSync(path, "w");
  const block = new Uint8Array(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  }
  // The last partial block.
  try {
    for (;;) writeSync(fd, block.subarray(0, 512));
  } catch {}
  closeSync(fd);
  return path;
}

/** Mounts a small tmpfs at a new folder, or null where this machine does not allow it. */
function smallFileSystem(): string | null {
  const folder = mkdtempSync(join(tmpdir(), "mesa-full-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", folder], { stdio: "ignore" });
  if (mounted.status === 0) return folder;
  rmSync(folder, { recursive: true, force: true });
  return null;
}

describe("a full disk", () => {
  let folder: string;
  let mounted: boolean;
  let testApp: TestApp;
  let w: PosWorld;
  let cashier: Client;
  let makeFull: () => void;
  let makeRoom: () => void;
  let errors: { msg?: string }[] = [];
  let log: CapturedLog;

  beforeAll(async () => {
    const small = smallFileSystem();
    mounted = small !== null;
    folder = small ?? mkdtempSync(join(tmpdir(), "mesa-full-"));
    testApp = fileTestApp(join(folder, "mesa.sqlite"), { MIN_FREE_DISK_MB: "1" });
    ({ w } = await populatePos(testApp.db, testApp.config));
    cashier = await signedIn(testApp, "cajera@mesa.test");
    let filler: string | null = null;
    const client = testApp.db.$client;
    makeFull = mounted
      ? () => {
          // The write-ahead log is emptied first, so the next writes need new room on the disk.
          client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
          filler = fill(folder);
        }
      : () => {
          const { page_count } = client.query("PRAGMA page_count").get() as { page_count: number };
          client.exec(`PRAGMA max_page_count = ${page_count}`);
        };
    makeRoom = mounted
      ? () => {
          if (filler) rmSync(filler);
          filler = null;
        }
      : () => client.exec("PRAGMA max_page_count = 1073741823");
    log = captureLog();
    errors = log.lines;
  }, 60_000);

  afterEach(() => makeRoom());

  afterAll(() => {
    log.restore();
    testApp.db.$client.close();
    // Lazily: the connection's cached statements may keep the file open a little longer.
    if (mounted) spawnSync("umount", ["-l", folder], { stdio: "ignore" });
    rmSync(folder, { recursive: true, force: true });
  });

  const sale = (i: number) => ({
    key: `full-${i}-${Math.random().toString(36).slice(2)}`,
    cafe_id: w.norte,
    document_number: "40000001",
    service_date: dateIn("America/Lima"),
    sale_type: "cash",
    other_unit_confirmed: false,
    lines: [{ service_id: w.alm, quantity: 1 }],
  });
  const salesCount = () => testApp.db.select().from(sales).where(eq(sales.cafeId, w.norte)).all().length;

  test("sales are refused with 503 and the message, nothing is half-written, and the log says it once", async () => {
    expect((await submitJson(cashier, "POST", "/sales", sale(0))).status).toBe(201);
    const before = salesCount();
    errors.length = 0;
    makeFull();
    const answers = [];
    for (let i = 1; i <= 40; i++) answers.push(await submitJson(cashier, "POST", "/sales", sale(i)));
    const statuses = answers.map((r) => r.status);
    // Sales are small: the first ones may still fit in the pages SQLite has free; then every one is refused.
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(statuses.slice(-10)).toEqual(Array.from({ length: 10 }, () => 503));
    const refused = answers.find((r) => r.status === 503)!;
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toEqual({ message: translate("es", "errors.disk_full") });
    const written = statuses.filter((s) => s === 201).length;
    expect(salesCount()).toBe(before + written);
    const about = errors.map((line) => String(line.msg)).filter((line) => line.includes("is full"));
    expect(about).toHaveLength(1);
    expect(about[0]).toContain("POST /sales was refused with 503");
    // No request was logged as a server error.
    expect(
      errors
        .map((line) => String(line.msg))
        .filter((line) => line.includes("POST /sales") && !line.includes("is full")),
    ).toEqual([]);

    const up = await testApp.app.handle(new Request("http://mesa.test/up"));
    expect(up.status).toBe(200);
    const ready = await testApp.app.handle(new Request("http://mesa.test/ready"));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, database: { ok: false, reason: "writes_failing" } });
  }, 60_000);

  test("once there is room again, the next sale goes through with no restart", async () => {
    makeFull();
    for (let i = 0; i < 30; i++) await submitJson(cashier, "POST", "/sales", sale(100 + i));
    makeRoom();
    const before = salesCount();
    const answer = await submitJson(cashier, "POST", "/sales", sale(200));
    expect(answer.status).toBe(201);
    expect(salesCount()).toBe(before + 1);
  }, 60_000);

  test("/ready reports the free space against MIN_FREE_DISK_MB, and a full disk as not ready", async () => {
    const ready = await testApp.app.handle(new Request("http://mesa.test/ready"));
    const body = await ready.json();
    expect(body.disk.thresholdMib).toBe(1);
    if (mounted) {
      makeFull();
      // The reading of the free space is kept two seconds.
      await Bun.sleep(2100);
      const full = await (await testApp.app.handle(new Request("http://mesa.test/ready"))).json();
      expect(full).toMatchObject({ ready: false, disk: { ok: false, freeMib: 0 } });
    } else {
      expect(body.disk.ok).toBe(body.disk.freeMib >= 1);
    }
  }, 60_000);
});

describe("the full-disk log", () => {
  test("one line a minute, with how many were refused in between", () => {
    let now = 1_000_000;
    const lines: string[] = [];
    const watch = new StorageWatch(
      "/var/lib/mesa/mesa.sqlite",
      0,
      (line) => lines.push(line),
      () => now,
    );
    for (let i = 0; i < 500; i++) watch.failed("POST /sales");
    expect(lines).toHaveLength(1);
    expect(watch.failingWrites).toBe(true);
    now += LOG_EVERY_MS;
    watch.failed("POST /sales");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("(and 499 more refused since the last line)");
    now += 31_000;
    expect(watch.failingWrites).toBe(false);
  });

  test("full-disk errors are known by their codes, also as a cause", () => {
    expect(isStorageFull(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe(true);
    expect(isStorageFull(new Error("wrapped", { cause: { code: "ENOSPC" } }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error("busy"), { code: "SQLITE_BUSY" }))).toBe(false);
    expect(isStorageFull(null)).toBe(false);
  });
});
