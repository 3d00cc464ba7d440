/**
 * What the point of sale's input reads when Enter comes: digits are a document, never a name; digits of a length no
 * document has say what is wrong (a DNI has 8 digits); a number that is not a DNI's length says so when nobody has it.
 * And the services of a cafe listed in the order a day runs.
 */
import { describe, expect, test } from "bun:test";
import { translate } from "../i18n";
import type { Message } from "../message";
import { servicesByTimeOfDay } from "../../domain/sales/point-of-sale";
import { readScan } from "./scan";

const settings = { dniLength: 8 };
const said = (m: Message | null, locale: "es" | "en" = "es") =>
  m === null ? null : typeof m === "string" ? translate(locale, m) : translate(locale, m.key, m.params);

describe("readScan", () => {
  test("a DNI's digits (with spaces or dashes) are a document to look up", () => {
    expect(readScan("45123456", settings)).toEqual({ kind: "document", number: "45123456", note: null });
    expect(readScan(" 45-123 456 ", settings)).toEqual({ kind: "document", number: "45123456", note: null });
  });

  test("a misread (too few digits) is not a name: it says a DNI has 8 digits, in both languages", () => {
    const reading = readScan("1234", settings);
    expect(reading.kind).toBe("wrong-length");
    if (reading.kind !== "wrong-length") return;
    expect(said(reading.problem)).toBe(
      "«1234» no es un documento: tiene 4 dígitos y un DNI tiene 8 (un carné de extranjería, de 9 a 12; un pasaporte, de 6 a 12). Escanee el fotocheck de nuevo o escriba el número completo.",
    );
    expect(said(reading.problem, "en")).toBe(
      "“1234” is not a document: it has 4 digits, and a DNI has 8 (a foreign-resident card 9 to 12, a passport 6 to 12). Scan the badge again or type the whole number.",
    );
    expect(said((readScan("7", settings) as { problem: Message }).problem)).toContain(
      "tiene 1 dígito y un DNI tiene 8",
    );
  });

  test("too many digits (two scans run together) say so too", () => {
    const reading = readScan("4512345645123456", settings);
    expect(reading.kind).toBe("wrong-length");
    if (reading.kind !== "wrong-length") return;
    expect(said(reading.problem)).toBe(
      "«4512345645123456» no es un documento: tiene 16 dígitos y un DNI tiene 8 (un carné de extranjería o un pasaporte, a lo más 12). Escanee de nuevo.",
    );
  });

  test("digits another document may have are looked up, with a note for when nobody has them", () => {
    for (const [text, count] of [
      ["1234567", 7],
      ["123456789", 9],
    ] as const) {
      const reading = readScan(text, settings);
      expect(reading.kind).toBe("document");
      if (reading.kind !== "document") return;
      expect(said(reading.note)).toBe(
        `Un DNI tiene 8 dígitos y este número tiene ${count}: si es un DNI, escanéelo de nuevo.`,
      );
    }
  });

  test("the DNI length is the setting's", () => {
    expect(readScan("123456789", { dniLength: 9 })).toEqual({ kind: "document", number: "123456789", note: null });
    expect(said((readScan("1234", { dniLength: 9 }) as { problem: Message }).problem)).toContain("un DNI tiene 9");
  });

  test("letters and digits are a document (a passport); words are a name", () => {
    expect(readScan("ab123456", settings)).toEqual({ kind: "document", number: "AB123456", note: null });
    expect(readScan("  Quispe Mamani ", settings)).toEqual({ kind: "name", text: "Quispe Mamani" });
    expect(readScan("Ana 2", settings)).toEqual({ kind: "name", text: "Ana 2" });
  });
});

describe("servicesByTimeOfDay", () => {
  const service = (
    code: string,
    type: "breakfast" | "lunch" | "dinner" | "snack" | "disposables",
    start: number | null,
  ) => ({
    code,
    type,
    windowStart: start,
  });

  test("by the window's start at the cafe, not by code", () => {
    const listed = servicesByTimeOfDay([
      service("ALM", "lunch", 11 * 60),
      service("CEN", "dinner", 18 * 60),
      service("DES", "breakfast", 4 * 60 + 30),
    ]);
    expect(listed.map((s) => s.code)).toEqual(["DES", "ALM", "CEN"]);
  });

  test("a service without a window takes its type's usual hour; disposables come last; ties by code", () => {
    const listed = servicesByTimeOfDay([
      service("AAA", "disposables", null),
      service("CEN", "dinner", null),
      service("REF", "snack", null),
      service("DES", "breakfast", null),
      service("ALM2", "lunch", null),
      service("ALM", "lunch", null),
      service("NOC", "dinner", 23 * 60),
    ]);
    expect(listed.map((s) => s.code)).toEqual(["DES", "ALM", "ALM2", "REF", "CEN", "NOC", "AAA"]);
  });
});
