/** The public front door, the dashboard and the health check. */
import { readiness } from "../readiness";
import { isDatabaseReachable } from "../../db";
import { NotFound } from "../../domain/errors";
import { safeEqual } from "../../crypto";
import { can } from "../../domain/access/authorization";
import { roleLabel } from "../../shared/access/built-in-roles";
import { chosenCafe, dashboardCafes, dashboardFigures, roleKeepers } from "../../domain/sales/dashboard";
import { defer } from "../page-protocol/props";
import { access, defineRoutes } from "../routing";

export const platformRoutes = defineRoutes([
  {
    name: "home",
    methods: ["GET"],
    uri: "/",
    access: access.public,
    handle: (ctx) => ctx.render("welcome", { canRegister: ctx.config.registrationEnabled }),
  },
  {
    name: "health",
    methods: ["GET"],
    uri: "/up",
    access: access.public,
    session: false,
    handle: (ctx) => {
      const ok = isDatabaseReachable(ctx.db);
      return Response.json({ status: ok ? "ok" : "database unreachable" }, { status: ok ? 200 : 503 });
    },
  },
  {
    name: "readiness",
    methods: ["GET"],
    uri: "/ready",
    access: access.public,
    session: false,
    // Whether this Mesa can do its work now: the database takes writes, the disk has room, the jobs move
    // (src/http/readiness.ts). Figures only, no paths or names.
    handle: (ctx) => {
      const state = readiness(ctx.services);
      return Response.json(state, { status: state.ready ? 200 : 503 });
    },
  },
  {
    name: "metrics",
    methods: ["GET"],
    uri: "/metrics",
    access: access.public,
    session: false,
    // Prometheus's scrape (src/metrics.ts), for whoever holds METRICS_TOKEN as a bearer token; not served without it.
    handle: async (ctx) => {
      const token = ctx.config.metricsToken;
      if (token === null) throw new NotFound();
      const given = /^Bearer (\S+)$/.exec(ctx.request.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!safeEqual(given, token))
        return new Response("The metrics need the bearer token METRICS_TOKEN.\n", {
          status: 401,
          headers: { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8" },
        });
      const { registry } = ctx.services.metrics;
      return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
    },
  },
  {
    name: "dashboard",
    methods: ["GET"],
    uri: "/dashboard",
    access: access.signedIn,
    handle: (ctx) => {
      const user = ctx.user!;
      // The cafes of the person's scope; `?cafe=ID` narrows the figures to one of them (another id is not found).
      const cafes = dashboardCafes(ctx.db, ctx.scope);
      const chosen = chosenCafe(cafes, ctx.query.cafe);
      const salesView = can(ctx.access, "sales.view");
      return ctx.render("dashboard", {
        cafes: cafes.map(({ id, name, unit }) => ({ id, name, unit })),
        cafe: chosen?.id ?? null,
        salesView,
        // Computed after the page has painted (a deferred prop); a failure shows on the figures alone.
        ...(salesView
          ? { figures: defer(() => dashboardFigures(ctx.db, chosen ? [chosen] : cafes), "figures").rescue() }
          : {}),
        // Who can give a role, for a person who has none yet.
        roleKeepers: () => (ctx.access.roles.length === 0 ? roleKeepers(ctx.db, user.id) : []),
        account: {
          name: user.name,
          email: user.email,
          emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
          lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
          createdAt: user.createdAt.toISOString(),
          // Each role by the name people see in their language ("Jefe de comedor"), not its stored name.
          roles: ctx.access.roles.map((role) => roleLabel(role, ctx.locale)),
        },
      });
    },
  },
]);
