/**
 * Bad input never ends in a 500: every write of the places, services and organisation areas, sent by a
 * super-administrator (so no permission or scope stops it first) with bodies of the wrong shape, answers with a
 * redirect carrying errors, a 4xx, or a success — and the database keeps its foreign keys.
 */
import { describe, expect, test } from "bun:test";
import { runSeeders } from "../../db/seeds";
import { DEMO_EMAIL } from "../../db/seeds/access";
import { hashPassword } from "../../src/domain/accounts/passwords";
import { users } from "../../db/schema";
import { eq } from "drizzle-orm";
import { routes } from "../../src/http/routes";
import { BASE, Client, createTestApp } from "../support/app";

const AREAS =
  /^(management|mines|units|cafes|cafe_prices|places|services|businesses|headquarters|properties|dealerships|subdealerships)\./;
const JUNK: unknown[] = [
  {},
  {
    name: 123,
    ruc: ["x"],
    code: { a: 1 },
    email: 5,
    business_id: "abc",
    mine_id: -1,
    unit_id: 1.5,
    time_zone: "Mars/Olympus",
  },
  {
    name: "=cmd|' /C calc'!A0",
    ruc: "20100079704",
    dealership_id: 999999,
    unit_ids: ["x", 999999],
    location: "cafe:abc",
    status: "lost",
    acquired_on: "2026-02-30",
    acquisition_value: "12.345",
  },
  { service_ids: "DES", confirm: "maybe", prices: { "1": "abc", x: null } },
  { cafe_name: "x".repeat(5000), mine_name: "", unit_name: null, location: "hq:999999", service_ids: [999999] },
];

describe("bad input", () => {
  test("every write of these areas answers without a server error, whatever the body", async () => {
    const app = createTestApp();
    await runSeeders(app.db, app.config);
    app.db
      .update(users)
      .set({ passwordHash: await hashPassword("correct-horse-42") })
      .where(eq(users.email, DEMO_EMAIL))
      .run();
    const client = new Client(app);
    await client.visit("/login");
    const login = await client.request("/login", {
      method: "POST",
      inertia: true,
      json: { email: DEMO_EMAIL, password: "correct-horse-42" },
      headers: { referer: `${BASE}/login` },
    });
    expect(login.headers.get("location")).toBe("/dashboard");

    const writes = routes.filter((r) => AREAS.test(r.name) && r.methods.some((m) => m !== "GET"));
    expect(writes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of writes) {
      // Existing ids (1 is seeded for every table here) and ids that do not exist.
      for (const id of ["1", "999999"]) {
        const path = route.uri
          .replace(/\{kind\}/, "cafe")
          .replace(/\{table\}/, "cafes")
          .replace(/\{\w+\}/g, id);
        for (const method of route.methods.filter((m) => m !== "GET")) {
          for (const body of JUNK) {
            if (method === "DELETE" && body !== JUNK[0]) continue;
            const response = await client.request(path, {
              method,
              inertia: true,
              json: body,
              headers: { referer: `${BASE}/management` },
            });
            if (response.status >= 500)
              failures.push(`${method} ${path} ${JSON.stringify(body).slice(0, 80)} → ${response.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(app.db.$client.query("PRAGMA foreign_key_check").all()).toEqual([]);
  }, 60_000);
});
