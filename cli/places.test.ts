/**
 * `./mesa import:places FILE [--dry-run]`, run in this process (tests/support/cli.ts) on a copy of a seeded database
 * (demo business "Mesa Catering S.A.C.", Mina Cerro Verde → Unidad Norte → Comedor Principal, services DES, ALM, …).
 * Messages are checked in English (APP_LOCALE=en) against the dictionaries. Standard error is no terminal here, so
 * the import's progress comes first on it as plain lines, before any message.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { translate } from "../src/i18n";
import { buildWorkbook } from "../src/domain/spreadsheets/write";
import { mesaInProcess, seededTemplate, sql, workspaceFrom, type Workspace } from "../tests/support/cli";

const en = (key: string, params?: Record<string, string | number>) => translate("en", key, params);

const SETTINGS = { APP_TIMEZONE: "America/Lima" };

let template = "";

beforeAll(async () => {
  template = await seededTemplate("mesa-places-cli-template-", SETTINGS);
});

const workspace = (): Workspace => workspaceFrom(template, "mesa-places-cli-", SETTINGS);

type Rows = (string | number | null)[][];

/** Writes an .xlsx file with the given sheets (first row: headers) into the workspace; returns its path. */
function workbookFile(ws: Workspace, name: string, sheets: Record<string, Rows>): string {
  const bytes = buildWorkbook(
    Object.entries(sheets).map(([sheet, [header, ...rows]]) => ({
      name: sheet,
      columns: header.map((h, i) => ({ header: String(h), value: (row: Rows[number]) => row[i] })),
      rows,
    })),
  );
  const path = join(ws.dir, name);
  writeFileSync(path, bytes);
  return path;
}

const tally = (created: number, updated: number) => en("import.tally", { created, updated });

const PROGRESS_LABELS = ["import.progress_reading", "import.progress_checking", "import.progress_saving"].map((key) =>
  en(key),
);

/** The lines of standard error that are not progress (cli/progress.ts). */
const messages = (err: string) =>
  err
    .trim()
    .split("\n")
    .filter((line) => line !== "" && !PROGRESS_LABELS.some((label) => line.startsWith(label)));

const goodSheets = (): Record<string, Rows> => ({
  Units: [
    ["Mine", "Name", "Services"],
    ["Mina Cerro Verde", "Unidad Este", "DES"],
  ],
  Cafes: [
    ["Mine", "Unit", "Name", "Business", "Time zone", "Services"],
    ["Mina Cerro Verde", "Unidad Este", "Comedor Este", "Mesa Catering S.A.C.", "", "DES"],
  ],
  Prices: [
    ["Mine", "Unit", "Cafe", "Service", "Price"],
    ["Mina Cerro Verde", "Unidad Este", "Comedor Este", "DES", "13.00"],
  ],
});

describe("./mesa import:places", () => {
  test("imports a workbook and prints what it created; importing it again changes nothing", async () => {
    const ws = workspace();
    const file = workbookFile(ws, "places.xlsx", goodSheets());
    const first = await mesaInProcess(ws, ["import:places", file]);
    // Progress as plain lines: each step, then each further tenth of the way (three rows to check here).
    const checking = (done: number) =>
      en("jobs.progress_count", { label: en("import.progress_checking"), done, total: 3 });
    const progress = first.err.trim().split("\n");
    expect(progress.slice(0, 5)).toEqual([
      `${en("import.progress_reading")}…`,
      `${en("import.progress_checking")}…`,
      checking(1),
      checking(2),
      checking(3),
    ]);
    // Saving counts every service and place of the database, from none to all, in at most eleven lines.
    const saving = progress.slice(5);
    const total = Number(/ of (\d+)$/.exec(saving[0])?.[1]);
    expect(saving[0]).toBe(en("jobs.progress_count", { label: en("import.progress_saving"), done: 0, total }));
    expect(saving.at(-1)).toBe(en("jobs.progress_count", { label: en("import.progress_saving"), done: total, total }));
    expect(saving.length).toBeLessThanOrEqual(11);
    expect(first.code).toBe(0);
    expect(first.out.trim()).toBe(
      en("import.done", {
        mines: tally(0, 0),
        units: tally(1, 0),
        cafes: tally(1, 0),
        services: tally(0, 0),
        prices: tally(1, 0),
      }),
    );
    const cafe = sql<{ id: number; time_zone: string }>(
      ws,
      "SELECT id, time_zone FROM cafes WHERE name = 'Comedor Este'",
    )[0];
    expect(cafe.time_zone).toBe("America/Lima");
    expect(
      sql(
        ws,
        "SELECT old_price_cents, new_price_cents, changed_by_label FROM service_price_history WHERE cafe_id = ?",
        cafe.id,
      ),
    ).toEqual([{ old_price_cents: null, new_price_cents: 1300, changed_by_label: "cli" }]);
    expect(sql(ws, "SELECT actor_label FROM audit_log WHERE action = 'places.imported'")).toEqual([
      { actor_label: "cli" },
    ]);

    const again = await mesaInProcess(ws, ["import:places", file]);
    expect(again.code).toBe(0);
    expect(again.out.trim()).toBe(
      en("import.done", {
        mines: tally(0, 0),
        units: tally(0, 0),
        cafes: tally(0, 0),
        services: tally(0, 0),
        prices: tally(0, 0),
      }),
    );
    expect(sql(ws, "SELECT COUNT(*) AS n FROM cafes WHERE name = 'Comedor Este'")).toEqual([{ n: 1 }]);
  });

  test("--dry-run checks and writes nothing", async () => {
    const ws = workspace();
    const result = await mesaInProcess(ws, [
      "import:places",
      workbookFile(ws, "places.xlsx", goodSheets()),
      "--dry-run",
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(en("import.checked"));
    expect(sql(ws, "SELECT COUNT(*) AS n FROM cafes WHERE name = 'Comedor Este'")).toEqual([{ n: 0 }]);
  });

  test("bad rows are printed one per line with their sheet and row, exit code 1, nothing written", async () => {
    const ws = workspace();
    const file = workbookFile(ws, "bad.xlsx", {
      Units: [
        ["Mine", "Name"],
        ["Mina Fantasma", "Unidad F"],
        ["Mina Cerro Verde", "Unidad Oeste"],
      ],
      Cafes: [
        ["Mine", "Unit", "Name", "Business", "Time zone"],
        ["Mina Cerro Verde", "Unidad Oeste", "Comedor Oeste", "Mesa Catering S.A.C.", "Lima/Peru"],
      ],
    });
    const result = await mesaInProcess(ws, ["import:places", file]);
    expect(result.code).toBe(1);
    expect(messages(result.err)).toEqual([
      en("import.failed"),
      `Units, row 2 (Mine): ${en("import.mine_not_found", { mine: "Mina Fantasma" })}`,
      `Cafes, row 2 (Time zone): ${en("import.time_zone_invalid", { zone: "Lima/Peru" })}`,
    ]);
    expect(sql(ws, "SELECT COUNT(*) AS n FROM units WHERE name = 'Unidad Oeste'")).toEqual([{ n: 0 }]);
  });

  test("a file that is not a workbook is refused with exit code 1", async () => {
    const ws = workspace();
    const path = join(ws.dir, "places.xlsx");
    writeFileSync(path, "Name,Services\n");
    const result = await mesaInProcess(ws, ["import:places", path]);
    expect(result.code).toBe(1);
    expect(messages(result.err)).toEqual([en("import.not_xlsx")]);
  });

  test("a missing file or argument is a usage mistake (exit code 2)", async () => {
    const ws = workspace();
    const missing = await mesaInProcess(ws, ["import:places", join(ws.dir, "nowhere.xlsx")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("No such file");
    expect((await mesaInProcess(ws, ["import:places"])).code).toBe(2);
  });
});
