/**
 * The arithmetic of an offer's cost. A price is in integer cents for a presentation holding `quantity` of the
 * ingredient's base unit (grams, millilitres or units). When the price includes IGV, the IGV is taken out: the
 * company recovers purchase IGV, so what an ingredient costs it is the net price. The cost per base unit is kept as a
 * fraction of a cent (a gram of rice costs about 0.3 cents); money is rounded to whole cents only where a person
 * reads it or where a total ends (recipes round once, at the end). Free of database imports, so the browser shares it.
 */

/** The rate as Mesa keeps it: basis points (1800 = 18 %), the IGV_RATE setting. */
export type BasisPoints = number;

export interface PricedOffer {
  priceCents: number;
  priceIncludesIgv: boolean;
  quantity: number;
}

/** The price net of IGV, in cents (a fraction): a price with IGV divided by 1 + rate; a price without it as it is. */
export function netPriceCents(priceCents: number, includesIgv: boolean, igvRate: BasisPoints): number {
  return includesIgv ? (priceCents * 10_000) / (10_000 + igvRate) : priceCents;
}

/** What one base unit (a gram, a millilitre, a unit) costs, net of IGV, in cents (a fraction). */
export function costPerBaseUnit(offer: PricedOffer, igvRate: BasisPoints): number {
  return netPriceCents(offer.priceCents, offer.priceIncludesIgv, igvRate) / offer.quantity;
}

/** How much of the base unit a person's price reference is: a kilogram (1000 g), a litre (1000 ml) or one unit. */
export function referenceQuantity(baseUnit: "g" | "ml" | "unit"): number {
  return baseUnit === "unit" ? 1 : 1000;
}

/** The cost of a kilogram, a litre or a unit, net of IGV, rounded to whole cents (what the tables show). */
export function costPerReferenceCents(offer: PricedOffer, baseUnit: "g" | "ml" | "unit", igvRate: BasisPoints): number {
  return Math.round(costPerBaseUnit(offer, igvRate) * referenceQuantity(baseUnit));
}

/** Grams in `amount` of an ingredient's base unit: millilitres through its density, units through their weight. */
export function gramsOf(
  amount: number,
  ingredient: { baseUnit: "g" | "ml" | "unit"; densityGramsPerMl: number | null; unitWeightGrams: number | null },
): number {
  if (ingredient.baseUnit === "ml") return amount * (ingredient.densityGramsPerMl ?? 1);
  if (ingredient.baseUnit === "unit") return amount * (ingredient.unitWeightGrams ?? 0);
  return amount;
}
