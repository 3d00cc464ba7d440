/**
 * The broadcaster's requests to the Pusher HTTP API: events published in one turn of the event loop go out together
 * (ten to a request, each to its own channel, each with the tab it leaves out), a lone event goes out on its own,
 * and a failed request fails the sends it carried.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BATCH_LIMIT, Broadcaster } from "../../src/realtime/broadcaster";
import type { BroadcastEvent } from "../../src/shared/realtime-events";
import { testConfig } from "../support/app";

interface Received {
  path: string;
  body: Record<string, unknown>;
}

let server: ReturnType<typeof Bun.serve>;
const received: Received[] = [];
/** When set, the API answers 500 to everything. */
let failing = false;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, body: (await request.json()) as Record<string, unknown> });
      if (failing) return new Response("down", { status: 500 });
      return Response.json(path.endsWith("batch_events") ? { batch: [] } : {});
    },
  });
});
afterAll(() => server.stop(true));

function broadcaster(): Broadcaster {
  const config = testConfig({ PUSHER_HOST: "127.0.0.1", PUSHER_PORT: String(server.port) });
  return new Broadcaster(config, { id: "app", key: "key", secret: "secret" });
}

const event = (n: number, channels = [`private-cafe.${n}.sales`]): BroadcastEvent => ({
  name: "SaleChanged",
  channels,
  data: { saleId: n, cafeId: n, serviceDate: "2026-11-24", change: "recorded" },
});
const dataOf = (n: number) => JSON.stringify(event(n).data);

describe("the broadcaster's requests", () => {
  test("a lone event is one request to /events, with the socket it leaves out", async () => {
    received.length = 0;
    await broadcaster().send(event(1), "123.456");
    expect(received).toHaveLength(1);
    expect(received[0].path).toEndWith("/apps/app/events");
    expect(received[0].body).toMatchObject({
      name: "App\\Events\\SaleChanged",
      channels: ["private-cafe.1.sales"],
      data: dataOf(1),
      socket_id: "123.456",
    });
  });

  test("events of one turn go out together, at most ten to a request, each with its own channel and socket", async () => {
    received.length = 0;
    const b = broadcaster();
    const count = BATCH_LIMIT + 3;
    await Promise.all(Array.from({ length: count }, (_, i) => b.send(event(i + 1), i % 2 ? `${i}.1` : null)));
    expect(received.map((r) => r.path.split("/").pop())).toEqual(["batch_events", "batch_events"]);
    // The two requests run side by side and may arrive in either order.
    const saleOf = (e: Record<string, unknown>) => (JSON.parse(e.data as string) as { saleId: number }).saleId;
    const batch = received
      .flatMap((r) => r.body.batch as Record<string, unknown>[])
      .sort((a, b) => saleOf(a) - saleOf(b));
    expect(batch).toHaveLength(count);
    for (const [i, sent] of batch.entries()) {
      expect(sent.channel).toBe(`private-cafe.${i + 1}.sales`);
      expect(sent.data).toBe(dataOf(i + 1));
      expect(sent.socket_id).toBe(i % 2 ? `${i}.1` : undefined);
    }
  });

  test("an event to several channels reaches each of them", async () => {
    received.length = 0;
    await broadcaster().send(event(7, ["private-a", "private-b"]));
    const batch = received[0].body.batch as Record<string, unknown>[];
    expect(batch.map((e) => e.channel)).toEqual(["private-a", "private-b"]);
  });

  test("a refused request fails every send it carried, and only those", async () => {
    const b = broadcaster();
    failing = true;
    const outcomes = await Promise.allSettled([b.send(event(1)), b.send(event(2))]);
    failing = false;
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    await b.send(event(3));
  });
});
