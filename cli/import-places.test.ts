/**
 * `./mesa import:places FILE [--dry-run] [--yes]`, run as a person runs it, on a copy of a seeded database (demo
 * business "Mesa Catering S.A.C.", Mina Cerro Verde → Unidad Norte → Comedor Principal, services DES, ALM, …):
 * it prints what importing would do, then asks on a terminal (a real one, through util-linux's `script`), imports
 * without asking with --yes, refuses without a terminal and without --yes (exit code 2), and only shows with
 * --dry-run. Runs without a terminal go through the command in this process (tests/support/cli.ts); those on a
 * terminal through real processes. What it writes is what it showed: when the database changes while it asks, it writes nothing and
 * prints the new preview. Messages are checked in English (APP_LOCALE=en) against the dictionaries.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/db";
import { EVERYTHING } from "../src/domain/access/scope";
import { placesExport } from "../src/domain/places/export";
import { placesTemplate } from "../src/domain/places/import";
import { buildWorkbook, type ExportSheet } from "../src/domain/spreadsheets/write";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { MESA, mesaInProcess, seededTemplate, sql, workspaceFrom, type Workspace } from "../tests/support/cli";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);

const SETTINGS = { APP_TIMEZONE: "America/Lima" };

let template = "";

beforeAll(async () => {
  template = await seededTemplate("mesa-import-places-template-", SETTINGS);
}, 60_000); // two processes when seeding is spawned: slow on a busy machine

const workspace = (): Workspace => workspaceFrom(template, "mesa-import-places-", SETTINGS);

type Rows = (string | number | null)[][];

function writeBook(ws: Workspace, name: string, sheets: ExportSheet<any>[]): string {
  const path = join(ws.dir, name);
  writeFileSync(path, buildWorkbook(sheets));
  return path;
}

/** Writes an .xlsx file with the given sheets (first row: headers) into the workspace; returns its path. */
function workbookFile(ws: Workspace, name: string, sheets: Record<string, Rows>): string {
  return writeBook(
    ws,
    name,
    Object.entries(sheets).map(([sheet, [header, ...rows]]) => ({
      name: sheet,
      columns: header.map((h, i) => ({ header: String(h), value: (row: Rows[number]) => row[i] })),
      rows,
    })),
  );
}

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

/** What the good workbook's preview prints, line by line. */
const goodPreview = [
  "1 new unit",
  "1 new cafe",
  "1 new price",
  "  New unit Mina Cerro Verde › Unidad Este — services DES",
  "  New cafe Mina Cerro Verde › Unidad Este › Comedor Este — business: Mesa Catering S.A.C.; time zone: America/Lima; services DES",
  "  Price of DES at Mina Cerro Verde › Unidad Este › Comedor Este: S/\u00a013.00",
];

const cafesNamed = (ws: Workspace, name: string) =>
  sql<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM cafes WHERE name = ?", name)[0].n;

/** Standard error without the import's progress lines (cli/progress.ts). */
const messages = (err: string) =>
  err
    .trim()
    .split("\n")
    .filter(
      (line) =>
        line !== "" &&
        !(["import.progress_reading", "import.progress_checking", "import.progress_saving"] as const).some((key) =>
          line.startsWith(en(key)),
        ),
    );

/**
 * `./mesa ARGS` on a terminal of its own (a pseudo-terminal made by `script`), answering `answer` once the
 * question shows; `beforeAnswer` runs just before. Returns everything the terminal showed and the exit code.
 */
async function onTerminal(
  ws: Workspace,
  args: string[],
  answer: string,
  beforeAnswer: () => void = () => {},
): Promise<{ code: number; screen: string }> {
  const command = [MESA, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = Bun.spawn(["script", "--quiet", "--return", "--command", command, "/dev/null"], {
    cwd: ws.dir,
    env: { ...process.env, ...ws.env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let screen = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  let answered = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    screen += decoder.decode(value, { stream: true });
    if (!answered && screen.includes(en("import.confirm_prompt").trim())) {
      answered = true;
      beforeAnswer();
      child.stdin.write(`${answer}\n`);
      child.stdin.flush();
    }
  }
  child.stdin.end();
  return { code: await child.exited, screen: screen.replaceAll("\r", "") };
}

describe("./mesa import:places", () => {
  test("without a terminal and without --yes it prints the preview, writes nothing and exits with code 2", async () => {
    const ws = workspace();
    const result = await mesaInProcess(ws, ["import:places", workbookFile(ws, "places.xlsx", goodSheets())]);
    expect(result.code).toBe(2);
    expect(result.out.trim().split("\n")).toEqual(goodPreview);
    expect(messages(result.err)).toEqual([en("import.needs_yes")]);
    expect(cafesNamed(ws, "Comedor Este")).toBe(0);
  });

  test("--yes prints the preview and imports exactly it; importing it again changes nothing", async () => {
    const ws = workspace();
    const file = workbookFile(ws, "places.xlsx", goodSheets());
    const first = await mesaInProcess(ws, ["import:places", file, "--yes"]);
    expect({ code: first.code, err: messages(first.err) }).toEqual({ code: 0, err: [] });
    expect(first.out.trim().split("\n")).toEqual([
      ...goodPreview,
      en("import.done"),
      "1 new unit",
      "1 new cafe",
      "1 new price",
    ]);
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

    const again = await mesaInProcess(ws, ["import:places", file, "--yes"]);
    expect(again.code).toBe(0);
    expect(again.out.trim().split("\n")).toEqual([
      "1 unit unchanged",
      "1 cafe unchanged",
      "1 price unchanged",
      en("import.nothing_to_import"),
    ]);
    expect(cafesNamed(ws, "Comedor Este")).toBe(1);
  });

  test("--dry-run only prints the preview", async () => {
    const ws = workspace();
    const result = await mesaInProcess(ws, [
      "import:places",
      workbookFile(ws, "places.xlsx", goodSheets()),
      "--dry-run",
    ]);
    expect(result.code).toBe(0);
    expect(result.out.trim().split("\n")).toEqual([...goodPreview, en("import.checked")]);
    expect(cafesNamed(ws, "Comedor Este")).toBe(0);
  });

  test("on a terminal it asks: no writes nothing (exit code 1), yes imports", async () => {
    const ws = workspace();
    const file = workbookFile(ws, "places.xlsx", goodSheets());
    const declined = await onTerminal(ws, ["import:places", file], "n");
    expect(declined.code).toBe(1);
    expect(declined.screen).toContain(goodPreview.at(-1)!);
    expect(declined.screen).toContain(en("import.declined"));
    expect(cafesNamed(ws, "Comedor Este")).toBe(0);

    const accepted = await onTerminal(ws, ["import:places", file], "y");
    expect(accepted.code).toBe(0);
    expect(accepted.screen).toContain(en("import.done"));
    expect(cafesNamed(ws, "Comedor Este")).toBe(1);
  });

  test("when the database changes while it asks so the plan differs, it writes nothing and prints the new preview", async () => {
    const ws = workspace();
    const file = workbookFile(ws, "places.xlsx", goodSheets());
    const result = await onTerminal(ws, ["import:places", file], "y", () => {
      // Someone adds the unit meanwhile (as the Management page would).
      const mine = sql<{ id: number }>(ws, "SELECT id FROM mines WHERE name = 'Mina Cerro Verde'")[0].id;
      sql(ws, "INSERT INTO units (mine_id, name) VALUES (?, 'Unidad Este')", mine);
    });
    expect(result.code).toBe(1);
    const after = result.screen.slice(result.screen.indexOf(en("import.plan_changed")));
    expect(after.split("\n").slice(0, 4)).toEqual([
      en("import.plan_changed"),
      "1 changed unit",
      "1 new cafe",
      "1 new price",
    ]);
    expect(cafesNamed(ws, "Comedor Este")).toBe(0);
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
    const result = await mesaInProcess(ws, ["import:places", file, "--yes"]);
    expect(result.code).toBe(1);
    expect(messages(result.err)).toEqual([
      en("import.failed"),
      `Units, row 2 (Mine): ${en("import.mine_not_found", { mine: "Mina Fantasma" })}`,
      `Cafes, row 2 (Time zone): ${en("import.time_zone_invalid", { zone: "Lima/Peru" })}`,
    ]);
    expect(sql(ws, "SELECT COUNT(*) AS n FROM units WHERE name = 'Unidad Oeste'")).toEqual([{ n: 0 }]);
  });

  test("the template imported unchanged writes nothing and says its example rows were skipped", async () => {
    const ws = workspace();
    const file = writeBook(
      ws,
      "template.xlsx",
      placesTemplate("en", { business: "Mesa Catering S.A.C.", timeZone: "America/Lima" }),
    );
    const before = sql(ws, "SELECT COUNT(*) AS n FROM mines");
    const result = await mesaInProcess(ws, ["import:places", file, "--yes"]);
    expect(result.code).toBe(0);
    expect(result.out.trim().split("\n")).toEqual([
      en("import.examples_skipped", {
        count: 5,
        rows: ["Services", "Mines", "Units", "Cafes", "Prices"].map((s) => `${s}, row 2`).join("; "),
      }),
      en("import.nothing_to_import"),
    ]);
    expect(sql(ws, "SELECT COUNT(*) AS n FROM mines")).toEqual(before);
  });

  test("the places export imports back with nothing to change", async () => {
    const ws = workspace();
    const db = openDatabase(ws.dbPath);
    let sheets;
    try {
      sheets = placesExport(db, EVERYTHING, "es", "cafes", undefined);
    } finally {
      db.$client.close();
    }
    const result = await mesaInProcess(ws, ["import:places", writeBook(ws, "export.xlsx", sheets), "--yes"]);
    expect(result.code).toBe(0);
    const prices = sql<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM cafe_services WHERE price_cents IS NOT NULL")[0].n;
    expect(result.out.trim().split("\n")).toEqual([
      "2 mines unchanged",
      "4 units unchanged",
      "8 cafes unchanged",
      "5 services unchanged",
      `${prices} prices unchanged`,
      en("import.nothing_to_import"),
    ]);
  });

  test("a file that is not a workbook is refused with exit code 1; a missing file or argument is a usage mistake", async () => {
    const ws = workspace();
    const path = join(ws.dir, "places.xlsx");
    writeFileSync(path, "Name,Services\n");
    const refused = await mesaInProcess(ws, ["import:places", path]);
    expect(refused.code).toBe(1);
    expect(messages(refused.err)).toEqual([en("import.not_xlsx")]);
    const missing = await mesaInProcess(ws, ["import:places", join(ws.dir, "nowhere.xlsx")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("No such file");
    expect((await mesaInProcess(ws, ["import:places"])).code).toBe(2);
  });
});
