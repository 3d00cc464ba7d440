/**
 * The HTML document of a first load: head tags from the page, the stylesheet, a tiny theme script that runs
 * before the first paint, the server-rendered page, and the browser entry.
 */
import type { Assets } from "../assets";

export interface DocumentParts {
  lang: string;
  appearance: "light" | "dark" | "system";
  nonce: string;
  assets: Assets;
  head: string[];
  body: string;
}

/**
 * Runs before paint: with "system", follows the OS preference so a dark screen never flashes white.
 * With light or dark the server already set the class from the `appearance` cookie.
 */
const THEME_SCRIPT =
  "(function(){var d=document.documentElement;if(d.dataset.appearance==='system'&&window.matchMedia('(prefers-color-scheme: dark)').matches){d.classList.add('dark')}})();";

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function htmlDocument(parts: DocumentParts): string {
  const dark = parts.appearance === "dark" ? ' class="dark"' : "";
  const nonce = escapeAttr(parts.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeAttr(parts.lang)}" data-appearance="${parts.appearance}"${dark}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<script nonce="${nonce}">${THEME_SCRIPT}</script>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeAttr(parts.assets.style)}">
<link rel="modulepreload" href="${escapeAttr(parts.assets.script)}">
${parts.head.join("\n")}
</head>
<body class="min-h-screen bg-background text-foreground antialiased">
${parts.body}
<script type="module" src="${escapeAttr(parts.assets.script)}" nonce="${nonce}"></script>
</body>
</html>`;
}
