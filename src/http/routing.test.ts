import { describe, expect, test } from "bun:test";
import { route } from "ziggy-js";
import { routes } from "./routes";
import { access, checkRegistry, toElysiaPath, ziggyConfig, type RouteDefinition } from "./routing";

const handle = () => new Response(null);
const sample: RouteDefinition[] = [
  { name: "home", methods: ["GET"], uri: "/", access: access.public, handle },
  {
    name: "users.show",
    methods: ["GET"],
    uri: "/users/{user}",
    wheres: { user: "\\d+" },
    bindings: { user: "id" },
    access: access.can("users.view"),
    handle,
  },
  { name: "cafes.sales", methods: ["GET"], uri: "/cafes/{cafe}/sales/{date?}", access: access.signedIn, handle },
];
const config = ziggyConfig(sample, "http://mesa.test:3000");
const to = (name: string, params?: unknown) =>
  route(name as never, params as never, false, config as never) as unknown as string;

describe("the route registry", () => {
  test("every product route declares its access and the registry is consistent", () => {
    expect(checkRegistry(routes)).toEqual([]);
    for (const r of routes) expect(["public", "guest", "signed-in", "permission"]).toContain(r.access.kind);
  });

  test("duplicate names, duplicate endpoints and formats for unknown parameters are reported", () => {
    const problems = checkRegistry([
      ...sample,
      { name: "home", methods: ["GET"], uri: "/again", access: access.public, handle },
      {
        name: "users.other",
        methods: ["GET"],
        uri: "/users/{id}",
        wheres: { user: "\\d+" },
        access: access.public,
        handle,
      },
    ]);
    expect(problems).toContain('route name "home" is used twice');
    expect(problems).toContain("GET /users/{id} is declared twice");
    expect(problems).toContain('route "users.other" has a format for unknown parameter "user"');
  });

  test("URIs become Elysia paths", () => {
    expect(toElysiaPath("/cafes/{cafe}/sales/{date?}")).toBe("/cafes/:cafe/sales/:date?");
  });
});

describe("route() in the browser, through ziggy-js", () => {
  test("resolves names with parameters, objects by their binding key, and query strings", () => {
    expect(to("home")).toBe("/");
    expect(to("users.show", 7)).toBe("/users/7");
    expect(to("users.show", { user: { id: 9, name: "Ana" } })).toBe("/users/9");
    expect(to("cafes.sales", { cafe: 3 })).toBe("/cafes/3/sales");
    expect(to("cafes.sales", { cafe: 3, date: "2026-11-22", page: 2 })).toBe("/cafes/3/sales/2026-11-22?page=2");
  });

  test("an unknown name is an error", () => {
    expect(() => to("nope")).toThrow("route 'nope' is not in the route list");
  });

  test("a missing parameter is an error", () => {
    expect(() => to("users.show")).toThrow("'user' parameter is required for route 'users.show'");
  });

  test("a parameter not matching its format is an error", () => {
    expect(() => to("users.show", "abc")).toThrow(
      "'user' parameter 'abc' does not match required format '\\d+' for route 'users.show'",
    );
  });

  test("an object missing its binding key is an error", () => {
    expect(() => to("users.show", { user: { name: "Ana" } })).toThrow(
      "object passed as 'user' parameter is missing route model binding key 'id'",
    );
  });
});

test("routes.generated.ts lists every route of the registry with its parameters (run ./mesa assets:build after changing a route)", async () => {
  const { routes } = await import("./routes");
  const { routeTypesSource } = await import("./routing");
  const current = await Bun.file(new URL("../shared/routes.generated.ts", import.meta.url)).text();
  expect(current).toBe(routeTypesSource(routes));
});
