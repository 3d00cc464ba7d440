/**
 * The words of the note beside an ingredient bought in small presentations when a larger one of the same provider is
 * cheaper per unit: the page and the workbook say it alike, prices per kilogram, litre or unit, net of IGV ("Saco
 * 50 kg sale más barato: S/ 3.18 el kg frente a S/ 3.56 el kg de lo comprado; cubrir todo con él costaría
 * S/ 159.15."). Free of database and server imports, so the browser shares it.
 */
import type { Locale } from "../i18n";
import { formatMoney } from "../money";
import type { BaseUnit, RequirementLine } from "./types";

/** Base units in the unit prices are said per: a kilogram, a litre, one unit. */
const PER: Record<BaseUnit, number> = { g: 1000, ml: 1000, unit: 1 };

/** The translation key and parameters of a line's note, or null when it has none. */
export function largerPackNoteWords(
  line: Pick<RequirementLine, "baseUnit" | "largerPack">,
  locale: Locale,
): { key: `menuRequirements.needs.larger_pack.${BaseUnit}`; params: Record<string, string> } | null {
  const larger = line.largerPack;
  if (!larger) return null;
  const per = PER[line.baseUnit];
  return {
    key: `menuRequirements.needs.larger_pack.${line.baseUnit}`,
    params: {
      presentation: larger.presentation,
      price: formatMoney(Math.round(larger.unitNetCents * per), locale),
      bought: formatMoney(Math.round(larger.boughtUnitNetCents * per), locale),
      cover: formatMoney(Math.round(larger.coverNetCents), locale),
    },
  };
}
