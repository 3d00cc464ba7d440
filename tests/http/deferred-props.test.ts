/**
 * Rescued deferred props in the page protocol (src/http/page-protocol, `defer(…).rescue()`): when a rescued deferred
 * prop fails, its partial reload still answers 200 with the other props and names it in `rescuedProps`, which the
 * client's <Deferred> turns into its `rescue` slot; a deferred prop that is not rescued fails the request as before;
 * only deferred props can be rescued, and rescuing keeps the prop's group and merge options.
 */
import { describe, expect, test } from "bun:test";
import { defer, merge } from "../../src/http/page-protocol/props";
import { access, type RouteDefinition } from "../../src/http/routing";
import { Client, createTestApp } from "../support/app";
import { captureLog } from "../support/log";

function setup(handle: RouteDefinition["handle"]) {
  const route: RouteDefinition = {
    name: "test.rescue",
    methods: ["GET"],
    uri: "/test/rescue",
    access: access.public,
    handle,
  };
  return new Client(createTestApp({ routes: [route] }));
}

const partial = (...only: string[]) => ({
  "x-inertia-partial-component": "test/rescue",
  "x-inertia-partial-data": only.join(","),
});

/** Runs `work` with the log's lines collected instead of written. */
async function quietly<T>(work: () => Promise<T>): Promise<{ result: T; logged: Record<string, any>[] }> {
  const log = captureLog();
  try {
    return { result: await work(), logged: log.lines };
  } finally {
    log.restore();
  }
}

const failing = () => {
  throw new Error("the figures' table is locked");
};

describe("rescued deferred props", () => {
  test("a failing rescued prop is left out and named in rescuedProps; the others of its reload arrive", async () => {
    const client = setup((ctx) =>
      ctx.renderComponent("test/rescue", {
        title: "T",
        figures: defer(failing, "slow").rescue(),
        chart: defer(() => [1, 2], "slow").rescue(),
      }),
    );
    const first = await client.visit("/test/rescue");
    expect(first.page.deferredProps).toEqual({ slow: ["figures", "chart"] });
    expect(first.page).not.toHaveProperty("rescuedProps");
    const { result, logged } = await quietly(() => client.visit("/test/rescue", partial("figures", "chart")));
    expect(result.response.status).toBe(200);
    expect(result.page.rescuedProps).toEqual(["figures"]);
    expect(result.page.props.chart).toEqual([1, 2]);
    expect(result.page.props).not.toHaveProperty("figures");
    expect(logged).toEqual([
      expect.objectContaining({
        msg: "a deferred prop failed and was rescued",
        prop: "figures",
        component: "test/rescue",
      }),
    ]);
    expect(logged[0].err.message).toContain("the figures' table is locked");
  });

  test("a failing deferred prop that is not rescued fails the request, as any error does", async () => {
    const client = setup((ctx) => ctx.renderComponent("test/rescue", { figures: defer(failing) }));
    const { result } = await quietly(() => client.visit("/test/rescue", partial("figures")));
    expect(result.response.status).toBe(500);
    expect(result.page.component).toBe("error");
  });

  test("a rescued prop that works is sent as any deferred prop, and nothing is named", async () => {
    const client = setup((ctx) =>
      ctx.renderComponent("test/rescue", {
        rows: defer(() => [{ id: 1 }])
          .merge()
          .rescue(),
      }),
    );
    const { page } = await client.visit("/test/rescue", partial("rows"));
    expect(page.props.rows).toEqual([{ id: 1 }]);
    expect(page.mergeProps).toEqual(["rows"]);
    expect(page).not.toHaveProperty("rescuedProps");
  });

  test("only deferred props can be rescued", () => {
    expect(() => merge([1]).rescue()).toThrow("only a deferred prop can be rescued");
    const rescued = defer(() => 1, "g").rescue();
    expect([rescued.kind, rescued.group, rescued.rescued]).toEqual(["defer", "g", true]);
  });
});
