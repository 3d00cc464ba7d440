/**
 * The cost of an offer, worked by hand: IGV taken out of a price that includes it (18 %: S/ 118.00 is S/ 100.00 net),
 * a price without IGV kept as it is, the cost of a gram, a millilitre and a unit, the kilogram price people read
 * rounded once to whole cents, and grams from millilitres (density) and from units (weight of one).
 */
import { describe, expect, test } from "bun:test";
import { costPerBaseUnit, costPerReferenceCents, gramsOf, netPriceCents, referenceQuantity } from "./cost";

const IGV = 1800;

describe("an offer's cost", () => {
  test("a price with IGV is divided by 1.18; a price without it stays", () => {
    expect(netPriceCents(11_800, true, IGV)).toBe(10_000);
    expect(netPriceCents(11_800, false, IGV)).toBe(11_800);
    // Another rate from the settings: 10 %.
    expect(netPriceCents(11_000, true, 1000)).toBe(10_000);
    // No IGV at all (a rate of 0): the price is the net price.
    expect(netPriceCents(999, true, 0)).toBe(999);
  });

  test("a 50 kg sack of rice at S/ 177.00 with IGV: S/ 150.00 net, 0.3 cents a gram, S/ 3.00 a kilogram", () => {
    const sack = { priceCents: 17_700, priceIncludesIgv: true, quantity: 50_000 };
    expect(costPerBaseUnit(sack, IGV)).toBeCloseTo(0.3, 12);
    expect(costPerReferenceCents(sack, "g", IGV)).toBe(300);
  });

  test("a 1 l bottle of oil at S/ 9.90 without IGV: 0.99 cents a millilitre, S/ 9.90 a litre", () => {
    const bottle = { priceCents: 990, priceIncludesIgv: false, quantity: 1000 };
    expect(costPerBaseUnit(bottle, IGV)).toBeCloseTo(0.99, 12);
    expect(costPerReferenceCents(bottle, "ml", IGV)).toBe(990);
  });

  test("a tray of 30 eggs at S/ 14.16 with IGV: S/ 12.00 net, 40 cents an egg", () => {
    const tray = { priceCents: 1416, priceIncludesIgv: true, quantity: 30 };
    expect(costPerBaseUnit(tray, IGV)).toBeCloseTo(40, 10);
    expect(costPerReferenceCents(tray, "unit", IGV)).toBe(40);
    expect(referenceQuantity("unit")).toBe(1);
  });

  test("the kilogram price is rounded once, half up, to whole cents", () => {
    // S/ 10.00 with IGV for 3 kg: 847.4576… cents net, 282.4858… a kilogram → 282.
    expect(costPerReferenceCents({ priceCents: 1000, priceIncludesIgv: true, quantity: 3000 }, "g", IGV)).toBe(282);
    // S/ 0.05 without IGV for 2 g: 2.5 cents a gram, 2500 a kilogram exactly.
    expect(costPerReferenceCents({ priceCents: 5, priceIncludesIgv: false, quantity: 2 }, "g", IGV)).toBe(2500);
  });

  test("grams of an amount: grams as they are, millilitres by density, units by the weight of one", () => {
    expect(gramsOf(250, { baseUnit: "g", densityGramsPerMl: null, unitWeightGrams: null })).toBe(250);
    expect(gramsOf(100, { baseUnit: "ml", densityGramsPerMl: 0.92, unitWeightGrams: null })).toBeCloseTo(92, 10);
    expect(gramsOf(3, { baseUnit: "unit", densityGramsPerMl: null, unitWeightGrams: 50 })).toBe(150);
  });
});
