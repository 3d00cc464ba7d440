/**
 * `./mesa user:deactivate` and `./mesa blacklist:add` when no Mesa is running: the change is made and the command
 * succeeds, saying that open tabs will notice on their next request. With a running Mesa the same commands sign the
 * person out at once: tests/realtime/cli-parity.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../src/config";
import { cliWorkspace, mesaInProcess, sql, type Workspace } from "../tests/support/cli";
import { cliEvents } from "./events";

const PASSWORD = "correct-horse-42";

/** A loopback address where nothing listens: a port the system just handed out and took back. */
async function closedAddress(): Promise<string> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return `http://127.0.0.1:${port}`;
}

/** A migrated workspace whose Mesa is not running, with Ana (document 12345678) and Luis, each with a session. */
async function workspace(): Promise<{ ws: Workspace; origin: string; ana: number; luis: number }> {
  const origin = await closedAddress();
  const ws = cliWorkspace("mesa-events-cli-", { APP_URL: origin });
  expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
  expect(
    (
      await mesaInProcess(ws, [
        "user:create",
        "--name",
        "Ana Quispe",
        "--email",
        "ana@mesa.test",
        "--password",
        PASSWORD,
        "--document",
        "12345678",
      ])
    ).code,
  ).toBe(0);
  expect(
    (
      await mesaInProcess(ws, [
        "user:create",
        "--name",
        "Luis Rojas",
        "--email",
        "luis@mesa.test",
        "--password",
        PASSWORD,
      ])
    ).code,
  ).toBe(0);
  const id = (email: string) => sql<{ id: number }>(ws, "SELECT id FROM users WHERE email = ?", email)[0].id;
  const ana = id("ana@mesa.test");
  const luis = id("luis@mesa.test");
  sql(
    ws,
    "INSERT INTO sessions (id, user_id, data, last_activity) VALUES ('s-ana', ?, '{}', 0), ('s-luis', ?, '{}', 0)",
    ana,
    luis,
  );
  return { ws, origin, ana, luis };
}

const notReached = (origin: string) =>
  new RegExp(
    `^The realtime server at ${origin.replace(/\./g, "\\.")} was not reached \\(ECONNREFUSED.*\\), so their open tabs were not signed out at once: they will notice on their next request\\.$`,
    "m",
  );

describe("with no Mesa running", () => {
  test("./mesa user:deactivate deactivates and ends the sessions, says open tabs will notice on their next request, and exits 0", async () => {
    const { ws, origin, ana } = await workspace();
    const { code, out, err } = await mesaInProcess(ws, ["user:deactivate", "ana@mesa.test"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toStartWith("Deactivated ana@mesa.test; their sessions have ended.\n");
    expect(out).toMatch(notReached(origin));
    expect(sql(ws, "SELECT status FROM users WHERE id = ?", ana)).toEqual([{ status: "deactivated" }]);
    expect(sql(ws, "SELECT id FROM sessions ORDER BY id")).toEqual([{ id: "s-luis" }]);
  });

  test("./mesa blacklist:add bars the account, ends its sessions, says open tabs will notice on their next request, and exits 0", async () => {
    const { ws, origin, luis } = await workspace();
    const { code, out, err } = await mesaInProcess(ws, [
      "blacklist:add",
      "87654321",
      "--reason",
      "Robo de vales",
      "--user",
      "luis@mesa.test",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toStartWith(
      "Added DNI 87654321 (Luis Rojas) to the blacklist: Robo de vales\nluis@mesa.test can no longer sign in; their sessions have ended.\n",
    );
    expect(out).toMatch(notReached(origin));
    expect(sql(ws, "SELECT user_id AS userId FROM blacklist")).toEqual([{ userId: luis }]);
    expect(sql(ws, "SELECT id FROM sessions ORDER BY id")).toEqual([{ id: "s-ana" }]);
    // A bar that reaches no account has nobody to sign out: nothing is said about tabs.
    const nobody = await mesaInProcess(ws, [
      "blacklist:add",
      "44556677",
      "--reason",
      "Agresión",
      "--name",
      "Pedro Salas",
    ]);
    expect(nobody.code).toBe(0);
    expect(nobody.out.trim()).toBe("Added DNI 44556677 (Pedro Salas) to the blacklist: Agresión");
  });
});

describe("cliEvents", () => {
  test("says nothing when nothing was published; otherwise waits for the subscribers and says whether the realtime server was reached", async () => {
    const origin = await closedAddress();
    const config = loadConfig({
      NODE_ENV: "test",
      APP_URL: origin,
      APP_KEY: "test-key-0123456789-0123456789-0123456789",
    });
    const quiet = cliEvents(config);
    expect(await quiet.outcome()).toBeNull();
    const events = cliEvents(config);
    events.publisher.publish({ name: "UserDeactivated", userId: 5 });
    expect(await events.outcome()).toMatch(notReached(origin));
  });
});
