/**
 * The run-time side of typed keys (the compile-time side is keys.typecheck.ts): which strings are keys, how a key
 * that comes from data is translated, and that the diners import's own words are in the dictionaries.
 */
import { describe, expect, test } from "bun:test";
import { dictionaryKeys, isTranslationKey, translate, translateDynamic } from "./index";

describe("keys", () => {
  test("a key ends at a text or a plural entry; a plural category or a group of texts is not a key", () => {
    expect(isTranslationKey("nav.dashboard")).toBe(true);
    expect(isTranslationKey("errors.retry_after")).toBe(true);
    expect(isTranslationKey("errors.retry_after.one")).toBe(false);
    expect(isTranslationKey("errors.title")).toBe(false);
    expect(isTranslationKey("nav.dashbord")).toBe(false);
    expect(dictionaryKeys("es")).toContain("errors.retry_after");
    expect(dictionaryKeys("es")).not.toContain("errors.retry_after.one");
  });

  test("a key from data is translated when the dictionary has it, else the fallback is shown (never the key)", () => {
    expect(translateDynamic("es", "access.permission_areas.users", "users")).toBe(
      translate("es", "access.permission_areas.users"),
    );
    expect(translateDynamic("en", "access.permission_areas.kitchen", "kitchen")).toBe("kitchen");
    expect(translateDynamic("en", "errors.retry_after", "?", { count: 1 })).toBe("You can try again in 1 second.");
    // A group of texts is not a text: the fallback, not "[object Object]".
    expect(translateDynamic("es", "errors.title", "Error")).toBe("Error");
  });

  test("the diners import's own words are keys of both dictionaries, so the languages are held in step", () => {
    for (const locale of ["es", "en"] as const) {
      expect(dictionaryKeys(locale)).toContain("dinerImportCli.result_busy");
      expect(dictionaryKeys(locale)).toContain("dinerImportCli.rows");
    }
    expect(translate("es", "dinerImportCli.rows", { count: 1 })).toBe("1 fila");
    expect(translate("en", "dinerImportCli.rows", { count: 2 })).toBe("2 rows");
  });
});
