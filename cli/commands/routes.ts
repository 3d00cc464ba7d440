/** `./mesa route:list`: every route with its method, URI, name and the access it needs. */
import type { Command } from "commander";
import { describeAccess, type RouteDefinition } from "../../src/http/routing";

/** The route registry, loaded only by the commands that list it (it brings the whole web layer with it). */
export async function loadRoutes(): Promise<RouteDefinition[]> {
  return (await import("../../src/http/routes")).routes;
}

export interface RouteRow {
  method: string;
  uri: string;
  name: string;
  access: string;
}

export function routeRows(list: RouteDefinition[], filters: { name?: string; path?: string } = {}): RouteRow[] {
  return list
    .filter((r) => !filters.name || r.name.includes(filters.name))
    .filter((r) => !filters.path || r.uri.includes(filters.path))
    .map((r) => ({
      method: r.methods.includes("GET")
        ? ["GET", "HEAD", ...r.methods.filter((m) => m !== "GET")].join("|")
        : r.methods.join("|"),
      uri: r.uri,
      name: r.name,
      access: describeAccess(r.access),
    }))
    .sort((a, b) => a.uri.localeCompare(b.uri) || a.method.localeCompare(b.method));
}

export function formatRouteTable(rows: RouteRow[], width = process.stdout.columns || 120): string {
  if (rows.length === 0) return "No routes match.";
  const methodWidth = Math.max(...rows.map((r) => r.method.length)) + 2;
  const lines = rows.map((r) => {
    const left = `  ${r.method.padEnd(methodWidth)}${r.uri}`;
    const right = `${r.name} › ${r.access}`;
    const dots = Math.max(2, width - left.length - right.length - 2);
    return `${left} ${".".repeat(dots)} ${right}`;
  });
  return `${lines.join("\n")}\n\n  Showing [${rows.length}] routes`;
}

export function registerRouteCommands(program: Command): void {
  program
    .command("route:list")
    .description("List every route: method, URI, name and the permission it needs")
    .option("--json", "print JSON instead of a table")
    .option("--name <text>", "only routes whose name contains <text>")
    .option("--path <text>", "only routes whose URI contains <text>")
    .action(async (opts: { json?: boolean; name?: string; path?: string }) => {
      const rows = routeRows(await loadRoutes(), opts);
      console.log(opts.json ? JSON.stringify(rows, null, 2) : formatRouteTable(rows));
    });
}
