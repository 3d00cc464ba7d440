import { describe, expect, test } from "bun:test";
import { dictionaryKeys, translate } from "../../../src/shared/i18n";
import { formatDate, formatMoney, formatNumber } from "./format";

describe("languages", () => {
  test("Spanish and English have exactly the same keys", () => {
    expect(dictionaryKeys("en")).toEqual(dictionaryKeys("es"));
  });

  test("placeholders are filled and a missing key shows itself", () => {
    expect(translate("en", "errors.retry_after", { count: 30 })).toBe("You can try again in 30 seconds.");
    expect(translate("es", "errors.retry_after", { count: 30 })).toBe("Puede intentarlo de nuevo en 30 segundos.");
    // @ts-expect-error a key that is not in the dictionaries fails the typecheck; at run time it shows itself
    expect(translate("en", "no.such.key")).toBe("no.such.key");
  });

  test("a plural entry is chosen by count, by each language's rules", () => {
    expect(translate("es", "errors.retry_after", { count: 1 })).toBe("Puede intentarlo de nuevo en 1 segundo.");
    expect(translate("en", "errors.retry_after", { count: 1 })).toBe("You can try again in 1 second.");
    expect(translate("en", "errors.retry_after", { count: 0 })).toBe("You can try again in 0 seconds.");
    // Without a count the "other" text is used, never the object.
    expect(translate("en", "errors.retry_after")).toBe("You can try again in {{count}} seconds.");
  });
});

describe("formatting", () => {
  const es = { locale: "es" as const, timezone: "America/Lima", currency: "PEN" };
  const en = { locale: "en" as const, timezone: "America/Lima", currency: "PEN" };

  test("money in soles from cents", () => {
    const plain = (s: string) => s.replace(/\s/g, " ");
    expect(plain(formatMoney(123450, es))).toBe("S/ 1,234.50");
    // The same symbol in English: Mesa's one formatter, not Intl's "PEN 1,234.50".
    expect(plain(formatMoney(123450, en))).toBe("S/ 1,234.50");
  });

  test("numbers follow the language", () => {
    expect(formatNumber(1234.5, es, 2)).toBe("1,234.50");
    expect(formatNumber(1234.5, en, 2)).toBe("1,234.50");
  });

  test("dates use the configured time zone, not the machine's", () => {
    // 02:00 UTC on the 23rd is still the 22nd in Lima (UTC-5).
    expect(formatDate("2026-11-23T02:00:00Z", en)).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-23T02:00:00Z", es)).toContain("22");
  });
});
