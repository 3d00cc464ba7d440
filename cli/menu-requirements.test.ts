/**
 * `./mesa menu:requirements`, run in this process (tests/support/cli.ts) on a migrated database holding the what-to-buy
 * world of tests/support/menu-requirements.ts (its numbers worked by hand in src/domain/menu/requirements.test.ts).
 * Messages are checked in English (APP_LOCALE=en); the workbook is read back with SheetJS.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { openDatabase } from "../src/db";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { cliWorkspace, mesaInProcess, workspaceFrom } from "../tests/support/cli";
import { requirementsWorld, type RequirementsWorld } from "../tests/support/menu-requirements";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);
let template = "";
let world: RequirementsWorld;

beforeAll(async () => {
  const ws = cliWorkspace("mesa-menu-req-cli-template-", {}, "template.sqlite");
  const migrated = await mesaInProcess(ws, ["db:migrate"]);
  expect({ code: migrated.code, err: migrated.err }).toEqual({ code: 0, err: "" });
  const db = openDatabase(ws.dbPath);
  try {
    world = requirementsWorld(db);
  } finally {
    db.$client.close();
  }
  template = ws.dbPath;
}, 60_000);

const workspace = () => workspaceFrom(template, "mesa-menu-req-cli-");

describe("./mesa menu:requirements", () => {
  test("writes the workbook of a cafe's published menu and says what it holds", async () => {
    const ws = workspace();
    const out = join(ws.dir, "compras.xlsx");
    const args = ["menu:requirements", "--cafe", "Comedor Norte", "--from", world.monday, "--to", world.wednesday];
    const { code, out: stdout, err } = await mesaInProcess(ws, [...args, "--out", out]);
    expect({ code, err: err.includes("Error") ? err : "" }).toEqual({ code: 0, err: "" });
    expect(stdout.trim()).toBe(
      en("menuRequirements.cli.written", { file: out, count: 2, lines: 6, missing: 1, total: "S/ 594.25" }),
    );
    // No terminal: the progress is plain lines on standard error.
    expect(err).toContain(en("menuRequirements.export.progress_writing"));
    const book = XLSX.read(readFileSync(out), { type: "buffer" });
    expect(book.SheetNames).toEqual([
      "Summary",
      "Distribuidora Andina",
      "Mercado Mayorista Sur",
      "No offer",
      "Servings",
    ]);
    const summary = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Summary, { header: 1, raw: true });
    expect([summary[3][0], summary[3][5]]).toEqual(["Total", 594.25]);

    const json = await mesaInProcess(ws, [...args, "--out", out, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      file: out,
      cafe: "Comedor Norte",
      providers: 2,
      lines: 6,
      missing: 1,
      totalCents: 59_425,
    });
  });

  test("refuses a bad range or file name (exit 2) and an unknown cafe (exit 1), leaving the file as it was", async () => {
    const ws = workspace();
    const out = join(ws.dir, "compras.xlsx");
    writeFileSync(out, "before");
    const run = (...extra: string[]) =>
      mesaInProcess(ws, ["menu:requirements", "--cafe", "Comedor Norte", "--from", "2026-12-01", ...extra]);
    const long = await run("--to", "2027-02-15", "--out", out);
    expect(long.code).toBe(2);
    expect(long.err).toContain(en("menuRequirements.errors.range_too_long", { max: 62 }));
    expect((await run("--to", "2026-12-02", "--out", join(ws.dir, "compras.csv"))).code).toBe(2);
    const unknown = await mesaInProcess(ws, [
      "menu:requirements",
      "--cafe",
      "Comedor Oeste",
      "--from",
      "2026-12-01",
      "--to",
      "2026-12-02",
      "--out",
      out,
    ]);
    expect(unknown.code).toBe(1);
    expect(readFileSync(out, "utf8")).toBe("before");
    expect(existsSync(join(ws.dir, "compras.csv"))).toBe(false);
  });
});
