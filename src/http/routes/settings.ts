/** Settings: profile, password, appearance and language. */
import { changePassword, deleteAccount, setLanguage, updateProfile } from "../../domain/accounts/users";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import { LIMITS } from "../../domain/rate-limit";
import { isLocale, locales } from "../../shared/i18n";
import { signOut } from "../auth";
import { access, defineRoutes } from "../routing";
import { sendVerificationMail } from "./auth";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const settingsRoutes = defineRoutes([
  {
    name: "profile.edit",
    methods: ["GET"],
    uri: "/settings/profile",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => ctx.render("settings/profile", { mustVerifyEmail: !ctx.user!.emailVerifiedAt }),
  },
  {
    name: "profile.update",
    methods: ["PATCH"],
    uri: "/settings/profile",
    access: access.signedIn,
    allowUnverified: true,
    handle: async (ctx) => {
      const { user, emailChanged } = updateProfile(ctx.db, ctx.user!, ctx.body);
      if (emailChanged) await sendVerificationMail(ctx, user);
      ctx.flash("success", ctx.t(emailChanged ? "settings.profile.saved_verify" : "settings.profile.saved"));
      return ctx.redirect(ctx.urlFor("profile.edit"));
    },
  },
  {
    name: "profile.destroy",
    methods: ["DELETE"],
    uri: "/settings/profile",
    access: access.signedIn,
    allowUnverified: true,
    handle: async (ctx) => {
      await deleteAccount(ctx.db, ctx.user!, ctx.body.password);
      signOut(ctx);
      return ctx.redirect(ctx.urlFor("home"));
    },
  },
  {
    name: "password.edit",
    methods: ["GET"],
    uri: "/settings/password",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => ctx.render("settings/password", { passwordMinLength: ctx.config.passwordMinLength }),
  },
  {
    name: "password.update",
    methods: ["PUT"],
    uri: "/settings/password",
    access: access.signedIn,
    allowUnverified: true,
    handle: async (ctx) => {
      const user = ctx.user!;
      const key = `password-update:${user.id}`;
      ctx.services.limiter.take([{ key, limit: LIMITS.passwordUpdate }]);
      await changePassword(ctx.db, ctx.config, user, ctx.body);
      // Every other session of this user ends; this one continues under a new id.
      ctx.services.sessions.destroyForUser(user.id, ctx.session.id);
      ctx.session.regenerate();
      ctx.flash("success", ctx.t("settings.password.saved"));
      return ctx.redirect(ctx.urlFor("password.edit"));
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
      if (!isLocale(locale))
        throw new ValidationFailed({ locale: message("validation.one_of", { options: locales.join(", ") }) });
      ctx.locale = locale;
      ctx.setCookie("locale", locale, { maxAgeSeconds: YEAR_SECONDS, httpOnly: false });
      if (ctx.user) setLanguage(ctx.db, ctx.user.id, locale);
      ctx.flash("success", ctx.t("locale.changed"));
      return ctx.back(ctx.urlFor("language.edit"));
    },
  },
]);
