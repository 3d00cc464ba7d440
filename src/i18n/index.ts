/**
 * Mesa's two languages. The dictionaries (src/i18n/locales/<language>/<area>.json, gathered in dictionaries.ts) and `translate` are shared by the server (messages,
 * mail, page titles), the command line and the browser, which imports them from here.
 * Keys are dot paths into the JSON files; `{{name}}` placeholders are filled from `params`. A count is a plural
 * entry (`{ "one": "{{count}} cafe", "other": "{{count}} cafes" }`) chosen by `params.count`; a text with several
 * counts names a plural entry for each with `$t(key, param)`, e.g. "it has $t(places.n_units, units)".
 */
import { en, es } from "./dictionaries";

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
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const template = lookup(locale, key, params) ?? lookup("es", key, params) ?? key;
  if (!params) return template;
  return template
    .replace(NESTED_COUNT, (match, nested: string, name: string) => {
      const count = Number(params[name]);
      return name in params && Number.isFinite(count) ? translate(locale, nested, { ...params, count }) : match;
    })
    .replace(/\{\{(\w+)\}\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** Whether `key` names a text (or a plural entry) in `locale`'s dictionary, for names that may or may not have one. */
export function hasTranslation(locale: Locale, key: string): boolean {
  return lookup(locale, key) !== undefined;
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
