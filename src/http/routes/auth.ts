/**
 * Getting in: sign-in and sign-out, registration, password reset, e-mail verification and password
 * confirmation, with the route names people know from the PHP starter kits.
 */
import { checkCredentials } from "../../domain/accounts/authentication";
import { verifyPassword } from "../../domain/accounts/passwords";
import { createResetToken, resetPassword, ResetRequestInput } from "../../domain/accounts/password-reset";
import { createUser, findUserById, markEmailVerified, normalizeEmail, type User } from "../../domain/accounts/users";
import { NotFound, ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import { LIMITS } from "../../domain/rate-limit";
import { parseInput } from "../../domain/validation";
import { resetPasswordMessage, verifyEmailMessage } from "../../mail/messages";
import { sha256 } from "../../crypto";
import { PASSWORD_CONFIRMED_KEY, signIn, signOut } from "../auth";
import { throttleAddress } from "../client-ip";
import type { RequestContext } from "../context";
import { landingPath } from "../landing";
import { access, defineRoutes } from "../routing";
import { hasValidSignature, signedPath } from "../signed-url";
import { log } from "../../log";

const VERIFY_MINUTES = 60;

/** The page the user wanted before being sent to sign in, or `fallback`. */
function intendedOr(ctx: RequestContext, fallback: string): Response {
  const intended = ctx.session.get<string>("_intended");
  ctx.session.forget("_intended");
  // Only a path of this site: //host and /\host would be read by the browser as another site.
  return ctx.redirect(intended && intended.startsWith("/") && !/^[/\\]{2}/.test(intended) ? intended : fallback);
}

/** Sends the e-mail verification link (signed, valid 60 minutes). */
export async function sendVerificationMail(ctx: RequestContext, user: User): Promise<void> {
  const path = signedPath(
    ctx.services.appKey,
    ctx.urlFor("verification.verify", { id: user.id, hash: sha256(user.email) }),
    Date.now() + VERIFY_MINUTES * 60 * 1000,
  );
  const locale = user.language ?? ctx.locale;
  await ctx.services.mailer.send(
    verifyEmailMessage(locale, ctx.config.appName, { name: user.name, address: user.email }, ctx.config.appUrl + path),
  );
}

/**
 * Makes the reset token and mails the link once the answer has gone: the answer does the same work whether or
 * not the account exists, and never waits for the mail server. A failure is logged.
 */
function mailResetLinkAfterAnswer(ctx: RequestContext, email: string): void {
  const send = async () => {
    const reset = createResetToken(ctx.db, { email });
    if (!reset) return;
    const url = `${ctx.config.appUrl}${ctx.urlFor("password.reset", { token: reset.token })}?email=${encodeURIComponent(reset.user.email)}`;
    const locale = reset.user.language ?? ctx.locale;
    await ctx.services.mailer.send(
      resetPasswordMessage(locale, ctx.config.appName, { name: reset.user.name, address: reset.user.email }, url),
    );
  };
  setTimeout(() => {
    send().catch((error: unknown) => log.error({ err: error }, "the password reset mail could not be sent"));
  }, 0);
}

export const authRoutes = defineRoutes([
  {
    name: "login",
    methods: ["GET"],
    uri: "/login",
    access: access.guest,
    handle: (ctx) => ctx.render("auth/login", { canRegister: ctx.config.registrationEnabled, canResetPassword: true }),
  },
  {
    name: "login.store",
    methods: ["POST"],
    uri: "/login",
    access: access.guest,
    handle: async (ctx) => {
      const { user, remember } = await checkCredentials(
        ctx.db,
        ctx.services.limiter,
        ctx.body,
        throttleAddress(ctx.ip),
      );
      signIn(ctx, user, remember);
      // The page asked for before signing in, else the page of the person's work (landing.ts).
      return intendedOr(ctx, landingPath(ctx));
    },
  },
  {
    name: "logout",
    methods: ["POST"],
    uri: "/logout",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => {
      signOut(ctx);
      return ctx.redirect(ctx.urlFor("home"));
    },
  },
  {
    name: "register",
    methods: ["GET"],
    uri: "/register",
    access: access.guest,
    handle: (ctx) => {
      if (!ctx.config.registrationEnabled) throw new NotFound();
      return ctx.render("auth/register", { passwordMinLength: ctx.config.passwordMinLength });
    },
  },
  {
    name: "register.store",
    methods: ["POST"],
    uri: "/register",
    access: access.guest,
    handle: async (ctx) => {
      if (!ctx.config.registrationEnabled) throw new NotFound();
      // Counted before the input is checked and the password hashed (an e-mail too long to be valid is not a key).
      const email =
        typeof ctx.body.email === "string" && ctx.body.email.length <= 254 ? normalizeEmail(ctx.body.email) : "";
      ctx.services.limiter.take([
        { key: `register-address:${throttleAddress(ctx.ip) ?? "unknown"}`, limit: LIMITS.registerPerAddress },
        { key: `register:${email}`, limit: LIMITS.registerPerEmail },
      ]);
      // The web form must confirm the password (the CLI and seeds may omit the confirmation).
      const user = await createUser(ctx.db, ctx.config, {
        ...ctx.body,
        password_confirmation: String(ctx.body.password_confirmation ?? ""),
        language: ctx.locale,
      });
      await sendVerificationMail(ctx, user);
      signIn(ctx, user, false);
      return ctx.redirect(ctx.urlFor("dashboard"));
    },
  },
  {
    name: "password.request",
    methods: ["GET"],
    uri: "/forgot-password",
    access: access.guest,
    handle: (ctx) => ctx.render("auth/forgot-password"),
  },
  {
    name: "password.email",
    methods: ["POST"],
    uri: "/forgot-password",
    access: access.guest,
    handle: (ctx) => {
      const { email } = parseInput(ResetRequestInput, ctx.body);
      // Counted for every e-mail, known or not, so a refusal says nothing about the account.
      ctx.services.limiter.take([
        {
          key: `forgot-password-address:${throttleAddress(ctx.ip) ?? "unknown"}`,
          limit: LIMITS.resetRequestPerAddress,
        },
        // Per e-mail and address: from elsewhere nobody can use up a worker's allowance (one link a minute per account
        // bounds the mail a victim gets: password-reset.ts).
        {
          key: `forgot-password:${normalizeEmail(email)}|${throttleAddress(ctx.ip) ?? "unknown"}`,
          limit: LIMITS.resetRequestPerEmail,
        },
      ]);
      mailResetLinkAfterAnswer(ctx, email);
      // The same answer whether or not the account exists.
      ctx.flash("success", ctx.t("auth.reset_link_sent"));
      return ctx.back(ctx.urlFor("password.request"));
    },
  },
  {
    name: "password.reset",
    methods: ["GET"],
    uri: "/reset-password/{token}",
    access: access.guest,
    handle: (ctx) =>
      ctx.render("auth/reset-password", {
        token: ctx.params.token,
        email: typeof ctx.query.email === "string" ? ctx.query.email : "",
        passwordMinLength: ctx.config.passwordMinLength,
      }),
  },
  {
    name: "password.store",
    methods: ["POST"],
    uri: "/reset-password",
    access: access.guest,
    handle: async (ctx) => {
      await resetPassword(ctx.db, ctx.config, ctx.body);
      ctx.flash("success", ctx.t("auth.password_reset"));
      return ctx.redirect(ctx.urlFor("login"));
    },
  },
  {
    name: "verification.notice",
    methods: ["GET"],
    uri: "/verify-email",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) =>
      ctx.user?.emailVerifiedAt
        ? ctx.redirect(ctx.urlFor("dashboard"))
        : ctx.render("auth/verify-email", { email: ctx.user!.email }),
  },
  {
    name: "verification.verify",
    methods: ["GET"],
    uri: "/email/verify/{id}/{hash}",
    wheres: { id: "\\d+", hash: "[a-f0-9]{64}" },
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => {
      const user = ctx.user!;
      if (!hasValidSignature(ctx.services.appKey, ctx.url)) {
        // Opened from a mail client, so there is no page to go back to: explain on the verification notice.
        ctx.flash("error", ctx.t("auth.verify_link_invalid"));
        return ctx.redirect(ctx.urlFor(user.emailVerifiedAt ? "dashboard" : "verification.notice"));
      }
      // The link must belong to the signed-in account and to its current e-mail address.
      const owner = findUserById(ctx.db, Number(ctx.params.id));
      if (!owner || owner.id !== user.id || sha256(user.email) !== ctx.params.hash) throw new NotFound();
      if (!user.emailVerifiedAt) {
        markEmailVerified(ctx.db, user.id);
        ctx.flash("success", ctx.t("auth.verified"));
      }
      return ctx.redirect(`${ctx.urlFor("dashboard")}?verified=1`);
    },
  },
  {
    name: "verification.send",
    methods: ["POST"],
    uri: "/email/verification-notification",
    access: access.signedIn,
    allowUnverified: true,
    handle: async (ctx) => {
      const user = ctx.user!;
      if (user.emailVerifiedAt) return ctx.redirect(ctx.urlFor("dashboard"));
      ctx.services.limiter.take([{ key: `verification-mail:${user.id}`, limit: LIMITS.verificationMail }]);
      await sendVerificationMail(ctx, user);
      ctx.flash("success", ctx.t("auth.verification_sent"));
      return ctx.back(ctx.urlFor("verification.notice"));
    },
  },
  {
    name: "password.confirm",
    methods: ["GET"],
    uri: "/confirm-password",
    access: access.signedIn,
    allowUnverified: true,
    handle: (ctx) => ctx.render("auth/confirm-password"),
  },
  {
    name: "password.confirm.store",
    methods: ["POST"],
    uri: "/confirm-password",
    access: access.signedIn,
    allowUnverified: true,
    handle: async (ctx) => {
      const key = `confirm-password:${ctx.user!.id}`;
      // Counted before the password hash is checked, so concurrent attempts cannot all pass the same check.
      ctx.services.limiter.take([{ key, limit: LIMITS.confirmPassword }]);
      const password = ctx.body.password;
      if (typeof password !== "string" || !(await verifyPassword(password, ctx.user!.passwordHash))) {
        throw new ValidationFailed({ password: message("validation.password.current") });
      }
      ctx.services.limiter.clear(key);
      ctx.session.put(PASSWORD_CONFIRMED_KEY, Date.now());
      return intendedOr(ctx, ctx.urlFor("dashboard"));
    },
  },
]);
