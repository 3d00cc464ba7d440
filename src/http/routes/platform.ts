/** The public front door, the health check, and the per-browser preferences (language; theme lives client-side). */
import { isDatabaseReachable } from "../../db";
import { ValidationFailed } from "../../domain/errors";
import { isLocale, locales } from "../../../resources/js/lib/i18n";
import { access, defineRoutes } from "../routing";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const platformRoutes = defineRoutes([
  {
    name: "home",
    methods: ["GET"],
    uri: "/",
    access: access.public,
    handle: (ctx) => ctx.render("welcome"),
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
    name: "appearance",
    methods: ["GET"],
    uri: "/settings/appearance",
    access: access.public,
    handle: (ctx) => ctx.render("settings/appearance"),
  },
  {
    name: "language.edit",
    methods: ["GET"],
    uri: "/settings/language",
    access: access.public,
    handle: (ctx) => ctx.render("settings/language"),
  },
  {
    name: "language.update",
    methods: ["PUT"],
    uri: "/settings/language",
    access: access.public,
    handle: (ctx) => {
      const locale = ctx.body.locale;
      if (!isLocale(locale)) throw new ValidationFailed({ locale: ctx.t("validation.one_of", { options: locales.join(", ") }) });
      ctx.locale = locale;
      ctx.setCookie("locale", locale, { maxAgeSeconds: YEAR_SECONDS, httpOnly: false });
      ctx.flash("success", ctx.t("locale.changed"));
      return ctx.back("/settings/language");
    },
  },
]);
