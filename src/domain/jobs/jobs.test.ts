/**
 * Background jobs: the record's life (queued → running → succeeded or failed), progress recorded and announced to
 * the owner, a failure the code expected and a crash both ending failed with a message, at most two jobs at a time,
 * uploads deleted when a job ends (or kept for a confirmation, for a while), and the start-up sweep of jobs a stopped
 * process left behind. The jobs here are
 * small handlers written for the test; the places import through a job is in tests/http/places-import.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jobs } from "../../../db/schema";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { addUser } from "../../../tests/support/people";
import type { User } from "../accounts/users";
import { EVERYTHING, type Scope } from "../access/scope";
import { message } from "../../shared/message";
import type { DomainEvent } from "../events";
import {
  createJob,
  CRASHED,
  dismissJob,
  failInterruptedJobs,
  findJob,
  findOwnJob,
  holdsUpload,
  INTERRUPTED,
  latestJob,
  markFailed,
  markRunning,
  markSucceeded,
  releaseKeptUploads,
  storeUpload,
  sweepKeptUploads,
  takeKeptUpload,
  UPLOAD_KEPT_MS,
  uploadsFolder,
} from "./jobs";
import { JobFailed, JobRunner, MAX_RUNNING, type JobHandler } from "./runner";
import {
  endProcess,
  forgetGoneProcesses,
  liveProcesses,
  PROCESS_LEASE_MS,
  registerProcess,
  renewLease,
} from "./processes";
import { captureLog } from "../../../tests/support/log";

let db: Db;
let owner: User;
let events: DomainEvent<"JobUpdated">[];
let storage: string;

beforeEach(async () => {
  db = migratedDatabase();
  owner = await addUser(db, "Ana Dueña", "ana@mesa.test");
  events = [];
  storage = mkdtempSync(join(tmpdir(), "mesa-jobs-"));
});

/** A promise the test settles by hand, to hold a job in the middle of its work. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function runner(handlers: JobHandler[]): JobRunner {
  return new JobRunner(db, handlers, async (event) => {
    events.push(event);
  });
}

const LIMITED: Scope = { all: false, cafeIds: new Set([3, 4]), headquartersIds: new Set(), businessIds: new Set([2]) };

const start = (r: JobRunner, kind: string, input: unknown = {}, upload: string | null = null) =>
  r.start({ kind, actor: { userId: owner.id, label: owner.email }, scope: LIMITED, input, upload });

describe("a job's life", () => {
  test("queued when started, running while its code runs, then succeeded with its result and the progress it reported", async () => {
    const hold = gate();
    const seen: { actor: unknown; scope: Scope; input: unknown }[] = [];
    const r = runner([
      {
        kind: "test.count",
        async run({ actor, scope, input, progress, checkpoint }) {
          seen.push({ actor, scope, input });
          progress(0, 3, "import.progress_reading");
          await checkpoint();
          await hold.opened;
          progress(3, 3, "import.progress_reading");
          return { counted: 3 };
        },
      },
    ]);
    const job = start(r, "test.count", { file: "a.xlsx" });
    expect(job.state).toBe("queued");
    expect(findJob(db, job.id)!.state).toBe("queued");

    await Bun.sleep(20);
    const running = findJob(db, job.id)!;
    expect(running.state).toBe("running");
    expect(running.startedAt).toBeInstanceOf(Date);
    // The checkpoint recorded the progress before the work went on.
    expect(running.progress).toEqual({ done: 0, total: 3, label: "import.progress_reading" });
    // The job acts as who started it, with the scope they had then.
    expect(seen).toEqual([
      { actor: { userId: owner.id, label: owner.email }, scope: LIMITED, input: { file: "a.xlsx" } },
    ]);

    hold.open();
    await r.idle();
    const done = findJob(db, job.id)!;
    expect(done.state).toBe("succeeded");
    expect(done.result).toEqual({ counted: 3 });
    expect(done.progress).toEqual({ done: 3, total: 3, label: "import.progress_reading" });
    expect(done.error).toBeNull();
    expect(done.finishedAt).toBeInstanceOf(Date);

    // Its owner heard each step: queued, running, the progress, the end.
    expect(events.map((e) => [e.userId, e.jobId, e.state, e.progress.done])).toEqual([
      [owner.id, job.id, "queued", 0],
      [owner.id, job.id, "running", 0],
      [owner.id, job.id, "running", 0],
      [owner.id, job.id, "succeeded", 3],
    ]);
  });

  test("a failure the code expected ends the job failed with its message and result", async () => {
    const r = runner([
      {
        kind: "test.refuse",
        async run() {
          throw new JobFailed(message("import.failed"), { problems: ["fila 2"] });
        },
      },
    ]);
    const job = start(r, "test.refuse");
    await r.idle();
    const failed = findJob(db, job.id)!;
    expect(failed.state).toBe("failed");
    expect(failed.error).toEqual(message("import.failed"));
    expect(failed.result).toEqual({ problems: ["fila 2"] });
    expect(events.at(-1)!.state).toBe("failed");
  });

  test("a crash ends the job failed with a message for its owner, and the details in the log", async () => {
    const logged = captureLog();
    try {
      const r = runner([
        {
          kind: "test.crash",
          async run({ progress }) {
            progress(1, 2, "import.progress_checking");
            throw new TypeError("undefined is not a function");
          },
        },
      ]);
      const job = start(r, "test.crash");
      await r.idle();
      const failed = findJob(db, job.id)!;
      expect(failed.state).toBe("failed");
      expect(failed.error).toEqual(message(CRASHED));
      expect(failed.result).toBeNull();
      expect(failed.progress).toEqual({ done: 1, total: 2, label: "import.progress_checking" });
      expect(logged.lines[0]).toMatchObject({ level: "error", msg: "a job failed", kind: "test.crash" });
      expect(logged.lines[0].err.stack).toContain("undefined is not a function");
    } finally {
      logged.restore();
    }
  });

  test("progress reported inside a transaction that rolls back is still recorded (it is written afterwards)", async () => {
    const r = runner([
      {
        kind: "test.rollback",
        async run({ db, progress }) {
          try {
            db.transaction((tx) => {
              progress(5, 10, "import.progress_checking");
              tx.update(jobs).set({ progressLabel: "inside" }).run();
              throw new Error("roll back");
            });
          } catch {
            throw new JobFailed("import.failed");
          }
          return null;
        },
      },
    ]);
    const job = start(r, "test.rollback");
    await r.idle();
    expect(findJob(db, job.id)!.progress).toEqual({ done: 5, total: 10, label: "import.progress_checking" });
  });

  test("at most two jobs run at once; the next starts when one ends, in the order they were started", async () => {
    const holds = [gate(), gate(), gate()];
    const order: number[] = [];
    const r = runner([
      {
        kind: "test.wait",
        async run({ input }) {
          const n = (input as { n: number }).n;
          order.push(n);
          await holds[n].opened;
          return n;
        },
      },
    ]);
    const started = [0, 1, 2].map((n) => start(r, "test.wait", { n }));
    await Bun.sleep(20);
    expect(MAX_RUNNING).toBe(2);
    expect(started.map((j) => findJob(db, j.id)!.state)).toEqual(["running", "running", "queued"]);
    holds[1].open();
    await Bun.sleep(20);
    expect(started.map((j) => findJob(db, j.id)!.state)).toEqual(["running", "succeeded", "running"]);
    holds[0].open();
    holds[2].open();
    await r.idle();
    expect(order).toEqual([0, 1, 2]);
    expect(started.map((j) => findJob(db, j.id)!.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
  });

  test("a stop starts no more jobs and resolves once the running ones end; the queued stay queued", async () => {
    const holds = [gate(), gate(), gate()];
    const r = runner([
      {
        kind: "test.wait",
        async run({ input }) {
          await holds[(input as { n: number }).n].opened;
          return "done";
        },
      },
    ]);
    const started = [0, 1, 2].map((n) => start(r, "test.wait", { n }));
    await Bun.sleep(20);
    const stop = { queued: null as number | null };
    const stopping = r.stop().then((queued) => (stop.queued = queued));
    expect(r.runningCount).toBe(2);
    holds[0].open();
    await Bun.sleep(20);
    // The third job would start now, but the runner is stopping.
    expect(started.map((j) => findJob(db, j.id)!.state)).toEqual(["succeeded", "running", "queued"]);
    expect(stop.queued).toBeNull();
    holds[1].open();
    await stopping;
    expect(stop.queued).toBe(1);
    expect(r.runningCount).toBe(0);
    expect(started.map((j) => findJob(db, j.id)!.state)).toEqual(["succeeded", "succeeded", "queued"]);
    holds[2].open();
  });

  test("the upload a job owns is deleted when it ends, whether it succeeded or failed", async () => {
    const r = runner([
      { kind: "test.ok", run: async () => "ok" },
      { kind: "test.no", run: async () => Promise.reject(new JobFailed("import.failed")) },
    ]);
    const first = storeUpload(storage, new Uint8Array([1, 2, 3]), "xlsx");
    const second = storeUpload(storage, new Uint8Array([4, 5, 6]), "xlsx");
    expect(first.startsWith(uploadsFolder(storage))).toBe(true);
    start(r, "test.ok", {}, first);
    start(r, "test.no", {}, second);
    await r.idle();
    expect([existsSync(first), existsSync(second)]).toEqual([false, false]);
  });

  test("a kind with no code is refused when started", () => {
    const r = runner([]);
    expect(() => start(r, "test.unknown")).toThrow('no job handler for "test.unknown"');
    expect(db.select().from(jobs).all()).toEqual([]);
  });
});

describe("an upload kept for a confirmation", () => {
  const keeper = (crash = false): JobHandler => ({
    kind: "test.preview",
    async run({ keepUpload }) {
      keepUpload();
      if (crash) throw new TypeError("boom");
      return "shown";
    },
  });

  test("a job that keeps its upload leaves it for its owner, until it is handed over once", async () => {
    const r = runner([keeper()]);
    const upload = storeUpload(storage, new Uint8Array([1, 2]), "xlsx");
    const job = start(r, "test.preview", {}, upload);
    await r.idle();
    const done = findJob(db, job.id)!;
    expect(done.state).toBe("succeeded");
    expect(done.upload).toBe(upload);
    expect(existsSync(upload)).toBe(true);
    expect(holdsUpload(done)).toBe(true);
    // Handed to the job that confirms it: the file stays, the finished job no longer holds it.
    expect(takeKeptUpload(db, done)).toBe(upload);
    expect(existsSync(upload)).toBe(true);
    expect(findJob(db, job.id)!.upload).toBeNull();
    expect(takeKeptUpload(db, findJob(db, job.id)!)).toBeNull();
  });

  test("it is deleted when its time is up, when its owner dismisses the job, or uploads another file of its kind", async () => {
    const r = runner([keeper()]);
    const uploads = [1, 2, 3].map((n) => storeUpload(storage, new Uint8Array([n]), "xlsx"));
    const jobs = uploads.map((u) => start(r, "test.preview", {}, u));
    await r.idle();
    const [expiring, dismissed, replaced] = jobs.map((j) => findJob(db, j.id)!);
    // Not yet: the time is counted from the job's end.
    expect(sweepKeptUploads(db, new Date(expiring.finishedAt!.getTime() + UPLOAD_KEPT_MS - 1000))).toBe(0);
    const later = new Date(expiring.finishedAt!.getTime() + UPLOAD_KEPT_MS + 1);
    expect(holdsUpload(expiring, later)).toBe(false);
    // Taken after its time, it is not handed over but deleted.
    expect(takeKeptUpload(db, expiring, later)).toBeNull();
    expect(existsSync(uploads[0])).toBe(false);
    dismissJob(db, owner.id, dismissed.id);
    expect(existsSync(uploads[1])).toBe(false);
    expect(findJob(db, dismissed.id)!.upload).toBeNull();
    releaseKeptUploads(db, owner.id, "test.preview");
    expect(existsSync(uploads[2])).toBe(false);
    expect(findJob(db, replaced.id)!.upload).toBeNull();
  });

  test("the sweep deletes every kept upload past its time", async () => {
    const r = runner([keeper()]);
    const upload = storeUpload(storage, new Uint8Array([1]), "xlsx");
    const job = start(r, "test.preview", {}, upload);
    await r.idle();
    const finished = findJob(db, job.id)!.finishedAt!;
    expect(sweepKeptUploads(db, new Date(finished.getTime() + UPLOAD_KEPT_MS + 1))).toBe(1);
    expect(existsSync(upload)).toBe(false);
    expect(findJob(db, job.id)!.upload).toBeNull();
  });

  test("a job that crashes keeps nothing, and one that never asked to keep its upload holds none", async () => {
    const logged = captureLog();
    try {
      const r = runner([keeper(true), { kind: "test.plain", run: async () => "ok" }]);
      const crashed = start(r, "test.preview", {}, storeUpload(storage, new Uint8Array([1]), "xlsx"));
      const plain = start(r, "test.plain", {}, storeUpload(storage, new Uint8Array([2]), "xlsx"));
      await r.idle();
      for (const job of [crashed, plain]) {
        const done = findJob(db, job.id)!;
        expect(done.upload).toBeNull();
        expect(holdsUpload(done)).toBe(false);
      }
    } finally {
      logged.restore();
    }
  });
});

describe("start-up", () => {
  test("jobs a stopped process left queued or running are marked failed with a message; finished ones stay; uploads are deleted", () => {
    const actor = { userId: owner.id, label: owner.email };
    const queued = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {} });
    const running = createJob(db, {
      kind: "test.a",
      actor,
      scope: EVERYTHING,
      input: {},
      upload: storeUpload(storage, new Uint8Array([1]), "xlsx"),
    });
    markRunning(db, running.id);
    const finished = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {} });
    markRunning(db, finished.id);
    markSucceeded(db, finished.id, "done");
    const upload = findJob(db, running.id)!.upload!;
    expect(existsSync(upload)).toBe(true);

    expect(failInterruptedJobs(db)).toBe(2);
    expect([queued, running, finished].map((j) => findJob(db, j.id)!).map((j) => [j.state, j.error])).toEqual([
      ["failed", message(INTERRUPTED)],
      ["failed", message(INTERRUPTED)],
      ["succeeded", null],
    ]);
    expect(findJob(db, running.id)!.finishedAt).toBeInstanceOf(Date);
    expect(existsSync(upload)).toBe(false);
    // The record no longer holds it either: nothing could confirm it.
    expect(findJob(db, running.id)!.upload).toBeNull();
    // A second start finds nothing left to mark.
    expect(failInterruptedJobs(db)).toBe(0);
  });
});

describe("jobs have owners", () => {
  test("only the jobs of a gone server are failed: a live neighbour's stay; a lapsed lease counts as gone", () => {
    const actor = { userId: owner.id, label: owner.email };
    const t0 = new Date("2026-12-03T10:00:00Z");
    const here = registerProcess(db, "127.0.0.1:8000", t0);
    const neighbour = registerProcess(db, "127.0.0.1:8001", t0);
    const gone = registerProcess(db, "127.0.0.1:8002", new Date(t0.getTime() - PROCESS_LEASE_MS));
    const mine = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {}, processId: here });
    const theirs = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {}, processId: neighbour });
    markRunning(db, theirs.id);
    const orphan = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {}, processId: gone });
    markRunning(db, orphan.id);
    expect(
      liveProcesses(db, t0)
        .map((p) => p.id)
        .sort(),
    ).toEqual([here, neighbour].sort());

    expect(failInterruptedJobs(db, t0)).toBe(1);
    expect([mine, theirs, orphan].map((j) => findJob(db, j.id)!.state)).toEqual(["queued", "running", "failed"]);

    // The neighbour goes quiet while this server renews its lease: its job is failed on a later heartbeat.
    const later = new Date(t0.getTime() + PROCESS_LEASE_MS + 1);
    renewLease(db, here, "127.0.0.1:8000", later);
    expect(failInterruptedJobs(db, later)).toBe(1);
    expect([mine, theirs].map((j) => findJob(db, j.id)!.state)).toEqual(["queued", "failed"]);
    expect(forgetGoneProcesses(db, later)).toBe(2);
    expect(liveProcesses(db, later).map((p) => p.id)).toEqual([here]);

    // A lease renewed after its row was forgotten (a long pause) is written again; a graceful stop removes it.
    forgetGoneProcesses(db, new Date(later.getTime() + PROCESS_LEASE_MS + 1));
    renewLease(db, here, "127.0.0.1:8000", later);
    expect(liveProcesses(db, later).map((p) => p.id)).toEqual([here]);
    endProcess(db, here);
    expect(liveProcesses(db, later)).toEqual([]);
  });

  test("a runner stamps the jobs it starts with its process", async () => {
    const r = runner([{ kind: "test.ok", run: async () => "ok" }]);
    r.processId = registerProcess(db, "127.0.0.1:8000");
    const job = start(r, "test.ok");
    await r.idle();
    expect(
      db
        .select()
        .from(jobs)
        .all()
        .find((row) => row.id === job.id)!.processId,
    ).toBe(r.processId);
  });
});

describe("whose job it is", () => {
  test("only who started a job finds it, sees it as their latest of its kind, and dismisses it once finished", async () => {
    const other = await addUser(db, "Otro Usuario", "otro@mesa.test");
    const actor = { userId: owner.id, label: owner.email };
    const older = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {} });
    const newer = createJob(db, { kind: "test.a", actor, scope: EVERYTHING, input: {} });
    createJob(db, { kind: "test.b", actor, scope: EVERYTHING, input: {} });
    expect(findOwnJob(db, owner.id, newer.id).id).toBe(newer.id);
    expect(() => findOwnJob(db, other.id, newer.id)).toThrow("Not found");
    expect(latestJob(db, owner.id, "test.a")!.id).toBe(newer.id);
    expect(latestJob(db, other.id, "test.a")).toBeNull();

    // A running job stays; a finished one is dismissed, and no older one shows instead.
    dismissJob(db, owner.id, newer.id);
    expect(latestJob(db, owner.id, "test.a")!.id).toBe(newer.id);
    markFailed(db, newer.id, message("import.failed"));
    expect(() => dismissJob(db, other.id, newer.id)).toThrow("Not found");
    dismissJob(db, owner.id, newer.id);
    expect(latestJob(db, owner.id, "test.a")).toBeNull();
    expect(findOwnJob(db, owner.id, older.id).dismissedAt).toBeNull();
  });
});

afterEach(() => {
  db.$client.close();
});
