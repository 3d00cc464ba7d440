/** A cafe's issuing business, time zone and city: the fields the new-cafe modal and the cafe's edit dialog share. */
import type { InertiaFormProps } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { CitySelect, type CityOption } from "../food/city-select";
import { textField } from "../form-dialog";
import { SelectField } from "../ui/select-field";
import type { PlaceOption } from "./types";

export type CafeData = { business_id: string; time_zone: string; city_id: string };

export function CafeFields<T extends CafeData>({
  form,
  businesses,
  businessRequired = false,
  timeZones,
  defaultTimeZone,
  cities,
}: {
  form: InertiaFormProps<T>;
  businesses: PlaceOption[];
  businessRequired?: boolean;
  timeZones: string[];
  defaultTimeZone: string;
  cities: CityOption[];
}) {
  const { t } = useI18n();
  return (
    <>
      <SelectField label={t("management.business")} required={businessRequired} {...textField(form, "business_id")}>
        <option value="">—</option>
        {businesses.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <SelectField searchable label={t("management.time_zone")} {...textField(form, "time_zone")}>
        {timeZones.map((zone) => (
          <option key={zone} value={zone}>
            {zone === defaultTimeZone ? t("management.time_zone_default", { zone }) : zone}
          </option>
        ))}
      </SelectField>
      <CitySelect
        cities={cities}
        value={form.data.city_id}
        onChange={(value) => (form.setData as unknown as (key: string, value: string) => void)("city_id", value)}
        error={(form.errors as Record<string, string | undefined>).city_id}
      />
    </>
  );
}
