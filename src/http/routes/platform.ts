/** The public front door, the dashboard and the health check. */
import { isDatabaseReachable } from "../../db";
import { access, defineRoutes } from "../routing";
import { placeTree } from "../../domain/access/places";

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
    name: "dashboard",
    methods: ["GET"],
    uri: "/dashboard",
    access: access.signedIn,
    handle: (ctx) => {
      const user = ctx.user!;
      const scope = ctx.scope;
      return ctx.render("dashboard", {
        // The cafes whose "on duty" presence this user may see (the first 12 of their scope).
        cafes: () =>
          placeTree(ctx.db, scope)
            .mines.flatMap((m) =>
              m.units.flatMap((u) => u.cafes.map((c) => ({ id: c.id, name: c.name, unit: u.name }))),
            )
            .slice(0, 12),
        account: {
          name: user.name,
          email: user.email,
          emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
          lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
          createdAt: user.createdAt.toISOString(),
          roles: ctx.access.roles,
        },
      });
    },
  },
]);
