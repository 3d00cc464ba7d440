/**
 * History encryption only where the browser can do it. Pages that show document numbers arrive with
 * `encryptHistory` (src/http/page-protocol/history.ts), and the page client encrypts their copy in the tab's
 * history with window.crypto.subtle, which browsers give only to secure contexts (https, or localhost). Elsewhere
 * the client cannot make a key and never stores, nor shows, the page; there the flag is dropped and the history
 * is kept as it is (docs/security.md asks for https).
 */

export function canEncryptHistory(): boolean {
  return typeof window !== "undefined" && typeof window.crypto?.subtle !== "undefined";
}

/** Drops `encryptHistory` from a page object the browser cannot encrypt; the page is changed in place. */
export function encryptHistoryWhereSupported<P extends { encryptHistory?: boolean }>(page: P): P {
  if (page.encryptHistory && !canEncryptHistory()) page.encryptHistory = false;
  return page;
}
