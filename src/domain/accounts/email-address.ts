/**
 * What an e-mail address Mesa stores may be written with, so that no account can pass for a colleague's. One rule,
 * used when an address is entered (registration, the Users page, the profile, a business's e-mail, `./mesa
 * user:create`, through `field.email()` in src/domain/validation.ts) and to flag addresses stored before it (the
 * Users page, the blacklist's linked accounts, `./mesa user:list`). An address is refused, in this order, when it:
 *
 * - holds an invisible character: a control (Cc), a format character (Cf: zero-width space, joiner and non-joiner,
 *   word joiner, BOM, soft hyphen, bidi controls…), any other default-ignorable one (Hangul fillers, variation
 *   selectors, the combining grapheme joiner), a space other than U+0020, a line or paragraph separator, or a private,
 *   surrogate or unassigned code point;
 * - is not shaped like name@domain.tld;
 * - is not as NFKC writes it: full-width or styled letters ("ａ", "𝐚"), ligatures, or an accent typed apart from its
 *   letter would look like the plain address, and the mathematical letters are of no script, so they would slip past
 *   the next rule;
 * - mixes scripts within its local part or within one label of its domain (a Cyrillic "а" among Latin letters), by the
 *   "highly restrictive" level of UTS #39: one script, or Latin with the Han-based sets of Japanese, Chinese or
 *   Korean. Characters of no script of their own (digits, ".", "-", "_", "+") and combining marks go with any.
 *
 * Mesa refuses at every entry point rather than accepting and flagging: no one has a reason to need such an address,
 * and a refusal names the problem while the person is still at the form. A lookup (sign-in, password reset, the
 * blacklist's link by e-mail) does not apply the rule, so an account stored before it can still sign in.
 *
 *   emailAddressProblem("\u0430na@mesa.pe") // message("validation.email_address.mixed_scripts")
 *   emailLookalike("ana\u200b@mesa.pe")     // { problem: "invisible", revealed: "ana⟨U+200B⟩@mesa.pe" }
 */
import { message, type Message } from "../../shared/message";
import type { EmailLookalike, EmailLookalikeProblem } from "../../shared/access/types";
export type { EmailLookalike, EmailLookalikeProblem } from "../../shared/access/types";

/** Something@domain.tld, with no spaces and no control characters. */
export const EMAIL_SHAPE = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;

const INVISIBLE = /^(?:[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs})$/u;

const MARK = /^\p{M}$/u;

/** Characters that belong to no one script: they go with any. */
const SCRIPTLESS = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/**
 * The scripts recommended for identifiers (UAX #31, table 4). A letter of any other script counts as "Other", so it
 * never mixes with these unnoticed.
 */
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Thaana",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Georgian",
  "Ethiopic",
  "Khmer",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
].map((name) => ({ name, pattern: new RegExp(`^\\p{Script=${name}}$`, "u") }));

/** The sets of scripts one identifier may mix at UTS #39's "highly restrictive" level. */
const ALLOWED_MIXES = [
  ["Latin", "Han", "Hiragana", "Katakana"],
  ["Latin", "Han", "Bopomofo"],
  ["Latin", "Han", "Hangul"],
].map((names) => new Set(names));

/** A character's script, null for one of no script of its own. */
function scriptOf(character: string): string | null {
  if (SCRIPTLESS.test(character)) return null;
  return SCRIPTS.find((script) => script.pattern.test(character))?.name ?? "Other";
}

/** The local part and each label of the domain: each is written in one script (or an allowed mix). */
function partsOf(address: string): string[] {
  const at = address.lastIndexOf("@");
  return at < 0 ? [address] : [address.slice(0, at), ...address.slice(at + 1).split(".")];
}

function mixesScripts(part: string): boolean {
  const scripts = new Set<string>();
  for (const character of part) {
    const script = scriptOf(character);
    if (script !== null) scripts.add(script);
  }
  if (scripts.size <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => [...scripts].every((script) => allowed.has(script)));
}

function lookalikeProblem(address: string): EmailLookalikeProblem | null {
  for (const character of address) if (INVISIBLE.test(character)) return "invisible";
  if (address.normalize("NFKC") !== address) return "styled";
  if (partsOf(address).some(mixesScripts)) return "mixed_scripts";
  return null;
}

/**
 * Why an address a person enters is refused, as a message for its field (es + en), or null when it may be stored:
 * an invisible character, a shape other than name@domain.tld, a styled form, or mixed scripts.
 */
export function emailAddressProblem(address: string): Message | null {
  const problem = lookalikeProblem(address);
  if (problem === "invisible") return message("validation.email_address.invisible");
  if (!EMAIL_SHAPE.test(address)) return message("validation.email");
  return problem ? message(`validation.email_address.${problem}`) : null;
}

/** "⟨U+0430⟩": a character written as its code point. */
function codePoint(character: string): string {
  return `⟨U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** The address with every character that makes it a lookalike written as its code point. */
function reveal(address: string): string {
  const revealed: string[] = [];
  for (const [index, part] of partsOf(address).entries()) {
    if (index > 0) revealed.push(index === 1 ? "@" : ".");
    // In a part that mixes scripts, the letters of all but its most used script are the odd ones.
    const counts = new Map<string, number>();
    if (mixesScripts(part))
      for (const character of part) {
        const script = scriptOf(character);
        if (script !== null) counts.set(script, (counts.get(script) ?? 0) + 1);
      }
    const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    // An accent typed apart from its letter is the odd one when the part is not as NFKC writes it.
    const looseMarks = part.normalize("NFKC") !== part;
    for (const character of part) {
      const script = counts.size ? scriptOf(character) : null;
      const odd =
        INVISIBLE.test(character) ||
        character.normalize("NFKC") !== character ||
        (looseMarks && MARK.test(character)) ||
        (script !== null && script !== main);
      revealed.push(odd ? codePoint(character) : character);
    }
  }
  return revealed.join("");
}

/**
 * Whether a stored address could pass for another (null when it could not): the flag shown wherever a person picks an
 * account. Shape is not judged here: an address stored is one Mesa once accepted.
 */
export function emailLookalike(address: string): EmailLookalike | null {
  const problem = lookalikeProblem(address);
  return problem ? { problem, revealed: reveal(address) } : null;
}
