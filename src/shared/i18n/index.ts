/**
 * Mesa's two languages. The dictionaries (src/shared/i18n/locales/<language>/<area>.json, gathered in dictionaries.ts) and `translate` are shared by the server (messages,
 * mail, page titles), the command line and the browser, which imports them from here.
 * Keys are dot paths into the JSON files; `{{name}}` placeholders are filled from `params`. A count is a plural
 * entry (`{ "one": "{{count}} cafe", "other": "{{count}} cafes" }`) chosen by `params.count`; a text with several
 * counts names a plural entry for each with `$t(key, param)`, e.g. "it has $t(places.n_units, units)".
 *
 * Keys are checked by the compiler: `translate` (and the browser's `t`, the server's and the command line's helpers
 * built on it) takes a `TranslationKey`, the union of the Spanish dictionary's dot paths to texts and plural entries
 * (keys.ts; its categories are not keys), so a typo fails `tsc --noEmit` (keys.typecheck.ts proves it). A key built
 * from a known set of names is typed by a template over that set (`` `documents.${DocumentType}` ``) or taken from an
 * `as const` table. A key that truly comes from data (a permission or area named in the database, a code read from
 * a file) goes through `translateDynamic`, the one function that translates any string: it checks the dictionary
 * and falls back to a text the caller gives; a key Mesa stored and reads back (a job's progress label or error) is
 * checked by `isTranslationKey` before it is handed on. No other code casts a string to a key. English is held to
 * Spanish's keys by a test (resources/js/lib/i18n.test.ts).
 */
import { en, es } from "./dictionaries";
import type { TranslationKey } from "./keys";

export type { KeysUnder, TranslationKey } from "./keys";

/** The values that fill a text's `{{name}}` placeholders; `count` chooses a plural entry's text. */
export type TranslationParams = Record<string, string | number>;

/** A translator bound to a language, as the server's, the command line's and the browser's helpers hand it on. */
export type Translate = (key: TranslationKey, params?: TranslationParams) => string;

export type Locale = "es" | "en";
export const locales: readonly Locale[] = ["es", "en"];

type Dictionary = { [key: string]: string | Dictionary };
const dictionaries: Record<Locale, Dictionary> = { es, en };

/** The Intl locale used to format numbers, money and dates for a Mesa language. */
export const intlLocale: Record<Locale, string> = { es: "es-PE", en: "en-US" };

export function isLocale(value: unknown): value is Locale {
  return value === "es" || value === "en";
}

type Node = string | Dictionary | undefined;

function lookupNode(dictionary: Dictionary, key: string): Node {
  let node: Node = dictionary;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return node;
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** The plural category ("one", "other"…) of `count` in `locale`, by the language's own rules (Intl.PluralRules). */
export function pluralCategory(locale: Locale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(intlLocale[locale])));
  return rules.select(count);
}

/**
 * The text of `key`: a string, or for a count a plural entry, an object with one text per plural category
 * (`{ "one": "{{count}} cafe", "other": "{{count}} cafes" }`, "other" required) chosen by `params.count`.
 */
function lookup(locale: Locale, key: string, params?: Record<string, string | number>): string | undefined {
  const node = lookupNode(dictionaries[locale], key);
  if (typeof node === "string" || node === undefined) return node;
  const other = node.other;
  if (typeof other !== "string") return undefined;
  const count = params?.count;
  if (typeof count !== "number") return other;
  const chosen = node[pluralCategory(locale, count)];
  return typeof chosen === "string" ? chosen : other;
}

/**
 * `$t(key, param)` inside a text: the plural entry `key` with `params[param]` as its count, so one message can hold
 * several counts ("it has $t(places.n_units, units) and $t(places.n_cafes, cafes)").
 */
const NESTED_COUNT = /\$t\(([\w.]+),\s*(\w+)\)/g;

/**
 * Translates `key` into `locale`; a missing key shows itself, so it is noticed rather than hidden. `{{name}}` is
 * filled from `params`; a plural entry is chosen by `params.count` (see lookup).
 */
export function translate(locale: Locale, key: TranslationKey, params?: TranslationParams): string {
  const template = lookup(locale, key, params) ?? lookup("es", key, params) ?? key;
  if (!params) return template;
  return (
    template
      .replace(NESTED_COUNT, (match, nested: string, name: string) => {
        const count = Number(params[name]);
        return name in params && Number.isFinite(count)
          ? translate(locale, nested as TranslationKey, { ...params, count })
          : match;
      })
      // A value that ends a sentence itself ("Agrícola Santa Rosa S.A.C.") takes the text's full stop: never "..".
      .replace(/\{\{(\w+)\}\}(\.?)/g, (match, name: string, stop: string) => {
        if (!(name in params)) return match;
        const value = formatParam(locale, name, params[name]);
        return stop && value.endsWith(".") ? value : value + stop;
      })
  );
}

/**
 * Params that name something rather than count it (a spreadsheet row, a ticket, an id, a code, a version, a month,
 * a value as the person typed it): shown as they are, never with thousands separators.
 */
const IDENTIFYING_PARAMS = new Set([
  "row",
  "other",
  "id",
  "ticket",
  "code",
  "number",
  "version",
  "month",
  "year",
  "column",
  "document",
  "ruc",
  "given",
  "value",
  "port",
]);

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A param for a text: a number (a count, a total) in the language's own digits and separators ("1,250"). */
function formatParam(locale: Locale, name: string, value: string | number | undefined): string {
  if (typeof value !== "number" || !Number.isFinite(value) || IDENTIFYING_PARAMS.has(name)) return String(value);
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(intlLocale[locale])));
  return format.format(value);
}

/** Whether `key` names a text (or a plural entry) in `locale`'s dictionary, for names that may or may not have one. */
export function hasTranslation(locale: Locale, key: string): boolean {
  return lookup(locale, key) !== undefined;
}

/**
 * The text of a key that comes from data rather than from the code (a permission or an area named in the database,
 * a code read from a file), which the compiler cannot check: its text when the dictionary has one, else `fallback`
 * (usually the name itself). The one function that translates an unchecked key; a key built from a known set of
 * names is typed instead (see the header).
 */
export function translateDynamic(locale: Locale, key: string, fallback: string, params?: TranslationParams): string {
  return isTranslationKey(key) ? translate(locale, key, params) : fallback;
}

let knownKeys: Set<string> | undefined;

/**
 * Whether a key read back from data (a job's progress label or error stored in the database, a message a worker
 * posted) names a text of the dictionaries, so it can be handed on as a `TranslationKey`: a text or a plural entry,
 * never one of its categories ("errors.retry_after.one") or a group of texts. Both languages have the same keys (a
 * test holds them so), so the Spanish dictionary answers for both.
 */
export function isTranslationKey(key: string): key is TranslationKey {
  knownKeys ??= new Set(dictionaryKeys("es"));
  return knownKeys.has(key);
}

/** Every key of a dictionary, for the test that keeps both languages in step. */
export function dictionaryKeys(locale: Locale): string[] {
  const keys: string[] = [];
  const walk = (node: Dictionary, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === "string" || isPluralEntry(v)) keys.push(prefix + k);
      else walk(v, `${prefix}${k}.`);
    }
  };
  walk(dictionaries[locale], "");
  return keys.sort();
}

/** A plural entry: an object whose keys are all plural categories, "other" among them. */
function isPluralEntry(node: Dictionary): boolean {
  const keys = Object.keys(node);
  return keys.includes("other") && keys.every((k) => PLURAL_CATEGORIES.has(k) && typeof node[k] === "string");
}

const PLURAL_CATEGORIES = new Set(["zero", "one", "two", "few", "many", "other"]);
