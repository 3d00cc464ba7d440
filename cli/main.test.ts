import { describe, expect, test } from "bun:test";
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { routes } from "../src/http/routes";
import { runInProcess } from "../tests/support/cli";
import { formatRouteTable, routeRows } from "./commands/routes";

const MESA = resolve(import.meta.dir, "../mesa");

function mesa(args: string[], env: Record<string, string> = {}) {
  const result = Bun.spawnSync([MESA, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

describe("./mesa route:list (run in this process)", () => {
  test("route:list prints method, URI, name and access", async () => {
    const { code, out } = await runInProcess(["route:list"], process.env);
    expect(code).toBe(0);
    expect(out).toMatch(/GET\|HEAD\s+\/settings\/language \.+ language\.edit › public/);
    expect(out).toMatch(/PUT\s+\/settings\/language \.+ language\.update › public/);
    expect(out).toContain(`Showing [${routes.length}] routes`);
  });

  test("route:list --json with --name and --path filters", async () => {
    const { code, out } = await runInProcess(["route:list", "--json", "--name", "language"], process.env);
    expect(code).toBe(0);
    const rows = JSON.parse(out);
    expect(rows.map((r: { name: string }) => r.name).sort()).toEqual(["language.edit", "language.update"]);
    expect(routeRows(routes, { path: "/up" }).map((r) => r.name)).toEqual(["health"]);
    expect(formatRouteTable([])).toBe("No routes match.");
  });
});

describe("./mesa, the script, as a process of its own", () => {
  test("an unknown command or option is a clear message and exit code 2", () => {
    const unknown = mesa(["no:such"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'no:such'");
    const badOption = mesa(["route:list", "--nope"]);
    expect(badOption.code).toBe(2);
    expect(badOption.err).toContain("unknown option '--nope'");
  });

  test("db:migrate creates and migrates the database; a bad setting is named", () => {
    const dir = mkdtempSync(join(tmpdir(), "mesa-cli-"));
    const path = join(dir, "nested", "mesa.sqlite");
    const { code, out } = mesa(["db:migrate"], { DB_PATH: path });
    expect(code).toBe(0);
    expect(out).toContain("Database is up to date");
    expect(existsSync(path)).toBe(true);
    const bad = mesa(["db:migrate"], { DB_PATH: path, APP_TIMEZONE: "Nowhere/City" });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("Invalid setting APP_TIMEZONE");
  });
});
