/**
 * The type of a translation key, derived from the Spanish dictionary: every dot path that ends at a text or at a
 * plural entry (an object whose keys are plural categories, "other" among them; the entry is the key, its
 * categories are not). `translate`, the browser's `t`, the server's helpers and the command line take it, so a
 * typo in a key fails `tsc --noEmit` (proved by keys.typecheck.ts). English is held to the same keys by a test.
 */
import type { es } from "./dictionaries";

/** The plural categories of Intl.PluralRules. */
type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";

/** Whether `T` is a plural entry: only plural categories, "other" among them, each a text. */
type IsPluralEntry<T> = T extends { other: string }
  ? [Exclude<keyof T, PluralCategory>] extends [never]
    ? true
    : false
  : false;

/** The dot paths of `T` that end at a text or a plural entry. */
type KeysOf<T> = {
  [K in keyof T & string]: T[K] extends string
    ? K
    : IsPluralEntry<T[K]> extends true
      ? K
      : T[K] extends object
        ? `${K}.${KeysOf<T[K]>}`
        : never;
}[keyof T & string];

/** A key of the dictionaries: "nav.dashboard", "errors.retry_after" (a plural entry)… */
export type TranslationKey = KeysOf<typeof es>;

/** The keys under `prefix` (without it): `KeysUnder<"access.permission_areas">` is "users" | "roles" | … */
export type KeysUnder<Prefix extends string> = TranslationKey extends infer K
  ? K extends `${Prefix}.${infer Rest}`
    ? Rest
    : never
  : never;
