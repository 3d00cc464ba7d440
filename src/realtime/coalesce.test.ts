/**
 * The coalescer behind the figures' throttle: the first item of a key goes out at once, items within the interval go
 * out together once it has passed, a key is never sent twice within the interval, no item is lost, keys are
 * independent, and a failed sending is reported to every item it carried.
 */
import { describe, expect, test } from "bun:test";
import { Coalescer } from "./coalesce";

const INTERVAL = 80;

function recorder(fail = false) {
  const sent: { key: string; items: number[]; at: number }[] = [];
  const coalescer = new Coalescer<string, number>(INTERVAL, async (key, items) => {
    sent.push({ key, items, at: performance.now() });
    if (fail) throw new Error("realtime server unreachable");
  });
  return { sent, coalescer };
}

describe("coalescing a key's items", () => {
  test("the first goes out at once; the next ones wait for the interval and go out together", async () => {
    const { sent, coalescer } = recorder();
    const start = performance.now();
    await coalescer.add("cafe-1", 1);
    expect(sent).toEqual([{ key: "cafe-1", items: [1], at: expect.any(Number) }]);
    expect(sent[0].at - start).toBeLessThan(INTERVAL / 2);
    const second = coalescer.add("cafe-1", 2);
    const third = coalescer.add("cafe-1", 3);
    expect(sent).toHaveLength(1);
    // Another key is not held back by the first.
    await coalescer.add("cafe-2", 9);
    expect(sent.map((s) => s.key)).toEqual(["cafe-1", "cafe-2"]);
    await Promise.all([second, third]);
    expect(sent.map((s) => [s.key, s.items])).toEqual([
      ["cafe-1", [1]],
      ["cafe-2", [9]],
      ["cafe-1", [2, 3]],
    ]);
    expect(sent[2].at - sent[0].at).toBeGreaterThanOrEqual(INTERVAL - 2);
  });

  test("a steady stream is sent at most once per interval, and every item arrives", async () => {
    const { sent, coalescer } = recorder();
    const waits: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; i < 40; i++) {
      waits.push(coalescer.add("cafe-1", i));
      await Bun.sleep(10);
    }
    await Promise.all(waits);
    const elapsed = performance.now() - start;
    expect(sent.flatMap((s) => s.items)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL) + 1);
    expect(sent.length).toBeGreaterThan(2);
    for (let i = 1; i < sent.length; i++) expect(sent[i].at - sent[i - 1].at).toBeGreaterThanOrEqual(INTERVAL - 2);
  });

  test("after a quiet interval the next item goes out at once again", async () => {
    const { sent, coalescer } = recorder();
    await coalescer.add("cafe-1", 1);
    await Bun.sleep(INTERVAL + 10);
    const before = performance.now();
    await coalescer.add("cafe-1", 2);
    expect(sent.map((s) => s.items)).toEqual([[1], [2]]);
    expect(sent[1].at - before).toBeLessThan(INTERVAL / 2);
  });

  test("a failed sending rejects for every item it carried", async () => {
    const { coalescer } = recorder(true);
    await expect(coalescer.add("cafe-1", 1)).rejects.toThrow("realtime server unreachable");
    const late = [coalescer.add("cafe-1", 2), coalescer.add("cafe-1", 3)];
    for (const wait of late) await expect(wait).rejects.toThrow("realtime server unreachable");
  });
});
