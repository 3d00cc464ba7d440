/** Strict-Transport-Security: sent when Mesa is served over https (APP_URL), never over plain http. */
import { describe, expect, test } from "bun:test";
import { Client, createTestApp } from "../support/app";

describe("transport security", () => {
  test("https sends Strict-Transport-Security for a year; http sends none", async () => {
    const secure = new Client(createTestApp({ env: { APP_URL: "https://mesa.example.pe" } }));
    expect((await secure.get("/login")).headers.get("strict-transport-security")).toBe(
      "max-age=31536000; includeSubDomains",
    );
    const plain = new Client(createTestApp());
    expect((await plain.get("/login")).headers.get("strict-transport-security")).toBeNull();
  });
});
