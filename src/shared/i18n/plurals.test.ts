/**
 * Counts shown to people read right in both languages: each goes through a plural entry chosen by the language's
 * own rules, a text with several counts names one plural entry per count with `$t(key, param)`, and no text
 * falls back to "cafe(s)".
 */
import { describe, expect, test } from "bun:test";
import { en, es } from "./dictionaries";
import { dictionaryKeys, hasTranslation, locales, translate } from "./index";

type Node = string | { [key: string]: Node };

/** Every text of a dictionary (a plural entry's texts too), with its key. */
function texts(node: Node, prefix = ""): [string, string][] {
  if (typeof node === "string") return [[prefix, node]];
  return Object.entries(node).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k));
}

describe("plural texts", () => {
  test("no text writes a count as 'cafe(s)'", () => {
    for (const dictionary of [es, en]) {
      const hedged = texts(dictionary as Node).filter(([, text]) => /\w\((s|es|ies)\)/.test(text));
      expect(hedged).toEqual([]);
    }
  });

  test("each $t(key, param) names a plural entry that exists in both languages", () => {
    for (const dictionary of [es, en]) {
      for (const [key, text] of texts(dictionary as Node)) {
        for (const [, nested] of text.matchAll(/\$t\(([\w.]+),\s*\w+\)/g)) {
          for (const locale of locales)
            expect(`${key} → ${nested}: ${hasTranslation(locale, nested)}`).toBe(`${key} → ${nested}: true`);
          expect(dictionaryKeys("es")).toContain(nested);
        }
      }
    }
  });

  test("a message with one count chooses its text by the count", () => {
    expect(translate("es", "access.area_in_use", { count: 1 })).toBe(
      "No se puede eliminar: 1 persona tiene un rol en esta área.",
    );
    expect(translate("es", "access.area_in_use", { count: 3 })).toBe(
      "No se puede eliminar: 3 personas tienen un rol en esta área.",
    );
    expect(translate("en", "access.area_in_use", { count: 1 })).toBe(
      "Cannot delete: 1 person holds a role in this area.",
    );
    expect(translate("en", "access.area_in_use", { count: 3 })).toBe(
      "Cannot delete: 3 people hold a role in this area.",
    );
    expect(translate("es", "services.place_saved_cascade", { place: "Mina Norte", count: 1 })).toBe(
      "Servicios de Mina Norte guardados; también se quitaron de 1 lugar dependiente.",
    );
    expect(translate("en", "services.place_saved_cascade", { place: "Mina Norte", count: 6 })).toBe(
      "Services of Mina Norte saved; they were also removed from 6 dependent places.",
    );
    expect(translate("es", "management.priced_count", { priced: 0, count: 1 })).toBe("0 de 1 servicio con precio");
    expect(translate("es", "management.priced_count", { priced: 1, count: 4 })).toBe("1 de 4 servicios con precio");
    expect(translate("en", "management.priced_count", { priced: 1, count: 1 })).toBe("1 of 1 service priced");
  });

  test("a message with several counts chooses a text for each", () => {
    const unit = (locale: "es" | "en", cafes: number, subdealerships: number) =>
      translate(locale, "places.unit_in_use", { name: "Unidad A", cafes, subdealerships });
    expect(unit("es", 1, 2)).toBe(
      "No se puede eliminar la unidad Unidad A: tiene 1 comedor, y 2 subconcesionarias trabajan en ella.",
    );
    expect(unit("es", 3, 1)).toBe(
      "No se puede eliminar la unidad Unidad A: tiene 3 comedores, y 1 subconcesionaria trabaja en ella.",
    );
    expect(unit("en", 1, 1)).toBe(
      "The unit Unidad A cannot be deleted: it has 1 cafe, and 1 subdealership works there.",
    );
    expect(translate("es", "headquarters.in_use", { name: "Sede Lima", areas: 1, properties: 2 })).toBe(
      "No se puede eliminar la sede Sede Lima: tiene 1 área y 2 bienes.",
    );
    expect(translate("en", "headquarters.in_use", { name: "Sede Lima", areas: 2, properties: 1 })).toBe(
      "The headquarters Sede Lima cannot be deleted: it has 2 areas and 1 property.",
    );
    expect(translate("es", "services.has_price_history", { code: "ALM", cafes: 1 })).toBe(
      "No se puede eliminar ALM: 1 comedor guarda su historial de precios. Desactívelo en su lugar.",
    );
  });

  test("the command line's counts read right in its language", () => {
    expect(translate("en", "access.cli.permission_table", { permissions: 19, routes: 40 })).toBe(
      "Showing [19] permissions guarding [40] routes",
    );
    expect(translate("es", "access.cli.permission_table", { permissions: 1, routes: 1 })).toBe(
      "En total: [1] permiso que protege [1] ruta",
    );
    expect(translate("en", "access.cli.role_now_has", { name: "cashier", count: 1, list: "blacklist.view" })).toBe(
      'Role "cashier" now has 1 permission: blacklist.view',
    );
    expect(translate("es", "access.cli.permissions_added", { count: 2, list: "a.view, b.view" })).toBe(
      "Se agregaron 2 permisos: a.view, b.view",
    );
  });

  test("limits in rules and hints count their characters, digits and minutes", () => {
    expect(translate("es", "validation.min_length", { min: 1 })).toBe("Debe tener al menos 1 carácter.");
    expect(translate("es", "validation.min_length", { min: 2 })).toBe("Debe tener al menos 2 caracteres.");
    expect(translate("en", "validation.max_length", { max: 1 })).toBe("Must be at most 1 character.");
    expect(translate("es", "validation.document.dni", { length: 8 })).toBe("El DNI debe tener 8 dígitos.");
    expect(translate("en", "mail.invite.outro", { days: 1 })).toBe("The link expires in 1 day and works once.");
    expect(translate("es", "mail.verify.outro", { minutes: 60 })).toBe(
      "El enlace vence en 60 minutos. Si no creó una cuenta, ignore este mensaje.",
    );
  });

  test("a $t(key, param) whose count is missing is left as written, so the gap is noticed", () => {
    expect(translate("en", "validation.min_length", { max: 3 })).toBe(
      "Must be at least $t(app.counts.characters, min).",
    );
  });
});
