/**
 * Which pages the browser keeps only encrypted in its history.
 *
 * The page client stores every page object it shows in the tab's history (for back and forward). The pages below
 * hold diners' and people's document numbers, so their page object carries `encryptHistory`: the client encrypts
 * the stored copy with a key kept in the tab's sessionStorage, and the first page after signing out carries
 * `clearHistory` (ctx.clearHistory()), which drops the key. Back after sign-out then finds nothing it can read and
 * asks the server, which sends the next person to sign in.
 *
 * Browsers give the encryption (window.crypto.subtle) only to secure contexts (https, or localhost): elsewhere the
 * client keeps the history as it is (resources/js/lib/history.ts), and docs/security.md asks for https.
 */
import type { PageName } from "./page-types";

/** Pages whose props show document numbers of diners or of people. */
export const PAGES_WITH_DOCUMENTS: ReadonlySet<PageName> = new Set<PageName>([
  // The till: diner search results, the day's sales, a diner import's preview.
  "dinners/index",
  "dinners/ticket",
  // The sales list and its duplicates.
  "sales/index",
  "users/index",
  "users/blacklist",
  // Entries name diners and blacklisted people by name and document.
  "audit/index",
]);

/** Whether the page object of `component` asks the client to encrypt its copy in the history. */
export function encryptsHistory(component: string): boolean {
  return PAGES_WITH_DOCUMENTS.has(component as PageName);
}
