/** What the structures page receives from menu.structures (src/http/routes/menu-structures.ts). */
export type { MenuTab } from "../../../../src/shared/menu/types";
export type { MenuCafe, ServiceStructure, StructureItem } from "../../../../src/shared/menu/types";
export type { StructureTotals } from "../../../../src/shared/menu/structure-totals";
export type { CafeMenuSettings } from "../../../../src/shared/menu/types";

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
