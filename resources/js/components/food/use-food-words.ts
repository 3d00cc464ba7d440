/** How the food pages write amounts: a quantity in its base unit, a cost per kilogram, litre or unit, a nutrient. */
import { useI18n } from "../../hooks/use-i18n";
import type { OfferRow } from "./types";

type BaseUnit = "g" | "ml" | "unit";

export function useFoodWords() {
  const i18n = useI18n();
  const { t, money, number } = i18n;
  return {
    ...i18n,
    /** 50000 g → "50 000 g"; 30 unit → "30 u". */
    quantity: (amount: number, unit: BaseUnit) => `${number(amount)} ${t(`food.units_short.${unit}`)}`,
    /** "S/ 3.00 por kg". */
    cost: (offer: Pick<OfferRow, "costPerReferenceCents" | "baseUnit">) =>
      `${money(offer.costPerReferenceCents)} ${t(`food.per_reference.${offer.baseUnit}`)}`,
    /** A price and whether it includes IGV: "S/ 177.00 con IGV". */
    price: (offer: Pick<OfferRow, "priceCents" | "priceIncludesIgv">) =>
      `${money(offer.priceCents)} ${t(offer.priceIncludesIgv ? "food.offers.with_igv" : "food.offers.without_igv")}`,
  };
}
