/**
 * Body parser under hostile input, next to a baseline measured in the same run: URLSearchParams reading the same
 * bytes (the least any parser must do). Prints microseconds per body. Checked: each body the parser must refuse is
 * refused as malformed, and each it must accept is read whole (every field, every list item).
 *
 *   NODE_ENV=production bun bench/body-parser.ts          (BENCH_SMOKE=1: a few runs of each case)
 */
import { entriesToInput, INPUT_LIMITS, MalformedBody, type Input } from "../src/http/body";
import { check, finishChecks, setting } from "./support/smoke";

/** Timed runs of a small body and of a large one (over 1,000 bytes). */
const RUNS = setting("BENCH_RUNS", 20_000, 20);
const LARGE_RUNS = setting("BENCH_LARGE_RUNS", 500, 5);

interface Case {
  body: string;
  /** Null: the parser must refuse the body; else what the parsed input must hold. */
  expect: ((input: Input) => boolean) | null;
}

const cases: Record<string, Case> = {
  "huge index (refused)": { body: "email[400000000]=a&password=x", expect: null },
  "index past the end (refused)": { body: `email[${INPUT_LIMITS.maxItems - 1}]=a&password=x`, expect: null },
  "1,000 flat fields": {
    body: Array.from({ length: INPUT_LIMITS.maxFields }, (_, i) => `f${i}=value`).join("&"),
    expect: (input) => Object.keys(input).length === INPUT_LIMITS.maxFields && input.f999 === "value",
  },
  "1,000 list items": {
    body: Array.from({ length: INPUT_LIMITS.maxItems }, () => "ids[]=1").join("&"),
    expect: (input) => Array.isArray(input.ids) && input.ids.length === INPUT_LIMITS.maxItems,
  },
  "too deep (refused)": { body: `a${"[b]".repeat(INPUT_LIMITS.maxDepth + 1)}=1`, expect: null },
  "1,001 fields (refused)": {
    body: Array.from({ length: INPUT_LIMITS.maxFields + 1 }, (_, i) => `f${i}=1`).join("&"),
    expect: null,
  },
};

function time(fn: () => void, runs: number): number {
  for (let i = 0; i < Math.min(50, runs); i++) fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return ((performance.now() - started) * 1000) / runs;
}

/** What Mesa's parser makes of a body: the input, or the error it refused the body with. */
function parse(body: string): { input: Input } | { error: unknown } {
  try {
    return { input: entriesToInput(new URLSearchParams(body)) };
  } catch (error) {
    return { error };
  }
}

console.log("case                        bytes   baseline µs   Mesa µs");
for (const [name, { body, expect }] of Object.entries(cases)) {
  const result = parse(body);
  if (expect === null)
    check("error" in result && result.error instanceof MalformedBody, `${name}: refused as malformed`);
  else check("input" in result && expect(result.input), `${name}: read whole`);
  const runs = body.length > 1000 ? LARGE_RUNS : RUNS;
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
finishChecks();
