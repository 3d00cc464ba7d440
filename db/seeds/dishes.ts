/**
 * Demo dishes: the six dish categories of a Peruvian mining cafeteria's menu table (with the unit a serving is
 * measured in), and about 45 common dishes — entradas, sopas, segundos, guarniciones, postres and refrescos — each
 * with a recipe per level made of the demo ingredients (food-ingredients.ts). The Laborer's plate is the largest;
 * the other levels' recipes are the same lines scaled down (LEVEL_SCALE). A few dishes use others as sub-recipes
 * (arroz blanco, salsa criolla, frejol canario guisado, yuca sancochada, papas doradas, ensalada fresca), by the
 * grams of the sub-dish a serving takes.
 *
 * THE RECIPES ARE DEMONSTRATION VALUES: plausible quantities written for the demo, not a nutritionist's standard
 * recipes. Every demo dish's description ends with DEMO_MARK, so the Food page and its export say so until a person
 * rewrites the description. Idempotent: categories and dishes are found by name (case and accents ignored); a dish
 * that exists keeps its recipes as they are. Everything is written in one transaction, audited as the command line.
 */
import { asc, sql } from "drizzle-orm";
import { CLI_ACTOR } from "../../src/domain/audit";
import { findDishCategoryByName, insertDishCategory } from "../../src/domain/food/dish-categories";
import { findDishByName, insertDish } from "../../src/domain/food/dishes";
import { ingredientKey } from "../../src/domain/food/ingredients";
import { writeRecipe, type LineValues } from "../../src/domain/food/recipes";
import { FOLD_FUNCTION } from "../../src/domain/search";
import type { Db } from "../../src/db";
import { ingredients, levels, type DishUnit } from "../schema";
import type { Seeder } from "./index";

/** What ends the description of every demo dish. */
export const DEMO_MARK = "(receta de demostración)";

export const DEMO_DISH_CATEGORIES: { name: string; unit: DishUnit; description: string }[] = [
  { name: "Entrada", unit: "g", description: "Entradas frías y calientes que abren el almuerzo." },
  { name: "Sopa", unit: "ml", description: "Sopas, caldos, cremas y chupes." },
  { name: "Segundo", unit: "g", description: "El plato de fondo." },
  { name: "Guarnición", unit: "g", description: "Arroz, menestras, papas, yuca y ensaladas que acompañan al segundo." },
  { name: "Postre", unit: "g", description: "Mazamorras, dulces y fruta." },
  { name: "Refresco", unit: "ml", description: "Bebidas frías y calientes del servicio." },
];

/** Each level's serving against the Laborer's (the largest); a level not named here gets DEFAULT_SCALE. */
export const LEVEL_SCALE: Record<string, number> = { Laborer: 1, Employee: 0.9, Staff: 0.85, Master: 0.8 };
const DEFAULT_SCALE = 0.9;

/**
 * One dish per line, fields separated by "|": name | category | description | yield of the Laborer's recipe in grams
 * (or "-": its lines' final product) | lines, separated by ";", each "Ingredient: quantity in its base unit" or
 * "@Sub-dish: grams". Sub-dishes come before the dishes that use them.
 */
const DEMO_DISH_TABLE = `
# Guarniciones (also sub-recipes)
Arroz blanco|Guarnición|Arroz graneado con ajo.|280|Arroz pilado: 110; Aceite vegetal: 6; Ajo: 2; Sal yodada: 1.5
Salsa criolla|Guarnición|Cebolla roja en pluma con limón, ají limo y culantro.|-|Cebolla roja: 60; Limón: 15; Ají limo: 3; Culantro: 2; Sal yodada: 0.5
Frejol canario guisado|Guarnición|Menestra de frejol canario con aderezo.|230|Frejol canario: 80; Cebolla roja: 20; Ajo: 3; Aceite vegetal: 6; Comino molido: 0.3; Sal yodada: 1
Yuca sancochada|Guarnición|Yuca cocida en agua con sal.|-|Yuca: 200; Sal yodada: 1
Papas doradas|Guarnición|Papas en gajos doradas al horno.|-|Papa blanca: 220; Aceite vegetal: 12; Sal yodada: 1
Ensalada fresca|Guarnición|Lechuga, tomate y pepinillo con limón.|-|Lechuga americana: 40; Tomate: 50; Pepinillo: 30; Limón: 8; Aceite vegetal: 5; Sal yodada: 0.5
Lentejas guisadas|Guarnición|Menestra de lentejas con zanahoria.|230|Lenteja: 75; Zanahoria: 20; Cebolla roja: 20; Ajo: 3; Aceite vegetal: 5; Sal yodada: 1
# Entradas
Causa limeña|Entrada|Papa amarilla con ají amarillo y limón, rellena de pollo.|-|Papa amarilla: 180; Ají amarillo en pasta: 10; Limón: 10; Aceite vegetal: 8; Pechuga de pollo: 50; Mayonesa: 15; Palta fuerte: 30; Huevo de gallina: 0.5; Aceituna de botija: 5; Sal yodada: 1
Papa a la huancaína|Entrada|Papa sancochada con crema de queso y ají amarillo.|-|Papa amarilla: 200; Queso fresco: 40; Leche evaporada entera: 30; Ají amarillo: 15; Galletas de soda: 8; Aceite vegetal: 8; Huevo de gallina: 0.5; Lechuga americana: 10; Aceituna de botija: 5
Ocopa arequipeña|Entrada|Papa con crema de huacatay, maní y queso.|-|Papa blanca: 200; Huacatay: 8; Maní tostado: 15; Queso fresco: 35; Leche evaporada entera: 30; Ají amarillo: 10; Galletas de soda: 8; Aceite vegetal: 8; Huevo de gallina: 0.5
Ensalada rusa|Entrada|Beterraga, papa, zanahoria y arveja con mayonesa.|-|Beterraga: 70; Papa blanca: 80; Zanahoria: 50; Arveja verde: 30; Mayonesa: 20; Sal yodada: 0.5
Cebiche de pescado|Entrada|Perico en limón con cebolla, camote y choclo.|-|Perico: 150; Limón: 50; Cebolla roja: 50; Ají limo: 4; Culantro: 2; Camote amarillo: 60; Choclo: 60; Lechuga americana: 10; Sal yodada: 1.5
Solterito arequipeño|Entrada|Habas, queso fresco, choclo y tomate con rocoto.|-|Haba verde: 50; Queso fresco: 40; Tomate: 50; Cebolla roja: 30; Choclo: 50; Aceituna de botija: 10; Rocoto: 5; Vinagre blanco: 5; Aceite vegetal: 8; Sal yodada: 0.5
Choclo con queso|Entrada|Choclo sancochado con queso fresco.|-|Choclo: 200; Queso fresco: 60
# Sopas
Sopa de quinua|Sopa|Quinua con verduras y carne de res.|400|Quinua: 35; Papa blanca: 80; Zanahoria: 30; Zapallo macre: 30; Apio: 10; Cebolla roja: 20; Ajo: 3; Carne de res para guiso: 40; Aceite vegetal: 5; Sal yodada: 2
Aguadito de pollo|Sopa|Sopa de arroz verde con culantro y pollo.|420|Pierna de pollo: 120; Arroz pilado: 40; Culantro: 10; Arveja verde: 25; Zanahoria: 25; Pimiento rojo: 15; Cebolla roja: 20; Ajo: 3; Ají amarillo en pasta: 8; Papa amarilla: 60; Aceite vegetal: 5; Sal yodada: 2
Caldo de gallina|Sopa|Caldo de pollo con fideos, papa y huevo.|450|Pollo entero: 180; Fideos tallarín: 40; Papa amarilla: 100; Huevo de gallina: 1; Cebolla china: 5; Sal yodada: 2
Chupe de camarones|Sopa|Chupe de langostinos con leche, queso y huevo.|420|Langostino: 60; Papa amarilla: 80; Arroz pilado: 25; Leche evaporada entera: 40; Queso fresco: 25; Huevo de gallina: 1; Choclo: 40; Arveja verde: 20; Ají panca en pasta: 8; Huacatay: 2; Cebolla roja: 20; Ajo: 3; Orégano seco: 0.3; Aceite vegetal: 5; Sal yodada: 2
Crema de zapallo|Sopa|Crema de zapallo macre con leche.|350|Zapallo macre: 200; Papa blanca: 60; Leche evaporada entera: 40; Cebolla roja: 20; Mantequilla: 8; Sal yodada: 1.5
Menestrón|Sopa|Sopa espesa de verduras, frejol, fideos y carne.|450|Carne de res para guiso: 60; Frejol canario: 25; Zapallo macre: 40; Zanahoria: 25; Choclo: 40; Papa blanca: 60; Col blanca: 25; Vainita: 20; Fideos tallarín: 25; Espinaca: 20; Queso fresco: 15; Sal yodada: 2
Sopa de cebada|Sopa|Cebada perlada con carne, habas y verduras.|400|Cebada perlada: 40; Carne de res para guiso: 50; Papa blanca: 80; Zanahoria: 25; Haba verde: 25; Apio: 10; Sal yodada: 2
# Segundos
Lomo saltado|Segundo|Bistec salteado con cebolla, tomate y papas fritas, con arroz.|-|Carne de res (bistec): 150; Cebolla roja: 70; Tomate: 70; Ají amarillo: 10; Sillao: 10; Vinagre blanco: 5; Aceite vegetal: 20; Ajo: 3; Culantro: 2; Papa blanca: 150; Sal yodada: 1.5; @Arroz blanco: 200
Ají de gallina|Segundo|Pollo deshilachado en crema de ají amarillo, con papa y arroz.|-|Pechuga de pollo: 130; Ají amarillo en pasta: 20; Pan de molde: 25; Leche evaporada entera: 50; Cebolla roja: 40; Ajo: 4; Nueces: 8; Queso andino: 10; Aceite vegetal: 10; Papa amarilla: 100; Huevo de gallina: 0.5; Aceituna de botija: 5; Sal yodada: 1.5; @Arroz blanco: 180
Arroz con pollo|Segundo|Arroz verde con culantro y presa de pollo, con salsa criolla.|-|Pierna de pollo: 180; Arroz pilado: 110; Culantro: 15; Arveja verde: 30; Zanahoria: 25; Pimiento rojo: 20; Cebolla roja: 30; Ají amarillo en pasta: 10; Ajo: 4; Aceite vegetal: 10; Sal yodada: 2; @Salsa criolla: 60
Seco de res con frejoles|Segundo|Carne de res guisada en culantro, con frejoles y arroz.|-|Carne de res para guiso: 160; Culantro: 20; Cebolla roja: 40; Ajo: 4; Ají amarillo en pasta: 10; Zapallo loche: 20; Arveja verde: 25; Zanahoria: 25; Aceite vegetal: 10; Sal yodada: 1.5; @Frejol canario guisado: 180; @Arroz blanco: 180
Pollo a la plancha|Segundo|Pechuga a la plancha con ensalada fresca y arroz.|-|Pechuga de pollo: 180; Ajo: 3; Limón: 8; Aceite vegetal: 5; Sal yodada: 1; @Ensalada fresca: 150; @Arroz blanco: 150
Tallarines rojos con pollo|Segundo|Tallarines en salsa de tomate con presa de pollo.|-|Fideos tallarín: 120; Pierna de pollo: 150; Tomate: 120; Zanahoria: 25; Cebolla roja: 30; Ajo: 3; Ají panca en pasta: 8; Laurel seco: 0.3; Orégano seco: 0.3; Aceite vegetal: 10; Queso andino: 10; Sal yodada: 1.5
Tallarines verdes con bistec|Segundo|Tallarines en salsa de espinaca y queso, con bistec.|-|Fideos tallarín: 120; Espinaca: 60; Queso fresco: 40; Leche evaporada entera: 40; Cebolla roja: 20; Ajo: 3; Aceite vegetal: 12; Carne de res (bistec): 120; Sal yodada: 1.5
Estofado de pollo|Segundo|Pollo guisado con papa, zanahoria y arveja, con arroz.|-|Pierna de pollo: 180; Papa blanca: 120; Zanahoria: 40; Arveja verde: 30; Tomate: 60; Cebolla roja: 40; Ajo: 3; Ají panca en pasta: 8; Laurel seco: 0.3; Vino tinto para cocinar: 15; Aceite vegetal: 8; Sal yodada: 1.5; @Arroz blanco: 180
Pescado frito con yuca|Segundo|Jurel frito con yuca sancochada y salsa criolla.|-|Jurel: 200; Harina de trigo: 15; Aceite vegetal: 25; Limón: 10; Sal yodada: 1.5; @Yuca sancochada: 180; @Salsa criolla: 60
Sudado de pescado|Segundo|Caballa sudada en tomate y cebolla, con yuca y arroz.|-|Caballa: 200; Tomate: 80; Cebolla roja: 60; Ají amarillo: 10; Ajo: 3; Culantro: 5; Limón: 10; Aceite vegetal: 8; Sal yodada: 1.5; @Yuca sancochada: 150; @Arroz blanco: 150
Cau cau|Segundo|Mondongo guisado con papa amarilla y hierba buena, con arroz.|-|Mondongo: 150; Papa amarilla: 150; Ají amarillo en pasta: 20; Cebolla roja: 30; Ajo: 3; Hierba buena: 3; Palillo molido: 1; Arveja verde: 20; Aceite vegetal: 10; Sal yodada: 1.5; @Arroz blanco: 180
Olluquito con carne|Segundo|Olluco en tiras guisado con carne de res, con arroz.|-|Olluco: 200; Carne de res para guiso: 90; Cebolla roja: 40; Ají panca en pasta: 10; Ajo: 3; Perejil: 3; Aceite vegetal: 8; Sal yodada: 1.5; @Arroz blanco: 180
Adobo de cerdo|Segundo|Chuleta de cerdo macerada en ají panca y vinagre, con camote y arroz.|-|Chuleta de cerdo: 200; Ají panca en pasta: 20; Vinagre blanco: 10; Ajo: 5; Comino molido: 0.5; Orégano seco: 0.5; Cebolla roja: 50; Aceite vegetal: 8; Camote amarillo: 120; Sal yodada: 1.5; @Arroz blanco: 150
Tacu tacu con bistec|Segundo|Frejoles y arroz dorados, con bistec, huevo frito, plátano y salsa criolla.|-|Carne de res (bistec): 150; Aceite vegetal: 20; Huevo de gallina: 1; Plátano de isla: 100; Sal yodada: 1; @Frejol canario guisado: 180; @Arroz blanco: 180; @Salsa criolla: 50
Carapulcra|Segundo|Papa seca guisada con cerdo, pollo, ají panca y maní, con arroz.|-|Papa seca: 70; Lomo de cerdo: 120; Pierna de pollo: 60; Ají panca en pasta: 15; Maní tostado: 10; Cebolla roja: 40; Ajo: 4; Comino molido: 0.3; Vino tinto para cocinar: 10; Aceite vegetal: 10; Sal yodada: 1.5; @Arroz blanco: 150
Rocoto relleno|Segundo|Rocoto relleno de carne molida, gratinado, con pastel de papa.|-|Rocoto: 150; Carne de res molida: 100; Cebolla roja: 40; Maní tostado: 10; Huevo de gallina: 0.5; Queso fresco: 40; Leche evaporada entera: 30; Aceituna de botija: 8; Ajo: 3; Comino molido: 0.3; Aceite vegetal: 8; Papa blanca: 150; Sal yodada: 1.5
Pollo al horno|Segundo|Pierna de pollo al horno con papas doradas y ensalada.|-|Pierna de pollo: 220; Ajo: 5; Ají panca en pasta: 8; Comino molido: 0.5; Sillao: 10; Limón: 10; Aceite vegetal: 8; Sal yodada: 1.5; @Papas doradas: 200; @Ensalada fresca: 120
Trucha frita|Segundo|Trucha frita con arroz y ensalada fresca.|-|Trucha: 220; Harina de trigo: 15; Aceite vegetal: 20; Limón: 10; Sal yodada: 1.5; @Arroz blanco: 150; @Ensalada fresca: 100
Arroz chaufa de pollo|Segundo|Arroz salteado con pollo, huevo, cebolla china y sillao.|-|Pechuga de pollo: 120; Huevo de gallina: 1; Cebolla china: 20; Pimiento rojo: 15; Sillao: 15; Ajo: 3; Aceite vegetal: 15; Sal yodada: 1; @Arroz blanco: 250
Bistec a lo pobre|Segundo|Bistec con huevo frito, plátano frito, papas y arroz.|-|Carne de res (bistec): 170; Huevo de gallina: 1; Plátano de isla: 120; Papa blanca: 150; Aceite vegetal: 30; Sal yodada: 1.5; @Arroz blanco: 180
Pollo con lentejas|Segundo|Pierna de pollo guisada con lentejas y arroz.|-|Pierna de pollo: 180; Ajo: 3; Ají panca en pasta: 6; Aceite vegetal: 6; Sal yodada: 1; @Lentejas guisadas: 180; @Arroz blanco: 150
# Postres
Mazamorra morada|Postre|Mazamorra de maíz morado con frutas y canela.|220|Maíz morado: 40; Azúcar blanca: 35; Piña: 40; Manzana delicia: 30; Maicena: 15; Canela en rama: 0.5; Limón: 5
Arroz con leche|Postre|Arroz cocido en leche con canela.|200|Arroz pilado: 30; Leche evaporada entera: 80; Leche condensada: 30; Azúcar blanca: 15; Canela en rama: 0.5
Ensalada de frutas|Postre|Papaya, plátano, manzana y piña con yogur.|-|Papaya: 60; Plátano de seda: 50; Manzana delicia: 40; Piña: 40; Yogur natural: 60
Fruta de estación|Postre|Una mandarina o un plátano, según temporada.|-|Mandarina: 150
# Refrescos
Chicha morada|Refresco|Refresco de maíz morado con piña, canela y limón.|300|Maíz morado: 60; Piña: 40; Manzana delicia: 20; Azúcar blanca: 30; Limón: 10; Canela en rama: 0.5
Limonada|Refresco|Limonada fresca.|300|Limón: 40; Azúcar blanca: 25
Refresco de maracuyá|Refresco|Jugo de maracuyá con agua y azúcar.|300|Maracuyá: 50; Azúcar blanca: 25
Refresco de cebada|Refresco|Cebada tostada hervida con canela y limón.|300|Cebada perlada: 20; Azúcar rubia: 25; Limón: 5; Canela en rama: 0.3
Té|Refresco|Té filtrante con azúcar.|250|Té filtrante: 1; Azúcar blanca: 10
`;

export interface DemoDish {
  name: string;
  category: string;
  description: string;
  /** The Laborer's yield in grams, or null. */
  yieldGrams: number | null;
  lines: { ingredient?: string; subDish?: string; quantity: number }[];
}

/** The demo dishes, read from the table (a malformed line throws: the table is code). */
export function demoDishes(): DemoDish[] {
  const list: DemoDish[] = [];
  for (const raw of DEMO_DISH_TABLE.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [name, category, description, yieldText, linesText, ...rest] = line.split("|").map((f) => f.trim());
    if (!linesText || rest.length) throw new Error(`demo dish line malformed: ${line}`);
    const lines = linesText.split(";").map((part) => {
      const match = /^(@?)(.+):\s*([\d.]+)$/.exec(part.trim());
      if (!match) throw new Error(`demo recipe line malformed: ${part} (${name})`);
      const quantity = Number(match[3]);
      return match[1] ? { subDish: match[2].trim(), quantity } : { ingredient: match[2].trim(), quantity };
    });
    list.push({ name, category, description, yieldGrams: yieldText === "-" ? null : Number(yieldText), lines });
  }
  return list;
}

/** A quantity scaled for a level, kept to a sensible precision (a unit to the half, grams to the tenth). */
function scaled(quantity: number, factor: number): number {
  return Math.round(quantity * factor * 10) / 10;
}

export const dishesSeeder: Seeder = {
  name: "Demo dishes and recipes",
  async run(db: Db) {
    const now = new Date();
    const catalogue = demoDishes();
    const result = db.transaction(
      (tx) => {
        let createdCategories = 0;
        const categoryIds = new Map<string, number>();
        for (const category of DEMO_DISH_CATEGORIES) {
          let found = findDishCategoryByName(tx, category.name);
          if (!found) {
            found = insertDishCategory(tx, CLI_ACTOR, category, now);
            createdCategories++;
          }
          categoryIds.set(category.name, found.id);
        }
        const ingredientIds = new Map(
          tx
            .select({ id: ingredients.id, key: sql<string>`${sql.raw(FOLD_FUNCTION)}(${ingredients.name})` })
            .from(ingredients)
            .all()
            .map((i) => [i.key, i.id]),
        );
        const levelList = tx
          .select({ id: levels.id, name: levels.name })
          .from(levels)
          .orderBy(asc(levels.sortOrder), asc(levels.name))
          .all();
        const dishIds = new Map<string, number>();
        const missing = new Set<string>();
        let createdDishes = 0;
        let createdRecipes = 0;
        for (const demo of catalogue) {
          const existing = findDishByName(tx, demo.name);
          if (existing) {
            dishIds.set(demo.name, existing.id);
            continue;
          }
          const dish = insertDish(
            tx,
            CLI_ACTOR,
            {
              name: demo.name,
              description: `${demo.description} ${DEMO_MARK}`,
              categoryIds: [categoryIds.get(demo.category)!],
              active: true,
            },
            now,
          );
          dishIds.set(demo.name, dish.id);
          createdDishes++;
          for (const level of levelList) {
            const factor = LEVEL_SCALE[level.name] ?? DEFAULT_SCALE;
            const lines: LineValues[] = [];
            for (const line of demo.lines) {
              if (line.subDish !== undefined) {
                const subDishId = dishIds.get(line.subDish);
                if (subDishId === undefined) throw new Error(`demo sub-dish ${line.subDish} comes after ${demo.name}`);
                lines.push({ ingredientId: null, subDishId, quantity: scaled(line.quantity, factor), offerId: null });
                continue;
              }
              const ingredientId = ingredientIds.get(ingredientKey(line.ingredient!));
              if (ingredientId === undefined) {
                missing.add(line.ingredient!);
                continue;
              }
              lines.push({ ingredientId, subDishId: null, quantity: scaled(line.quantity, factor), offerId: null });
            }
            if (lines.length === 0) continue;
            const yieldGrams = demo.yieldGrams === null ? null : Math.round(demo.yieldGrams * factor);
            writeRecipe(tx, CLI_ACTOR, dish.id, level.id, { yieldGrams, lines }, now);
            createdRecipes++;
          }
        }
        return { createdCategories, createdDishes, createdRecipes, missing: [...missing] };
      },
      { behavior: "immediate" },
    );
    const lines = [
      `${result.createdCategories} dish categories and ${result.createdDishes} dishes created of ${catalogue.length}, with ${result.createdRecipes} recipes (demo recipes, one per level)`,
    ];
    if (result.missing.length)
      lines.push(`ingredients not found, left out of the demo recipes: ${result.missing.sort().join(", ")}`);
    return lines;
  },
};
