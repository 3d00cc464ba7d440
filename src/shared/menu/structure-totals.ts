/**
 * A menu structure's food cost against the service's price, as plain arithmetic free of database imports, so the
 * server and the structures page (its live totals) compute it the same way: the sums of the items' lower and upper
 * cost bounds and of their shares of the plate, the price net of IGV, each sum as a percentage of it, and how much
 * the upper bounds exceed it.
 */

/** An item's figures that count in the totals. */
export interface CostedItem {
  sharePercent: number;
  minCostCents: number;
  maxCostCents: number;
}

/** A structure's food cost against the service's price net of IGV. */
export interface StructureTotals {
  /** Sum of the items' lower bounds, cents. */
  minCostCents: number;
  /** Sum of the items' upper bounds, cents. */
  maxCostCents: number;
  /** Sum of the items' shares of the plate, percent. */
  sharePercent: number;
  /** The service's price at the cafe, IGV included (what a diner pays), cents; null when the cafe has no price. */
  priceCents: number | null;
  /** That price net of IGV, rounded to the cent; null without a price. */
  netPriceCents: number | null;
  /** The lower and upper food cost as a percentage of the net price; null without a price. */
  minPercent: number | null;
  maxPercent: number | null;
  /** How much the upper bounds exceed the net price, cents (0 when they fit); null without a price. */
  excessCents: number | null;
}

/** The price net of IGV, rounded to the cent: a price with IGV divided by 1 + rate. */
export function netOfIgv(priceCents: number, igvRate: number): number {
  return Math.round((priceCents * 10_000) / (10_000 + igvRate));
}

/** A percentage with one decimal (37.46 → 37.5). */
function percent(part: number, whole: number): number {
  return Math.round((part / whole) * 1000) / 10;
}

/** The totals of a list of items against a price that includes IGV (null: the cafe has no price for the service). */
export function structureTotals(
  items: readonly CostedItem[],
  priceCents: number | null,
  igvRate: number,
): StructureTotals {
  const minCostCents = items.reduce((sum, i) => sum + i.minCostCents, 0);
  const maxCostCents = items.reduce((sum, i) => sum + i.maxCostCents, 0);
  const sharePercent = Math.round(items.reduce((sum, i) => sum + i.sharePercent, 0) * 100) / 100;
  const netPriceCents = priceCents === null ? null : netOfIgv(priceCents, igvRate);
  const usable = netPriceCents !== null && netPriceCents > 0 ? netPriceCents : null;
  return {
    minCostCents,
    maxCostCents,
    sharePercent,
    priceCents,
    netPriceCents,
    minPercent: usable === null ? null : percent(minCostCents, usable),
    maxPercent: usable === null ? null : percent(maxCostCents, usable),
    excessCents: netPriceCents === null ? null : Math.max(0, maxCostCents - netPriceCents),
  };
}
