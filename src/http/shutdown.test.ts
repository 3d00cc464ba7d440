import { describe, expect, test } from "bun:test";
import { openDatabase } from "../db";
import { describeStop, stopGracefully, type Running } from "./shutdown";

/** A server whose requests in flight are answered after `answerMs` (never, when null). */
function fakeServer(answerMs: number | null, pending: number) {
  const calls: boolean[] = [];
  return {
    calls,
    server: {
      pendingRequests: pending,
      stop(closeActive = false) {
        calls.push(closeActive);
        if (closeActive || answerMs === null) return closeActive ? Promise.resolve() : new Promise<void>(() => {});
        return Bun.sleep(answerMs);
      },
    },
  };
}

function fakeJobs(runMs: number | null, queued: number) {
  let running = runMs === null ? 1 : 0;
  return {
    stop: async () => {
      if (runMs !== null) await Bun.sleep(runMs);
      else await new Promise<void>(() => {});
      return queued;
    },
    get runningCount() {
      return running;
    },
    finish: () => (running = 0),
  };
}

describe("stopGracefully", () => {
  test("waits for the requests and the jobs, closes the sockets, then closes the database", async () => {
    const { server, calls } = fakeServer(30, 3);
    let closedSockets = 0;
    const db = openDatabase(":memory:");
    const running: Running = {
      server,
      realtime: { connectionCount: 2, stop: () => void closedSockets++ },
      jobs: fakeJobs(40, 1),
      db,
    };
    const report = await stopGracefully(running, 1000);
    expect(report).toMatchObject({ timedOut: false, requestsCut: 0, jobsLeft: 0, jobsQueued: 1, socketsClosed: 2 });
    expect(calls).toEqual([false]);
    expect(closedSockets).toBe(1);
    expect(() => db.$client.query("SELECT 1").get()).toThrow();
    expect(describeStop(report)).toContain("2 realtime connection(s) told to reconnect");
  });

  test("when the grace period runs out, cuts what is left and says so; a database a job still holds stays open", async () => {
    const { server, calls } = fakeServer(null, 4);
    const db = openDatabase(":memory:");
    const report = await stopGracefully({ server, realtime: null, jobs: fakeJobs(null, 0), db }, 50);
    expect(report).toMatchObject({ timedOut: true, requestsCut: 4, jobsLeft: 1 });
    expect(calls).toEqual([false, true]);
    expect(db.$client.query("SELECT 1 AS ok").get()).toEqual({ ok: 1 });
    expect(describeStop(report)).toContain("the grace period ran out: 4 request(s) left unanswered");
    expect(describeStop(report)).toContain("1 running job(s) left for the next start-up to fail");
  });
});
