/**
 * The secret behind signed links and remember-me tokens. APP_KEY when set; otherwise generated once and kept
 * in STORAGE_PATH/app.key (readable by the owner only), so a fresh install needs no set-up.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config";
import { randomToken } from "./crypto";

export function resolveAppKey(config: Config): string {
  if (config.appKey) return config.appKey;
  const path = join(config.storagePath, "app.key");
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(config.storagePath, { recursive: true });
  const key = randomToken(32);
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}
