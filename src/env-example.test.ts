import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

test(".env.example lists every setting config.ts reads, and nothing else", () => {
  const source = readFileSync(resolve(import.meta.dir, "config.ts"), "utf8");
  const read = new Set([...source.matchAll(/\(env, "([A-Z_]+)"/g)].map((m) => m[1]));
  const listed = new Set(
    readFileSync(resolve(import.meta.dir, "../.env.example"), "utf8")
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split("=")[0]),
  );
  expect([...listed].sort()).toEqual([...read].sort());
});
