/** Reading the mail a test app wrote (MAIL_MAILER=file: one .eml file per message under its mailPath). */
import { readdirSync } from "node:fs";

/** The .eml files in `mailPath`, oldest first (file names start with a timestamp). */
export function mailFiles(app: { mailPath: string }): string[] {
  try {
    return readdirSync(app.mailPath)
      .filter((f) => f.endsWith(".eml"))
      .sort();
  } catch {
    return [];
  }
}

/** Decodes quoted-printable text: soft line breaks (`=\n`) go, `=XX` become bytes, the bytes are UTF-8. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
