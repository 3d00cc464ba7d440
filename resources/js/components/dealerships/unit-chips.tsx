/** The units a subdealership works in, as chips ("Mina / Unidad"), and how many lie outside the user's scope. */
import { useI18n } from "../../hooks/use-i18n";
import type { UnitRef } from "./types";

export function UnitChips({ units, hidden }: { units: UnitRef[]; hidden: number }) {
  const { t } = useI18n();
  if (units.length === 0 && hidden === 0)
    return <span className="text-xs text-muted-foreground">{t("dealerships.no_units")}</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {units.map((unit) => (
        <li key={unit.id} className="rounded bg-muted px-1.5 py-0.5 text-xs" title={`${unit.mineName} / ${unit.name}`}>
          <span className="text-muted-foreground">{unit.mineName} / </span>
          {unit.name}
        </li>
      ))}
      {hidden > 0 && (
        <li className="px-1.5 py-0.5 text-xs text-muted-foreground">
          {t("dealerships.hidden_units", { count: hidden })}
        </li>
      )}
    </ul>
  );
}
