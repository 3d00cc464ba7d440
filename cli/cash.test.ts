/** `./mesa payment-method:list`: the catalogue, what each method needs, and the cafes that take it. */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { cliWorkspace, mesaInProcess, sql } from "../tests/support/cli";

test("lists the methods in their order with the cafes that take them; --json too", async () => {
  const ws = cliWorkspace("mesa-cash-cli-");
  try {
    expect((await mesaInProcess(ws, ["db:migrate"])).code).toBe(0);
    for (const statement of [
      "INSERT INTO businesses (id, name, ruc) VALUES (1, 'Catering Andino', '20100070970')",
      "INSERT INTO mines (name) VALUES ('Mina Toquepala')",
      "INSERT INTO units (mine_id, name) VALUES (1, 'Unidad Central')",
      "INSERT INTO cafes (unit_id, business_id, name) VALUES (1, 1, 'Comedor Norte')",
    ])
      sql(ws, statement);
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
