import { test } from "bun:test";
import { createTestApp, Client, embeddedPage } from "../support/app";
test("explore", async () => {
  const t = createTestApp();
  const c = new Client(t);
  const r = await c.get("/");
  console.log(r.status, [...r.headers]);
  const html = await r.text();
  console.log(html.slice(0, 3000));
  const { page, response } = await c.visit("/?a=1");
  console.log(response.status, [...response.headers], JSON.stringify(page).slice(0, 1500));
  const rows = t.db.$client.query("select * from sessions").all();
  console.log(rows);
});
