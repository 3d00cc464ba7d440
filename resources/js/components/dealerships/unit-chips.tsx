/**
 * The units a subdealership works in, as chips ("Unidad Norte · Mina Cerro Verde": the unit first, so a chip cut
 * short still tells the units apart; the whole on hover), and how many lie outside the user's scope.
 */
import { useI18n } from "../../hooks/use-i18n";
import { Chips } from "../ui/chips";
import type { UnitRef } from "./types";

export function UnitChips({ units, hidden, max = 2 }: { units: UnitRef[]; hidden: number; max?: number }) {
  const { t } = useI18n();
  if (units.length === 0 && hidden === 0)
    return <span className="text-xs text-muted-foreground">{t("dealerships.no_units")}</span>;
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Chips
        max={max}
        items={units.map((unit) => ({
          key: unit.id,
          label: `${unit.name} · ${unit.mineName}`,
          title: `${unit.mineName} / ${unit.name}`,
        }))}
      />
      {hidden > 0 && (
        <span className="px-1.5 py-0.5 text-xs text-muted-foreground">
          {t("dealerships.hidden_units", { count: hidden })}
        </span>
      )}
    </span>
  );
}
