import { describe, expect, test } from "bun:test";
import { parseTypedDate, presetOf, presetRange, typedDate } from "./report-dates";
import { dateIn } from "../../../../src/shared/calendar";

const LIMA = "America/Lima";

describe("the report dialog's dates", () => {
  test("presets count in the cafe's time zone: at 21:00 in Lima on 30 November it is still November there", () => {
    // 2026-12-01T02:00Z is 30 November, 21:00 in Lima (UTC-5): the browser's UTC day would be December already.
    const evening = new Date("2026-12-01T02:00:00Z");
    expect(dateIn(LIMA, evening)).toBe("2026-11-30");
    expect(presetRange("this_month", evening, LIMA)).toEqual({ from: "2026-11-01", to: "2026-11-30" });
    expect(presetRange("last_month", evening, LIMA)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(presetRange("last_7_days", evening, LIMA)).toEqual({ from: "2026-11-24", to: "2026-11-30" });
    // Five hours later it is December in Lima too.
    const morning = new Date("2026-12-01T07:00:00Z");
    expect(presetRange("this_month", morning, LIMA)).toEqual({ from: "2026-12-01", to: "2026-12-01" });
  });

  test("last month across a year and a leap February; the preset a range is", () => {
    expect(presetRange("last_month", new Date("2027-01-15T15:00:00Z"), LIMA)).toEqual({
      from: "2026-12-01",
      to: "2026-12-31",
    });
    expect(presetRange("last_month", new Date("2028-03-10T15:00:00Z"), LIMA)).toEqual({
      from: "2028-02-01",
      to: "2028-02-29",
    });
    expect(presetRange("last_7_days", new Date("2026-03-03T15:00:00Z"), LIMA)).toEqual({
      from: "2026-02-25",
      to: "2026-03-03",
    });
    const now = new Date("2026-11-20T15:00:00Z");
    expect(presetOf("2026-11-01", "2026-11-20", now, LIMA)).toBe("this_month");
    expect(presetOf("2026-11-14", "2026-11-20", now, LIMA)).toBe("last_7_days");
    expect(presetOf("2026-11-02", "2026-11-20", now, LIMA)).toBeNull();
  });

  test("typed dates: day first as in Peru, or ISO; impossible days and partial input are not dates", () => {
    expect(parseTypedDate("31/12/2026")).toBe("2026-12-31");
    expect(parseTypedDate(" 1/2/2026 ")).toBe("2026-02-01");
    expect(parseTypedDate("01-02-2026")).toBe("2026-02-01");
    expect(parseTypedDate("01.02.2026")).toBe("2026-02-01");
    expect(parseTypedDate("01022026")).toBe("2026-02-01");
    expect(parseTypedDate("2026-02-01")).toBe("2026-02-01");
    for (const text of ["31/02/2026", "29/02/2026", "1/13/2026", "12/2026", "2026-2", "", "hoy", "1/1/26"])
      expect(parseTypedDate(text)).toBeNull();
    expect(parseTypedDate("29/02/2028")).toBe("2028-02-29");
    expect(typedDate("2026-12-31", "es")).toBe("31/12/2026");
    expect(typedDate("2026-12-31", "en")).toBe("2026-12-31");
    expect(typedDate("", "es")).toBe("");
  });
});
