/** The public front door, the dashboard and the health check. */
import { isDatabaseReachable } from "../../db";
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
      return ctx.render("dashboard", {
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
