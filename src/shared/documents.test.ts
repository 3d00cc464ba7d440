import { describe, expect, test } from "bun:test";
import { translate } from "./i18n";
import {
  DOCUMENT_TYPES,
  documentProblem,
  documentTypeOfSunatCode,
  normalizeDocumentNumber,
  sameDocument,
  SUNAT_DOCUMENT_CODES,
  type DocumentType,
} from "./documents";
import { ValidationFailed } from "../domain/errors";
import { type Message } from "./message";
import { documentFields, parseWithDocument, t } from "../domain/validation";

const SETTINGS = { dniLength: 8 };

function say(locale: "es" | "en", m: Message | null | undefined): string | null {
  if (!m) return null;
  return typeof m === "string" ? translate(locale, m) : translate(locale, m.key, m.params);
}

const problem = (type: DocumentType, raw: string, settings = SETTINGS) =>
  say("es", documentProblem({ type, number: normalizeDocumentNumber(raw) }, settings));

describe("document numbers", () => {
  test("are normalized: trimmed, upper case, without spaces or dashes; leading zeros stay", () => {
    expect(normalizeDocumentNumber("  01-234 567 ")).toBe("01234567");
    expect(normalizeDocumentNumber("ce-00-1234\t567")).toBe("CE001234567");
    expect(normalizeDocumentNumber("---")).toBe("");
  });

  test("a DNI has DNI_LENGTH digits (8 by default), digits only", () => {
    expect(problem("dni", "01234567")).toBeNull();
    expect(problem("dni", "0123-4567")).toBeNull();
    expect(problem("dni", "1234567")).toBe("El DNI debe tener 8 dígitos.");
    expect(problem("dni", "123456789")).toBe("El DNI debe tener 8 dígitos.");
    expect(problem("dni", "1234567A")).toBe("El DNI debe tener 8 dígitos.");
    expect(problem("dni", "12.345.678")).toBe("El DNI debe tener 8 dígitos.");
    // Another length is a setting.
    expect(problem("dni", "0123456789", { dniLength: 10 })).toBeNull();
    expect(problem("dni", "01234567", { dniLength: 10 })).toBe("El DNI debe tener 10 dígitos.");
    expect(say("en", documentProblem({ type: "dni", number: "1" }, SETTINGS))).toBe("The DNI must have 8 digits.");
  });

  test("a foreign-resident card (CE) has 9 to 12 letters or digits", () => {
    expect(problem("ce", "001234567")).toBeNull();
    expect(problem("ce", "AB1234567890")).toBeNull();
    expect(problem("ce", "12345678")).toBe("El carné de extranjería debe tener de 9 a 12 letras o dígitos.");
    expect(problem("ce", "AB12345678901")).toBe("El carné de extranjería debe tener de 9 a 12 letras o dígitos.");
    expect(problem("ce", "00123456Ñ")).toBe("El carné de extranjería debe tener de 9 a 12 letras o dígitos.");
    expect(say("en", documentProblem({ type: "ce", number: "1" }, SETTINGS))).toBe(
      "The foreign-resident card must have 9 to 12 letters or digits.",
    );
  });

  test("a passport has 6 to 12 letters or digits", () => {
    expect(problem("pas", "ab1234")).toBeNull();
    expect(problem("pas", "X99887766")).toBeNull();
    expect(problem("pas", "AB123")).toBe("El pasaporte debe tener de 6 a 12 letras o dígitos.");
    expect(problem("pas", "A1234567890123")).toBe("El pasaporte debe tener de 6 a 12 letras o dígitos.");
    expect(say("en", documentProblem({ type: "pas", number: "1" }, SETTINGS))).toBe(
      "The passport must have 6 to 12 letters or digits.",
    );
  });

  test("two documents are the same when type and number are", () => {
    expect(sameDocument({ type: "dni", number: "12345678" }, { type: "dni", number: "12345678" })).toBe(true);
    expect(sameDocument({ type: "dni", number: "12345678" }, { type: "pas", number: "12345678" })).toBe(false);
    expect(sameDocument({ type: "dni", number: "12345678" }, { type: "dni", number: "12345679" })).toBe(false);
  });
});

describe("SUNAT codes", () => {
  test("DNI is 1, carné de extranjería 4, passport 7; other codes are no type of Mesa's", () => {
    expect(SUNAT_DOCUMENT_CODES).toEqual({ dni: "1", ce: "4", pas: "7" });
    expect(DOCUMENT_TYPES.map((type) => documentTypeOfSunatCode(SUNAT_DOCUMENT_CODES[type]))).toEqual([
      "dni",
      "ce",
      "pas",
    ]);
    expect(documentTypeOfSunatCode(" 01 ")).toBe("dni");
    expect(documentTypeOfSunatCode("07")).toBe("pas");
    expect(documentTypeOfSunatCode("6")).toBeNull();
    expect(documentTypeOfSunatCode("A")).toBeNull();
    expect(documentTypeOfSunatCode("")).toBeNull();
  });
});

describe("document fields", () => {
  const Required = t.Object({ name: t.String({ minLength: 2 }), ...documentFields({ optional: false }) });
  const Optional = t.Object({ name: t.String({ minLength: 2 }), ...documentFields({ optional: true }) });

  function errors(run: () => unknown, locale: "es" | "en" = "es"): Record<string, string | null> {
    try {
      run();
    } catch (error) {
      if (error instanceof ValidationFailed)
        return Object.fromEntries(Object.entries(error.errors).map(([field, m]) => [field, say(locale, m)]));
      throw error;
    }
    return {};
  }

  test("give the normalized document; the type is DNI when left out", () => {
    expect(parseWithDocument(Required, { name: "Ana", document_number: " 0123-4567 " }, SETTINGS).document).toEqual({
      type: "dni",
      number: "01234567",
    });
    expect(
      parseWithDocument(Required, { name: "Ana", document_type: "ce", document_number: "001 234 567" }, SETTINGS)
        .document,
    ).toEqual({ type: "ce", number: "001234567" });
    expect(
      parseWithDocument(Optional, { name: "Ana", document_type: "pas", document_number: "x-998877" }, SETTINGS)
        .document,
    ).toEqual({ type: "pas", number: "X998877" });
  });

  test("an optional document may be left blank; a required one may not", () => {
    for (const blank of [
      {},
      { document_number: "" },
      { document_number: null, document_type: null },
      { document_number: " - ", document_type: "dni" },
    ]) {
      expect(parseWithDocument(Optional, { name: "Ana", ...blank }, SETTINGS).document).toBeNull();
    }
    expect(errors(() => parseWithDocument(Required, { name: "Ana" }, SETTINGS))).toEqual({
      document_number: "Este campo es obligatorio.",
    });
    expect(errors(() => parseWithDocument(Required, { name: "Ana", document_number: "--" }, SETTINGS))).toEqual({
      document_number: "Este campo es obligatorio.",
    });
  });

  test("report the number's rule by its type together with the other fields, in both languages", () => {
    expect(errors(() => parseWithDocument(Required, { name: "A", document_number: "1234" }, SETTINGS))).toEqual({
      name: "Debe tener al menos 2 caracteres.",
      document_number: "El DNI debe tener 8 dígitos.",
    });
    expect(
      errors(
        () => parseWithDocument(Optional, { name: "Ana", document_type: "ce", document_number: "1234" }, SETTINGS),
        "en",
      ),
    ).toEqual({ document_number: "The foreign-resident card must have 9 to 12 letters or digits." });
    expect(
      errors(() =>
        parseWithDocument(Required, { name: "Ana", document_type: "ruc", document_number: "20100934729" }, SETTINGS),
      ),
    ).toEqual({ document_type: "Elija DNI, carné de extranjería o pasaporte." });
    expect(
      errors(
        () =>
          parseWithDocument(Required, { name: "Ana", document_type: "ruc", document_number: "20100934729" }, SETTINGS),
        "en",
      ),
    ).toEqual({ document_type: "Choose DNI, foreign-resident card or passport." });
  });

  test("a number is kept as text: its leading zeros stay, and a JSON number is read as its digits", () => {
    const { data, document } = parseWithDocument(Required, { name: "Ana", document_number: "00012345" }, SETTINGS);
    expect(data.document_number).toBe("00012345");
    expect(document).toEqual({ type: "dni", number: "00012345" });
    expect(parseWithDocument(Required, { name: "Ana", document_number: 12345678 }, SETTINGS).document).toEqual({
      type: "dni",
      number: "12345678",
    });
    expect(errors(() => parseWithDocument(Required, { name: "A", document_number: 1234567 }, SETTINGS))).toEqual({
      name: "Debe tener al menos 2 caracteres.",
      document_number: "El DNI debe tener 8 dígitos.",
    });
  });
});
