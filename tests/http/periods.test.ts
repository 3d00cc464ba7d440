/**
 * Closing and reopening a month through the app: who may (sales.close_period, sales.reopen_period: the
 * administrator's, not the cashier's nor the cafe manager's), the answers (201, 200, 422 per field, 409), a sale
 * into a closed month refused on its service date, and the page protocol's redirect with its notice.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { dateIn } from "../../src/shared/calendar";
import { translate } from "../../src/shared/i18n";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit, submitJson } from "../support/requests";

let world: PosApp;
let lastMonth: string;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  world = await posApp();
  const today = dateIn("America/Lima");
  const first = new Date(`${today.slice(0, 7)}-01T12:00:00Z`);
  first.setUTCDate(0);
  lastMonth = first.toISOString().slice(0, 7);
});

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

describe("closing a month (sales.periods.close, sales.periods.reopen)", () => {
  test("the cashier and the cafe manager may not; the administrator closes, a sale into the month is refused, and reopens", async () => {
    const body = { cafe_id: world.w.norte, month: lastMonth };
    for (const who of ["cajera", "jefa"] as const) {
      expect((await submitJson(await as(who), "POST", "/sales/periods", body)).status).toBe(403);
      const reopen = { ...body, reason: "Probando" };
      expect((await submitJson(await as(who), "POST", "/sales/periods/reopen", reopen)).status).toBe(403);
    }
    const root = await as("root");
    const closed = await submitJson(root, "POST", "/sales/periods", body);
    expect(closed.status).toBe(201);
    expect(await closed.json()).toMatchObject({ cafeId: world.w.norte, month: lastMonth, cafeName: "Comedor Norte" });
    expect((await submitJson(root, "POST", "/sales/periods", body)).status).toBe(409);

    const sale = await submitJson(root, "POST", "/sales", {
      key: `closed-month-${Date.now()}`,
      cafe_id: world.w.norte,
      document_number: "40000001",
      service_date: `${lastMonth}-15`,
      sale_type: "cash",
      lines: [{ service_id: world.w.alm, quantity: 1 }],
    });
    expect(sale.status).toBe(422);
    const errors = (await sale.json()).errors;
    expect(errors.service_date).toBe(
      translate("es", "periods.closed_for_sales", { month: lastMonth, cafe: "Comedor Norte" }),
    );

    const noReason = await submitJson(root, "POST", "/sales/periods/reopen", body);
    expect(noReason.status).toBe(422);
    expect(Object.keys((await noReason.json()).errors)).toEqual(["reason"]);
    const reopened = await submitJson(root, "POST", "/sales/periods/reopen", { ...body, reason: "Nota de crédito" });
    expect(reopened.status).toBe(200);
  });

  test("bad input is refused per field without a 500; the page protocol gets its redirect and notice", async () => {
    const root = await as("root");
    for (const bad of [{}, { cafe_id: "x", month: "octubre" }, { cafe_id: world.w.norte, month: "2026-1" }]) {
      const response = await submitJson(root, "POST", "/sales/periods", bad);
      expect(response.status).toBe(422);
    }
    expect((await submitJson(root, "POST", "/sales/periods", { cafe_id: 999_999, month: lastMonth })).status).toBe(404);
    const response = await submit(root, "POST", "/sales/periods", { cafe_id: world.w.sur, month: lastMonth });
    expect(response.status).toBe(302);
  });
});
