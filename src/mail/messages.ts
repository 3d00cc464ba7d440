/** The messages Mesa sends, in the recipient's language, as text and HTML. */
import { translate, type Locale, type TranslationKey } from "../shared/i18n";
import type { MailMessage } from "./mailer";

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function actionMessage(
  locale: Locale,
  appName: string,
  to: { name: string; address: string },
  keys: { subject: TranslationKey; intro: TranslationKey; action: TranslationKey; outro: TranslationKey },
  url: string,
  params: Record<string, string | number> = {},
): MailMessage {
  const t = (key: TranslationKey) => translate(locale, key, { app: appName, name: to.name, ...params });
  const greeting = t("mail.greeting");
  const text = [
    greeting,
    "",
    t(keys.intro),
    "",
    `${t(keys.action)}: ${url}`,
    "",
    t(keys.outro),
    "",
    `— ${appName}`,
  ].join("\n");
  const html = `<!DOCTYPE html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t(keys.intro))}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#9a4a1c;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(t(keys.action))}</a></p>
<p style="font-size:13px;color:#4b5563">${escapeHtml(t("mail.link_fallback"))}<br><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>
<p>${escapeHtml(t(keys.outro))}</p>
<p>— ${escapeHtml(appName)}</p>
</body></html>`;
  return { to, subject: t(keys.subject), text, html };
}

export function verifyEmailMessage(
  locale: Locale,
  appName: string,
  to: { name: string; address: string },
  url: string,
): MailMessage {
  return actionMessage(
    locale,
    appName,
    to,
    {
      subject: "mail.verify.subject",
      intro: "mail.verify.intro",
      action: "mail.verify.action",
      outro: "mail.verify.outro",
    },
    url,
    { minutes: 60 },
  );
}

export function resetPasswordMessage(
  locale: Locale,
  appName: string,
  to: { name: string; address: string },
  url: string,
): MailMessage {
  return actionMessage(
    locale,
    appName,
    to,
    {
      subject: "mail.reset.subject",
      intro: "mail.reset.intro",
      action: "mail.reset.action",
      outro: "mail.reset.outro",
    },
    url,
    { minutes: 60 },
  );
}

export function invitationMessage(
  locale: Locale,
  appName: string,
  to: { name: string; address: string },
  url: string,
  inviter: string,
): MailMessage {
  return actionMessage(
    locale,
    appName,
    to,
    {
      subject: "mail.invite.subject",
      intro: "mail.invite.intro",
      action: "mail.invite.action",
      outro: "mail.invite.outro",
    },
    url,
    { inviter, days: 7 },
  );
}
