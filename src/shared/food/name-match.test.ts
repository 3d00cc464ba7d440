/** The recipe line's typeahead: whole words first, the closer name first, accents ignored, no fuzzy matches. */
import { describe, expect, test } from "bun:test";
import { nameRank, rankByName } from "./name-match";

const CATALOGUE = [
  "Hígado de pollo",
  "Aceite de oliva",
  "Pimienta de olor",
  "Repollo",
  "Pollo entero",
  "Aceite vegetal",
  "Jamón inglés",
  "Pechuga de pollo",
  "Sal",
  "Salsa de soya",
  "Ensalada rusa",
  "Pollos a la brasa",
];
const find = (typed: string) => rankByName(CATALOGUE, typed, (name) => name);

describe("rankByName", () => {
  test("a name that starts with the whole word comes before one where it comes later", () => {
    expect(find("pollo")).toEqual(["Pollo entero", "Pollos a la brasa", "Hígado de pollo", "Pechuga de pollo"]);
    expect(find("pollo")).not.toContain("Repollo");
    expect(find("pollo")).not.toContain("Pimienta de olor");
  });

  test("between names that both start with the word, the closer (shorter) one comes first", () => {
    expect(find("aceite")).toEqual(["Aceite vegetal", "Aceite de oliva"]);
    expect(find("ACEITE DE")).toEqual(["Aceite de oliva"]);
  });

  test("accents and case are ignored both ways", () => {
    expect(find("jamon")).toEqual(["Jamón inglés"]);
    expect(find("HIGADO")).toEqual(["Hígado de pollo"]);
    expect(rankByName(["Jamon"], "jamón", (n) => n)).toEqual(["Jamon"]);
  });

  test("the exact name first, then names starting with it, and a word inside another word never matches", () => {
    expect(find("sal")).toEqual(["Sal", "Salsa de soya"]);
    expect(find("sal")).not.toContain("Ensalada rusa");
    expect(find("poll")).toEqual(["Pollo entero", "Pollos a la brasa", "Hígado de pollo", "Pechuga de pollo"]);
  });

  test("unrelated names sharing some letters do not appear", () => {
    expect(find("plo")).toEqual([]);
    expect(find("pimienta olor")).toEqual(["Pimienta de olor"]);
    expect(find("oliva aceite")).toEqual(["Aceite de oliva"]);
    expect(find("aceite pollo")).toEqual([]);
  });

  test("nothing typed keeps every item in its order; a limit keeps the closest", () => {
    expect(find("  ")).toEqual(CATALOGUE);
    expect(rankByName(CATALOGUE, "pollo", (n) => n, 1)).toEqual(["Pollo entero"]);
  });

  test("the ranks", () => {
    expect(nameRank("Pollo", "pollo")).toBe(1);
    expect(nameRank("Pollo entero", "pollo")).toBe(2);
    expect(nameRank("Pollos", "pollo")).toBe(3);
    expect(nameRank("Hígado de pollo", "pollo")).toBe(4);
    expect(nameRank("Aceite de oliva", "oli")).toBe(5);
    expect(nameRank("Aceite de oliva", "oliva aceite")).toBe(6);
    expect(nameRank("Repollo", "pollo")).toBeNull();
  });
});
