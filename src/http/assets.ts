/**
 * The built browser assets (see cli/commands/assets.ts): the entry script, the stylesheet, and the asset
 * version the page protocol compares with X-Inertia-Version.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";

export interface Assets {
  version: string;
  script: string;
  style: string;
}

export const PUBLIC_DIR = resolve(import.meta.dir, "../../public");
export const BUILD_DIR = resolve(PUBLIC_DIR, "build");
export const MANIFEST_PATH = resolve(BUILD_DIR, "manifest.json");

export class AssetsMissing extends Error {
  constructor() {
    super("The browser assets are not built. Run `npm run build` (or `./mesa assets:build`) first.");
  }
}

export function loadAssets(path = MANIFEST_PATH): Assets {
  if (!existsSync(path)) throw new AssetsMissing();
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Assets;
  if (!manifest.version || !manifest.script || !manifest.style) throw new AssetsMissing();
  return manifest;
}

/**
 * Development: the manifest is read again whenever `./mesa assets:build --watch` rewrites it, so the running
 * server always announces the version the browser can load (and SSR and the bundle stay in step).
 */
export function reloadingAssets(path = MANIFEST_PATH): Assets {
  let current = loadAssets(path);
  let mtime = statSync(path).mtimeMs;
  const fresh = (): Assets => {
    try {
      const now = statSync(path).mtimeMs;
      if (now !== mtime) {
        current = loadAssets(path);
        mtime = now;
      }
    } catch {
      // Mid-rebuild: keep serving the last complete manifest.
    }
    return current;
  };
  return {
    get version() {
      return fresh().version;
    },
    get script() {
      return fresh().script;
    },
    get style() {
      return fresh().style;
    },
  };
}
