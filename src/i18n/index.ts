/**
 * Mesa's two languages. The dictionaries (src/i18n/locales/<language>/<area>.json, gathered in dictionaries.ts) and `translate` are shared by the server (messages,
 * mail, page titles), the command line and the browser, which imports them from here.
 * Keys are dot paths into the JSON files; `{{name}}` placeholders are filled from `params`.
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

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Translates `key` into `locale`; a missing key shows itself, so it is noticed rather than hidden. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const template = lookup(dictionaries[locale], key) ?? lookup(dictionaries.es, key) ?? key;
  if (!params) return template;
  return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** Every key of a dictionary, for the test that keeps both languages in step. */
export function dictionaryKeys(locale: Locale): string[] {
  const keys: string[] = [];
  const walk = (node: Dictionary, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === "string") keys.push(prefix + k);
      else walk(v, `${prefix}${k}.`);
    }
  };
  walk(dictionaries[locale], "");
  return keys.sort();
}
