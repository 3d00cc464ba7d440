/** What the structures page receives from menu.structures (src/http/routes/menu-structures.ts). */
export type { MenuTab } from "../../../../src/http/menu-pages";
export type { MenuCafe, ServiceStructure, StructureItem } from "../../../../src/domain/menu/structures";
export type { StructureTotals } from "../../../../src/domain/menu/structure-totals";
export type { CafeMenuSettings } from "../../../../src/domain/menu/cafe-menu-settings";

export interface CategoryOption {
  id: number;
  name: string;
  unit: "g" | "ml";
}

/** An item as the form holds it: numbers and amounts in soles as typed. */
export interface DraftItem {
  /** A key that stays with the row while it moves. */
  key: string;
  categoryId: number;
  serving: string;
  share: string;
  minCost: string;
  maxCost: string;
}
