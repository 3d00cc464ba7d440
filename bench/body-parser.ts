/**
 * Body parser under hostile input, next to a baseline measured in the same run: URLSearchParams reading the same
 * bytes (the least any parser must do). Prints microseconds per body; nothing is asserted.
 *
 *   NODE_ENV=production bun bench/body-parser.ts
 */
import { entriesToInput, INPUT_LIMITS } from "../src/http/body";

const cases: Record<string, string> = {
  "huge index (refused)": "email[400000000]=a&password=x",
  "index past the end (refused)": `email[${INPUT_LIMITS.maxItems - 1}]=a&password=x`,
  "1,000 flat fields": Array.from({ length: INPUT_LIMITS.maxFields }, (_, i) => `f${i}=value`).join("&"),
  "1,000 list items": Array.from({ length: INPUT_LIMITS.maxItems }, () => "ids[]=1").join("&"),
  "too deep (refused)": `a${"[b]".repeat(INPUT_LIMITS.maxDepth + 1)}=1`,
  "1,001 fields (refused)": Array.from({ length: INPUT_LIMITS.maxFields + 1 }, (_, i) => `f${i}=1`).join("&"),
};

function time(fn: () => void, runs: number): number {
  for (let i = 0; i < 50; i++) fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return ((performance.now() - started) * 1000) / runs;
}

console.log("case                        bytes   baseline µs   Mesa µs");
for (const [name, body] of Object.entries(cases)) {
  const runs = body.length > 1000 ? 500 : 20_000;
  const baseline = time(() => [...new URLSearchParams(body)], runs);
  const mesa = time(() => {
    try {
      entriesToInput(new URLSearchParams(body));
    } catch {}
  }, runs);
  console.log(
    `${name.padEnd(26)} ${String(body.length).padStart(7)} ${baseline.toFixed(1).padStart(13)} ${mesa.toFixed(1).padStart(9)}`,
  );
}
