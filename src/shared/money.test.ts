import { describe, expect, test } from "bun:test";
import { centsToSoles, MAX_CENTS, parseSoles } from "./money";

describe("parseSoles", () => {
  test("reads soles with up to two decimals exactly", () => {
    expect(parseSoles("12.50")).toBe(1250);
    expect(parseSoles("12.5")).toBe(1250);
    expect(parseSoles("12")).toBe(1200);
    expect(parseSoles("0.05")).toBe(5);
    expect(parseSoles("0.1")).toBe(10);
    expect(parseSoles("0")).toBe(0);
    // Values that floating point gets wrong (0.29 * 100 = 28.999999999999996, 1.15 * 100 = 114.99999999999999).
    expect(parseSoles("0.29")).toBe(29);
    expect(parseSoles("1.15")).toBe(115);
    expect(parseSoles("4.35")).toBe(435);
    expect(parseSoles("9999999.99")).toBe(MAX_CENTS);
  });

  test("accepts a decimal comma, spaces around and the S/ prefix", () => {
    expect(parseSoles(" 12,50 ")).toBe(1250);
    expect(parseSoles("S/ 3")).toBe(300);
    expect(parseSoles("S/. 7.25")).toBe(725);
  });

  test("refuses anything that is not an amount", () => {
    for (const bad of [
      "",
      " ",
      "abc",
      "12.345",
      "-1",
      "-1.00",
      "1e3",
      "1.2.3",
      "12.",
      ".5",
      "10000000",
      "1,000.00",
      "NaN",
      "Infinity",
      "0x10",
    ]) {
      expect({ bad, cents: parseSoles(bad) }).toEqual({ bad, cents: null });
    }
    expect(parseSoles(12 as unknown as string)).toBeNull();
  });
});

describe("centsToSoles", () => {
  test("writes two decimals", () => {
    expect(centsToSoles(1250)).toBe("12.50");
    expect(centsToSoles(5)).toBe("0.05");
    expect(centsToSoles(0)).toBe("0.00");
    expect(centsToSoles(100000)).toBe("1000.00");
    expect(centsToSoles(-250)).toBe("-2.50");
  });

  test("round-trips with parseSoles", () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 115, 1250, 123456, MAX_CENTS])
      expect(parseSoles(centsToSoles(cents))).toBe(cents);
  });

  test("refuses fractions of a cent", () => {
    expect(() => centsToSoles(1.5)).toThrow(RangeError);
  });
});
