/**
 * Property: whatever keys, indexes, depths and sizes a form body or query string holds, the parser either builds a
 * structure within INPUT_LIMITS or refuses with MalformedBody; and through the app the answer is a 4xx or the
 * form's own redirect, never a 500. Bounded by what is built (counted here), not by a timer.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { INPUT_LIMITS, MalformedBody, entriesToInput } from "./body";
import { Client, createTestApp } from "../../tests/support/app";

const segment = fc.oneof(
  fc.constant(""),
  fc.nat({ max: 5 }).map(String),
  fc.constantFrom("400000000", "999", "1000", "4294967295", "1e9", "-1", "00", "__proto__", "constructor", "prototype"),
  fc.string({ maxLength: 6 }),
);
const key = fc
  .tuple(
    fc.string({ minLength: 0, maxLength: 8 }),
    fc.array(segment, { maxLength: 12 }),
    fc.constantFrom("", "]", "[", "x]"),
  )
  .map(([head, parts, tail]) => head + parts.map((p) => `[${p}]`).join("") + tail);
const entries = fc.array(fc.tuple(key, fc.string({ maxLength: 10 })), { maxLength: 1200 });

/** Counts nodes, the longest array and the depth of a built structure. */
function measure(value: unknown, depth = 0): { nodes: number; longest: number; depth: number } {
  if (typeof value !== "object" || value === null) return { nodes: 1, longest: 0, depth };
  const children = Object.values(value);
  const own = Array.isArray(value) ? value.length : 0;
  let result = { nodes: 1, longest: own, depth };
  for (const child of children) {
    const inner = measure(child, depth + 1);
    result = {
      nodes: result.nodes + inner.nodes,
      longest: Math.max(result.longest, inner.longest),
      depth: Math.max(result.depth, inner.depth),
    };
  }
  return result;
}

describe("body parser bounds (property)", () => {
  test("any form entries build a bounded structure or are refused with MalformedBody", () => {
    fc.assert(
      fc.property(entries, (list) => {
        let built: unknown;
        try {
          built = entriesToInput(list);
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedBody);
          return;
        }
        const size = measure(built);
        expect(size.longest).toBeLessThanOrEqual(INPUT_LIMITS.maxItems);
        expect(size.depth).toBeLessThanOrEqual(INPUT_LIMITS.maxDepth + 1);
        // Every entry adds at most one node per level of its key.
        expect(size.nodes).toBeLessThanOrEqual(1 + list.length * (INPUT_LIMITS.maxDepth + 1));
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test("through the app, any form body to sign-in ends in a 4xx or the form's redirect, never a 500", async () => {
    const app = createTestApp();
    const client = new Client(app);
    await client.visit("/login");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, fc.string({ maxLength: 10 })), { maxLength: 40 }), async (list) => {
        const body = list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        const response = await client.request("/login", {
          method: "POST",
          inertia: true,
          body,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect(response.status).toBeLessThan(500);
        expect([302, 303, 400, 413, 419, 422, 429]).toContain(response.status);
      }),
      { numRuns: 60 },
    );
  });
});
