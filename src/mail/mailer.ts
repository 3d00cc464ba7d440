/**
 * Sending mail with nodemailer. MAIL_MAILER=file (the default) writes each message as one .eml file under
 * MAIL_PATH; MAIL_MAILER=smtp sends through the SMTP_* settings.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import { randomToken } from "../crypto";

export interface MailMessage {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(config: Config): Mailer {
  const from = { name: config.mail.fromName, address: config.mail.fromAddress };
  if (config.mail.mailer === "smtp") {
    const { host, port, username, password, secure } = config.mail.smtp;
    const transport: Transporter = nodemailer.createTransport({
      host,
      port,
      secure,
      auth: username ? { user: username, pass: password } : undefined,
    });
    return {
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      mkdirSync(config.mail.path, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      writeFileSync(join(config.mail.path, `${stamp}-${randomToken(6)}.eml`), info.message as Buffer);
    },
  };
}
