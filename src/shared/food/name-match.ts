/**
 * How a recipe line's typeahead finds an ingredient or a dish by what the chef types: whole words first, accents and
 * case ignored, and nothing that merely shares letters. A name matches when what was typed starts one of its words
 * ("pollo" finds "Pollo entero" and "Hígado de pollo", never "Pimienta de olor" nor "Repollo"); the closer names come
 * first:
 *
 * 1. the name is what was typed ("Sal" for "sal");
 * 2. the name starts with it as whole words ("Pollo entero" for "pollo");
 * 3. the name's first word starts with it ("Pollos" for "poll");
 * 4. a later word is it ("Hígado de pollo" for "pollo");
 * 5. a later word starts with it ("Aceite de oliva" for "oli");
 * 6. each word typed starts some word of the name, in any order ("oliva aceite" finds "Aceite de oliva").
 *
 * Within a rank the shorter name is the closer one ("Aceite vegetal" before "Aceite de oliva" for "aceite"), then
 * the alphabetical order. Pure, so the browser ranks the options it holds with the same code the tests check.
 */
import { foldText } from "../fold";

/** The words of `text` as the match compares them: folded, split at anything that is not a letter or a digit. */
function wordsOf(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The rank (1 to 6, closest first) of a name for what was typed, or null when it does not match. */
export function nameRank(name: string, typed: string): number | null {
  const query = wordsOf(typed);
  if (query.length === 0) return null;
  const words = wordsOf(name);
  const phrase = query.join(" ");
  const whole = words.join(" ");
  if (whole === phrase) return 1;
  if (whole.startsWith(`${phrase} `)) return 2;
  if (whole.startsWith(phrase)) return 3;
  const later = ` ${words.slice(1).join(" ")} `;
  if (words.length > 1 && later.includes(` ${phrase} `)) return 4;
  if (words.length > 1 && later.includes(` ${phrase}`)) return 5;
  if (query.length > 1 && query.every((q) => words.some((w) => w.startsWith(q)))) return 6;
  return null;
}

/**
 * The items whose name matches what was typed, closest first (see above), at most `limit` of them; every item in
 * its order when nothing was typed.
 */
export function rankByName<T>(
  items: readonly T[],
  typed: string,
  nameOf: (item: T) => string,
  limit = Number.POSITIVE_INFINITY,
): T[] {
  if (wordsOf(typed).length === 0) return items.slice(0, limit);
  const ranked: { item: T; rank: number; length: number; name: string }[] = [];
  for (const item of items) {
    const name = nameOf(item);
    const rank = nameRank(name, typed);
    if (rank !== null) ranked.push({ item, rank, length: wordsOf(name).join(" ").length, name: foldText(name) });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.length - b.length || a.name.localeCompare(b.name, "es"));
  return ranked.slice(0, limit).map((r) => r.item);
}
