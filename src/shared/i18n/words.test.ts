/**
 * The words rules (docs/words.md): Spanish speaks as usted everywhere; counts carry the language's thousands
 * separators; money reads "S/ 17.50" in both languages; times are on the 24-hour clock; built-in levels and every
 * permission group have names in both languages; a cash-type sale reads Contado / Paid at the till; one word for a
 * subdealership; no ".." where a value ends a sentence; every sidebar icon is a real one.
 */
import { describe, expect, test } from "bun:test";
import { ICONS } from "../../../resources/js/components/nav-icon";
import { normalizeTime } from "../../../resources/js/components/ui/time-input";
import { formatDateTime, formatTime } from "../../../resources/js/lib/format";
import { PERMISSIONS } from "../access/permissions";
import { builtInLevelNamed, levelLabel } from "../food/built-in-levels";
import { formatMoney } from "../money";
import { foldText } from "../../domain/search";
import { en, es } from "./dictionaries";
import { hasTranslation, translate } from "./index";

type Node = string | { [key: string]: Node };

/** Every text of a dictionary (a plural entry's texts too), with its key. */
function texts(node: Node, prefix = ""): [string, string][] {
  if (typeof node === "string") return [[prefix, node]];
  return Object.entries(node).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k));
}

const LETTER = "[\\p{L}\\p{N}]";

/** Words that only ever address someone as tú: its verb forms, pronouns and possessives. */
const TU_WORDS = [
  ...["tienes", "puedes", "quieres", "necesitas", "debes", "estás", "eres", "sabes", "verás", "podrás", "tendrás"],
  ...["tengas", "puedas", "quieras", "elijas", "uses", "escribas", "confirmes", "revoques"],
  ...["tu", "tus", "tuyo", "tuya", "tuyos", "tuyas", "contigo", "te", "ti"],
  ...["olvidaste", "pediste", "elegiste", "creaste", "hiciste", "tomaste", "recibiste"],
  ...["editabas", "trabajabas", "ordenabas"],
  ...["ábrelo", "guárdalo", "súbelo", "cámbialo", "elígelo", "elígelos", "escríbelo", "corrígelo", "inténtalo"],
  ...["cópialo", "quítalo", "desactívalo", "dale", "pídele", "enfócalo", "muévete", "hazlo"],
  ...["quítaselo", "regístrate", "elimínala", "elimínalas", "elimínalos", "revísalas", "desmárcala", "retírala"],
  ...["retíralo", "divídelo", "déjalo", "créala", "muévelo", "muévelos", "genéralo", "elígela", "asígnale"],
  ...["defínelas", "buscas", "reactives", "publiques"],
];
/** Imperatives in the tú form, which read as a third person too ("se escribe así"): wrong only where a sentence starts. */
const TU_COMMANDS = [
  ...["elige", "escribe", "ingresa", "usa", "revisa", "vuelve", "pide", "guarda", "borra", "deja", "confirma"],
  ...["marca", "añade", "agrega", "sube", "espera", "recarga", "inicia", "busca", "corrige", "verifica", "pulsa"],
  ...["arrastra", "divide", "ignora", "intenta", "prueba", "selecciona", "completa", "restablece", "publica"],
  ...["asigna", "envía", "indica", "elimina", "copia", "evita", "escanea"],
];
const tuWord = new RegExp(`(?<!${LETTER})(${TU_WORDS.join("|")})(?!${LETTER})`, "iu");
const tuCommand = new RegExp(`(?:^|[.:;¿¡(—]\\s*)(${TU_COMMANDS.join("|")})(?!${LETTER})`, "iu");

describe("Spanish speaks as usted", () => {
  test("the rule finds tú where it is", () => {
    for (const text of [
      "¿Olvidaste tu contraseña?",
      "Elige una opción.",
      "No tienes permiso.",
      "Hecho: revisa el día.",
    ])
      expect({ text, tu: tuWord.test(text) || tuCommand.test(text) }).toEqual({ text, tu: true });
    for (const text of [
      "¿Olvidó su contraseña?",
      "Elija una opción.",
      "Mesa no la usa.",
      "Ninguna oferta se escribe así.",
    ])
      expect({ text, tu: tuWord.test(text) || tuCommand.test(text) }).toEqual({ text, tu: false });
  });

  test("no Spanish text of the pages, mail or command line addresses anyone as tú", () => {
    const tu = texts(es as Node)
      .filter(([, text]) => tuWord.test(text) || tuCommand.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(tu).toEqual([]);
  });
});

describe("counts in texts", () => {
  test("carry the language's thousands separators", () => {
    expect(translate("es", "ui.more", { count: 12500, list: "…" })).toBe("12,500 más: …");
    expect(translate("en", "ui.more", { count: 12500, list: "…" })).toBe("12,500 more: …");
    // A count inside a text with several ($t) is formatted too.
    expect(translate("es", "errors.retry_after", { count: 1500 })).toBe("Puede intentarlo de nuevo en 1,500 segundos.");
  });

  test("a number that names something (a row, a ticket, an id) is written as it is", () => {
    expect(translate("es", "import.row_label", { sheet: "Precios", row: 12345 })).toBe("Precios, fila 12345");
    expect(translate("en", "import.row_label", { sheet: "Prices", row: 12345 })).toBe("Prices, row 12345");
  });

  test("a value that ends with a full stop takes the text's: never '..'", () => {
    const args = { ruc: "20123456789", name: "Agrícola Santa Rosa S.A.C." };
    expect(translate("es", "dealerships.ruc_taken_by_subdealership", args)).toBe(
      "El RUC 20123456789 ya pertenece a la subconcesionaria Agrícola Santa Rosa S.A.C.",
    );
    expect(translate("es", "dealerships.name_taken", { name: "Minera Sur" })).toBe(
      "Ya existe una concesionaria llamada Minera Sur.",
    );
  });
});

describe("money", () => {
  test('reads "S/ 17.50" in both languages, with the separators of each', () => {
    const plain = (s: string) => s.replace(/\u00a0/g, " ");
    for (const locale of ["es", "en"] as const) {
      expect(plain(formatMoney(1750, locale))).toBe("S/ 17.50");
      expect(plain(formatMoney(123456789, locale))).toBe("S/ 1,234,567.89");
      expect(plain(formatMoney(-250, locale))).toBe("-S/ 2.50");
      expect(plain(formatMoney(0, locale))).toBe("S/ 0.00");
    }
    // A no-break space, so an amount never wraps between its symbol and its number.
    expect(formatMoney(1750, "en")).toBe("S/\u00a017.50");
  });
});

describe("times", () => {
  const s = (locale: "es" | "en") => ({ locale, timezone: "America/Lima", currency: "PEN" });
  // 18:05 UTC is 13:05 in Lima.
  const afternoon = "2026-12-01T18:05:09Z";

  test("are on the 24-hour clock in both languages", () => {
    for (const locale of ["es", "en"] as const) {
      expect(formatTime(afternoon, s(locale))).toBe("13:05:09");
      expect(formatDateTime(afternoon, s(locale))).toContain("13:05");
      expect(formatDateTime(afternoon, s(locale))).not.toMatch(/[ap]\.?\s?m\.?/i);
    }
  });

  test("a typed time becomes HH:MM, and what is no time is refused", () => {
    const cases: [string, string | null][] = [
      ["7", "07:00"],
      ["730", "07:30"],
      ["0730", "07:30"],
      ["7:30", "07:30"],
      ["19.00", "19:00"],
      ["19h", "19:00"],
      ["23:59", "23:59"],
      ["24:00", null],
      ["7:60", null],
      ["7 pm", null],
      ["", null],
    ];
    for (const [typed, time] of cases) expect({ typed, time: normalizeTime(typed) }).toEqual({ typed, time });
  });
});

describe("names in both languages", () => {
  test("the built-in levels have a name in each language; another level keeps its own", () => {
    expect(["Master", "Staff", "Employee", "Laborer"].map((n) => levelLabel(n, "es"))).toEqual([
      "Máster",
      "Staff",
      "Empleado",
      "Obrero",
    ]);
    expect(["Master", "Staff", "Employee", "Laborer"].map((n) => levelLabel(n, "en"))).toEqual([
      "Master",
      "Staff",
      "Employee",
      "Laborer",
    ]);
    expect(levelLabel("Visitante", "es")).toBe("Visitante");
    // A Spanish file or command may name a built-in level by its Spanish name.
    expect(builtInLevelNamed("OBRERO", foldText)).toBe("Laborer");
    expect(builtInLevelNamed("empleado", foldText)).toBe("Employee");
    expect(builtInLevelNamed("Cocinero", foldText)).toBeUndefined();
  });

  test("every permission group has a name in each language", () => {
    const areas = [...new Set(Object.values(PERMISSIONS).map((p) => p.area))].sort();
    const missing = areas.flatMap((area) =>
      (["es", "en"] as const)
        .filter((locale) => !hasTranslation(locale, `access.permission_areas.${area}`))
        .map((locale) => `${locale}: ${area}`),
    );
    expect(missing).toEqual([]);
    expect(translate("es", "access.permission_areas.diners")).toBe("Comensales");
    expect(translate("es", "access.permission_areas.sales")).toBe("Ventas y reportes");
  });

  test("every sidebar entry names an icon the sidebar has", () => {
    const named = Object.values(PERMISSIONS).flatMap((p) =>
      "sidebar" in p && p.sidebar ? [(p.sidebar as { icon: string }).icon] : [],
    );
    expect(named).toContain("receipt");
    expect(named.filter((icon) => !(icon in ICONS))).toEqual([]);
  });
});

describe("one word for each thing", () => {
  test("a cash-type sale reads Contado / Paid at the till, never Efectivo / Cash", () => {
    expect(translate("es", "sales.types.cash")).toBe("Contado");
    expect(translate("en", "sales.types.cash")).toBe("Paid at the till");
    // "Efectivo" is the cash payment method only: the words of payments (cash.*) may name it.
    expect(texts(es as Node).filter(([key, text]) => /efectivo/i.test(text) && !key.startsWith("cash."))).toEqual([]);
    expect(
      texts(en as Node).filter(
        // The words of payments (cash.*) name the cash method; a cash shift is the drawer's, not a sale type.
        ([key, text]) => /\bcash\b/i.test(text) && !/keep|cash-only|cash shift/i.test(text) && !key.startsWith("cash."),
      ),
    ).toEqual([]);
  });

  test("a subdealership is a subconcesionaria in every Spanish text (other words only as a file's column names)", () => {
    const other = texts(es as Node).filter(
      ([key, text]) =>
        /subcontrat|sub-concesionari/i.test(text) && key !== "diners.import_missing_column_subdealership",
    );
    expect(other).toEqual([]);
  });
});
