/** `./mesa payment-method:list`, `shift:list` and `shift:show`: the catalogue of methods, a cafe's shifts, one shift's reckoning. */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { cliWorkspace, mesaInProcess, sql, type Workspace } from "../tests/support/cli";

/** A migrated workspace with one cafe, Comedor Norte (with its till Caja 1), and the rows of `more` statements. */
async function withCafe(ws: Workspace, ...more: string[]): Promise<void> {
  expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
  for (const statement of [
    "INSERT INTO businesses (id, name, ruc) VALUES (1, 'Catering Andino', '20100070970')",
    "INSERT INTO mines (name) VALUES ('Mina Toquepala')",
    "INSERT INTO units (mine_id, name) VALUES (1, 'Unidad Central')",
    "INSERT INTO cafes (unit_id, business_id, name) VALUES (1, 1, 'Comedor Norte')",
    ...more,
  ])
    sql(ws, statement);
}

test("lists the methods in their order with the cafes that take them; --json too", async () => {
  const ws = cliWorkspace("mesa-cash-cli-");
  try {
    await withCafe(ws);
    const json = await mesaInProcess(ws, ["payment-method:list", "--json"]);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.out) as { code: string; name: string; needsReference: boolean; cafes: string[] }[];
    expect(rows.map((r) => [r.code, r.name, r.needsReference, r.cafes])).toEqual([
      ["cash", "Cash", false, ["Comedor Norte"]],
      ["yape", "Yape", true, []],
      ["plin", "Plin", true, []],
      ["card", "Card", true, []],
      ["transfer", "Transfer", true, []],
    ]);
    const text = await mesaInProcess(ws, ["payment-method:list"]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^cash\s+Cash\s+No\s+Yes\s+Yes\s+1: Comedor Norte$/m);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});

test("shift:list and shift:show: a cafe's shifts and one shift's reckoning", async () => {
  const ws = cliWorkspace("mesa-cash-cli-");
  try {
    await withCafe(
      ws,
      "INSERT INTO users (id, name, email, password_hash, created_at, updated_at) VALUES (7, 'Ana Cajera', 'ana@mesa.test', 'x', 0, 0)",
      `INSERT INTO cash_shifts (cafe_id, till_id, till_name, cashier_id, cashier_name, state, opened_at, opening_float_cents,
         closed_at, closed_by_name, counted_pieces, counted_cents, expected_cents, note)
       VALUES (1, 1, 'Caja 1', 7, 'Ana Cajera', 'closed', 1796130000000, 5000, 1796166000000, 'Ana Cajera', '{"5000":1}', 5000, 5300, 'Faltan S/ 3')`,
      "INSERT INTO cash_moves (shift_id, kind, reason, amount_cents, note, by_name, at) VALUES (1, 'in', 'change_fund', 300, '', 'Ana Cajera', 1796130600000)",
    );
    const list = await mesaInProcess(ws, ["shift:list", "--cafe", "Comedor Norte", "--date", "2026-12-01"]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(
      /^1\s+Caja 1\s+Ana Cajera\s+2026-12-01 08:00:00\s+2026-12-01 18:00:00\s+S\/\s50\.00\s+S\/\s53\.00\s+S\/\s50\.00\s+-S\/\s3\.00$/m,
    );
    expect(
      (await mesaInProcess(ws, ["shift:list", "--cafe", "Comedor Norte", "--date", "2026-12-02"])).out,
    ).not.toContain("Caja 1 ");
    const show = await mesaInProcess(ws, ["shift:show", "1"]);
    expect(show.code).toBe(0);
    expect(show.out).toContain("cash in S/\u00a03.00: Change fund");
    expect(show.out).toContain("Expected cash: S/\u00a053.00");
    expect((await mesaInProcess(ws, ["shift:show", "9"])).code).toBe(1);
    expect((await mesaInProcess(ws, ["shift:list", "--cafe", "Nadie"])).code).toBe(1);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});
