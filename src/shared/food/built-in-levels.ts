/**
 * The built-in diner levels (tiers) every database starts with: Master, Staff, Employee and Laborer, stored under
 * those English names (the seeds, the imports and `./mesa` use them). People see each one's label in their own
 * language, as built-in roles are shown; a level the nutritionist added, or a built-in one they renamed, shows its
 * own name. Spanish keeps "Staff", the word Peruvian mining payrolls use for that tier. Free of database imports, so
 * the browser shares it.
 */
import type { Locale } from "../i18n";
import type { Words } from "../access/built-in-roles";

export const BUILT_IN_LEVELS: ReadonlyMap<string, Words> = new Map([
  ["Master", { es: "Máster", en: "Master" }],
  ["Staff", { es: "Staff", en: "Staff" }],
  ["Employee", { es: "Empleado", en: "Employee" }],
  ["Laborer", { es: "Obrero", en: "Laborer" }],
]);

/** The name people see for a level: a built-in level's label in their language, any other level's own name. */
export function levelLabel(name: string, locale: Locale): string {
  return BUILT_IN_LEVELS.get(name)?.[locale] ?? name;
}

/** The stored name of the built-in level whose label (in either language) is `typed`, so "Obrero" finds Laborer. */
export function builtInLevelNamed(typed: string, fold: (text: string) => string): string | undefined {
  const wanted = fold(typed);
  for (const [name, words] of BUILT_IN_LEVELS) if (fold(words.es) === wanted || fold(words.en) === wanted) return name;
  return undefined;
}
