/**
 * The city picker of a place (a cafe or a headquarters): the cities by name with their region, searchable, and
 * "no city" for a place whose city is not known yet. Its value is the city's id as text ("" for none).
 */
import { useI18n } from "../../hooks/use-i18n";
import { SelectField } from "../ui/select-field";
import type { CityOption } from "../../../../src/shared/food/types";

export type { CityOption };

export function CitySelect({
  cities,
  value,
  onChange,
  error,
  hint,
  name = "city_id",
}: {
  cities: CityOption[];
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  name?: string;
}) {
  const { t } = useI18n();
  return (
    <SelectField
      searchable
      label={t("food.city")}
      name={name}
      value={value}
      onValueChange={onChange}
      error={error}
      hint={hint ?? t("food.city_hint")}
      options={[
        { value: "", label: t("food.no_city") },
        ...cities.map((c) => ({ value: String(c.id), label: c.region ? `${c.name} (${c.region})` : c.name })),
      ]}
    />
  );
}

/** A form's city as it sends it: the id, or null for none. */
export const cityIdOf = (value: string): number | null => (value ? Number(value) : null);
