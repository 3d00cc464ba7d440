import { describe, expect, test } from "bun:test";
import { hasValidCheckDigit, rucProblem } from "./ruc";

describe("RUC", () => {
  test("accepts real-shaped RUCs whose check digit matches", () => {
    // 2010007970: weights give 5·2+4·0+3·1+2·0+7·0+6·0+5·7+4·9+3·7+2·0 = 105; 105 mod 11 = 6; 11 − 6 = 5.
    expect(hasValidCheckDigit("20100079705")).toBe(true);
    expect(rucProblem("20100079705", 11)).toBeNull();
  });

  test("refuses a wrong check digit, a wrong length and letters", () => {
    expect(hasValidCheckDigit("20100079704")).toBe(false);
    expect(rucProblem("20100079704", 11)).toEqual({ key: "validation.ruc_check_digit", params: undefined });
    expect(rucProblem("2010007970", 11)).toEqual({ key: "validation.ruc_format", params: { length: 11 } });
    expect(rucProblem("2010007970A", 11)).toEqual({ key: "validation.ruc_format", params: { length: 11 } });
  });

  test("refuses an 11-digit id whose first two digits name no kind of taxpayer, even with a matching check digit", () => {
    const withCheckDigit = (first10: string) =>
      first10 + [..."0123456789"].find((d) => hasValidCheckDigit(first10 + d))!;
    expect(rucProblem(withCheckDigit("0000000000"), 11)).toEqual({
      key: "validation.ruc_prefix",
      params: { prefixes: "10, 15, 16, 17, 20" },
    });
    expect(rucProblem(withCheckDigit("3010007970"), 11)).toEqual({
      key: "validation.ruc_prefix",
      params: { prefixes: "10, 15, 16, 17, 20" },
    });
    for (const prefix of ["10", "15", "16", "17", "20"])
      expect(rucProblem(withCheckDigit(prefix + "45454545"), 11)).toBeNull();
  });

  test("a check digit of 10 or 11 wraps to 0 or 1", () => {
    // Every ten-digit prefix has exactly one valid last digit.
    for (const prefix of ["1000000000", "2060000000", "1045454545", "2099999999"]) {
      const valid = [..."0123456789"].filter((d) => hasValidCheckDigit(prefix + d));
      expect(valid).toHaveLength(1);
    }
  });

  test("other lengths are checked for digits only", () => {
    expect(rucProblem("12345678", 8)).toBeNull();
    expect(rucProblem("1234567", 8)).toEqual({ key: "validation.ruc_format", params: { length: 8 } });
  });
});
