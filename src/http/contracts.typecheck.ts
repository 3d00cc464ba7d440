/**
 * Compile-time proof of the typed contracts between server and browser: every line under `@ts-expect-error` must
 * fail to compile, so `npm run typecheck` fails the day a typo in a page or route name, a page prop of the wrong
 * type, a missing route parameter or an unknown permission would slip through. Never run; nothing imports it.
 */
import type { useRoute } from "../../resources/js/hooks/use-route";
import { can } from "../domain/access/authorization";
import type { RequestContext } from "./context";
import { access } from "./routing";

export function contractChecks(ctx: RequestContext, route: ReturnType<typeof useRoute>): void {
  ctx.urlFor("users.update", { user: 1 });
  ctx.urlFor("users.index", { area: 3 });
  // @ts-expect-error a route name that does not exist
  ctx.urlFor("user.index");
  // @ts-expect-error a route without its required parameter
  ctx.urlFor("users.update");

  route("users.update", { user: 1 });
  route("dashboard");
  // @ts-expect-error a route name that does not exist, in the browser
  route("dashbord");
  // @ts-expect-error a route without its required parameter, in the browser
  route("users.update", {});

  ctx.render("auth/verify-email", { email: "ana@mesa.test" });
  ctx.render("auth/verify-email", { email: () => "ana@mesa.test" });
  // @ts-expect-error a page that does not exist
  ctx.render("users/indx");
  // @ts-expect-error a prop of the wrong type
  ctx.render("auth/verify-email", { email: 5 });
  // @ts-expect-error a required prop left out
  ctx.render("auth/verify-email", {});

  access.can("users.manage");
  can(ctx.access, "roles.manage");
  // @ts-expect-error a permission that is not in the catalogue
  access.can("user.manage");
  // @ts-expect-error a permission that is not in the catalogue
  can(ctx.access, "roles.mange");
}
