/**
 * The rule of an e-mail address Mesa stores (src/domain/accounts/email-address.ts): an invisible character anywhere in
 * an address, a styled form, or mixed scripts within its local part or one label of its domain, is refused with its
 * own message; ordinary addresses in one script (Latin with accents, Cyrillic, Greek, Japanese) are taken; a stored
 * address is flagged for the same reasons, with its odd characters shown as code points. Property cases with
 * fast-check, and `field.email()` through parseInput.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { errorsOf } from "../../../tests/support/errors";
import { message } from "../../shared/message";
import { field, parseInput, t } from "../validation";
import { emailAddressProblem, emailLookalike } from "./email-address";

const INVISIBLE = message("validation.email_address.invisible");
const STYLED = message("validation.email_address.styled");
const MIXED = message("validation.email_address.mixed_scripts");
const SHAPE = message("validation.email");

/** Invisible characters a pasted address may carry, by name. */
const INVISIBLES: Record<string, string> = {
  "zero-width space": "\u200b",
  "zero-width non-joiner": "\u200c",
  "zero-width joiner": "\u200d",
  "word joiner": "\u2060",
  BOM: "\ufeff",
  "soft hyphen": "\u00ad",
  "left-to-right mark": "\u200e",
  "right-to-left override": "\u202e",
  "left-to-right isolate": "\u2066",
  "pop directional isolate": "\u2069",
  "invisible times (Cf)": "\u2062",
  "Mongolian vowel separator": "\u180e",
  "tag letter a": "\u{e0061}",
  "Hangul filler": "\u3164",
  "variation selector": "\ufe0f",
  "combining grapheme joiner": "\u034f",
  "no-break space": "\u00a0",
  "narrow no-break space": "\u202f",
  "line separator": "\u2028",
  "next line (C1 control)": "\u0085",
  "escape (C0 control)": "\u001b",
  delete: "\u007f",
  "private use": "\ue000",
  unassigned: "\u{50000}",
};

/** Local parts and domains of addresses people really have, each in one script. */
const LOCALS = ["ana", "jose.perez", "maria_q", "l.huaman+caja", "rené", "ñahui", "иван", "σοφία", "山田たろう", "x9"];
const DOMAINS = ["mesa.pe", "minera-sur.com.pe", "correo.com", "почта.рф", "例え.jp", "mail.co"];

const clean = fc.tuple(fc.constantFrom(...LOCALS), fc.constantFrom(...DOMAINS)).map(([l, d]) => `${l}@${d}`);

/** `address` with `inserted` put at a position chosen by `at` (0 to 1). */
function insert(address: string, inserted: string, at: number): string {
  const characters = [...address];
  const index = Math.min(characters.length, Math.floor(at * (characters.length + 1)));
  return [...characters.slice(0, index), inserted, ...characters.slice(index)].join("");
}

describe("the rule of an e-mail address", () => {
  test("ordinary addresses, in one script each, are taken", () => {
    fc.assert(fc.property(clean, (address) => emailAddressProblem(address) === null));
    for (const address of [
      "ANA@MESA.PE",
      "tanaka山田@例え.jp",
      "김민준@예시.kr",
      "o'brien@mesa.pe",
      "ana@xn--mesa-9ra.pe",
    ])
      expect(emailAddressProblem(address)).toBeNull();
  });

  test("an invisible character anywhere is refused as invisible, whatever it is and wherever it sits", () => {
    for (const [name, character] of Object.entries(INVISIBLES))
      fc.assert(
        fc.property(clean, fc.double({ min: 0, max: 1, noNaN: true }), (address, at) => {
          const problem = emailAddressProblem(insert(address, character, at));
          if (JSON.stringify(problem) !== JSON.stringify(INVISIBLE))
            throw new Error(`${name} at ${at} in ${address}: ${JSON.stringify(problem)}`);
        }),
      );
  });

  test("full-width and styled letters, ligatures and accents typed apart are refused as styled", () => {
    for (const address of [
      "ａna@mesa.pe", // full-width a
      "𝐚na@mesa.pe", // mathematical bold a: of no script
      "ana@ｍesa.pe",
      "oﬁcina@mesa.pe", // the fi ligature
      "jose\u0301@mesa.pe", // é typed as e and a combining accent
      "ana@mesa.pe\u2024", // one dot leader
      "\u212Ana@mesa.pe", // the Kelvin sign, which looks like K
    ])
      expect(emailAddressProblem(address)).toEqual(STYLED);
    // The accent on its letter is fine.
    expect(emailAddressProblem("josé@mesa.pe")).toBeNull();
  });

  test("a letter of another script among Latin ones, in the local part or in one label of the domain, is refused", () => {
    // Latin letters and their look-alikes in Cyrillic, Greek and Armenian.
    const lookalikes = ["\u0430", "\u0435", "\u043e", "\u0440", "\u0441", "\u03bf", "\u03b1", "\u0585", "\u13a0"];
    fc.assert(
      fc.property(
        fc.constantFrom("ana", "jose.perez", "caja"),
        fc.constantFrom("mesa.pe", "correo.com"),
        fc.constantFrom(...lookalikes),
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (local, domain, letter, inDomain, at) => {
          const address = inDomain
            ? `${local}@${insert(domain.split(".")[0], letter, at)}.pe`
            : `${insert(local, letter, at)}@${domain}`;
          expect(emailAddressProblem(address)).toEqual(MIXED);
        },
      ),
    );
    // Scripts are judged part by part: a Cyrillic name at a Latin domain is one script per part.
    expect(emailAddressProblem("иван@mesa.pe")).toBeNull();
    expect(emailAddressProblem("ivan@почта.рф")).toBeNull();
    expect(emailAddressProblem("ivan@mesa.рф")).toBeNull();
    expect(emailAddressProblem("иvan@mesa.pe")).toEqual(MIXED);
    // A digit of another script counts as that script.
    expect(emailAddressProblem("ana\u0969@mesa.pe")).toEqual(MIXED);
  });

  test("invisible comes first, then the shape, then the form, then scripts", () => {
    expect(emailAddressProblem("\u0430na\u200b@mesa.pe")).toEqual(INVISIBLE);
    expect(emailAddressProblem("ana\u200bmesa.pe")).toEqual(INVISIBLE);
    expect(emailAddressProblem("ana@mesa")).toEqual(SHAPE);
    expect(emailAddressProblem("ana mesa@mesa.pe")).toEqual(SHAPE);
    expect(emailAddressProblem("ａ\u0430na@mesa.pe")).toEqual(STYLED);
  });

  test("a stored address is flagged for the same reasons, its odd characters shown as code points", () => {
    expect(emailLookalike("ana@mesa.pe")).toBeNull();
    expect(emailLookalike("иван@почта.рф")).toBeNull();
    expect(emailLookalike("\u0430na@mesa.pe")).toEqual({ problem: "mixed_scripts", revealed: "⟨U+0430⟩na@mesa.pe" });
    expect(emailLookalike("ana@m\u0435sa.pe")).toEqual({ problem: "mixed_scripts", revealed: "ana@m⟨U+0435⟩sa.pe" });
    expect(emailLookalike("ana\u200b@mesa.pe")).toEqual({ problem: "invisible", revealed: "ana⟨U+200B⟩@mesa.pe" });
    expect(emailLookalike("𝐚na@mesa.pe")).toEqual({ problem: "styled", revealed: "⟨U+1D41A⟩na@mesa.pe" });
    expect(emailLookalike("jose\u0301@mesa.pe")).toEqual({ problem: "styled", revealed: "jose⟨U+0301⟩@mesa.pe" });
    // Flagged whatever its shape: it is an address Mesa once stored.
    expect(emailLookalike("ana\u200b@mesa")?.problem).toBe("invisible");
    // Two look-alike addresses read apart once revealed.
    fc.assert(
      fc.property(
        clean,
        fc.constantFrom(...Object.values(INVISIBLES)),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (address, character, at) => {
          const flagged = emailLookalike(insert(address, character, at));
          expect(flagged?.revealed).not.toBe(address);
        },
      ),
    );
  });

  test("field.email() refuses with the address's own message, next to other fields' messages", () => {
    const schema = t.Object({ name: field.text(1, 20), email: field.email() });
    const refused = (input: Record<string, unknown>) => errorsOf(() => parseInput(schema, input));
    expect(refused({ name: "", email: "ana\u200b@mesa.pe" })).toEqual({
      name: message("validation.required"),
      email: INVISIBLE,
    });
    expect(refused({ name: "Ana", email: "\u0430na@mesa.pe" })).toEqual({ email: MIXED });
    expect(refused({ name: "Ana", email: "ana" })).toEqual({ email: SHAPE });
    expect(refused({ name: "Ana", email: `${"a".repeat(250)}@mesa.pe` })).toEqual({ email: SHAPE });
    expect(refused({ name: "Ana" })).toEqual({ email: message("validation.required") });
    // Spaces around are trimmed, as for every field; a BOM at an end is one of them.
    expect(parseInput(schema, { name: "Ana", email: " \ufeffana@mesa.pe " }).email).toBe("ana@mesa.pe");
    // A lookup takes an older account's address as it was stored.
    const lookup = t.Object({ email: field.emailLookup() });
    expect(parseInput(lookup, { email: "\u0430na@mesa.pe" }).email).toBe("\u0430na@mesa.pe");
  });
});
