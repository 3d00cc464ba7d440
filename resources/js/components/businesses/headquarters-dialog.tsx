/** Create or edit a headquarters: its business, name, address, phone and city (where it acts as a logistics centre). */
import { useForm } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { CitySelect, cityIdOf, type CityOption } from "../food/city-select";
import { textField } from "../form-dialog";
import { OrganisationDialog } from "./organisation-dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";
import type { BusinessOption, HeadquartersRow } from "./types";

const FIELDS = ["business_id", "name", "address", "phone", "city_id"];

export function HeadquartersDialog({
  headquarters,
  businesses,
  cities,
  onClose,
}: {
  headquarters: HeadquartersRow | null;
  businesses: BusinessOption[];
  cities: CityOption[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const form = useForm({
    business_id: headquarters
      ? String(headquarters.businessId)
      : businesses.length === 1
        ? String(businesses[0].id)
        : "",
    name: headquarters?.name ?? "",
    address: headquarters?.address ?? "",
    phone: headquarters?.phone ?? "",
    city_id: headquarters?.cityId ? String(headquarters.cityId) : "",
  });
  return (
    <OrganisationDialog
      kind="headquarters"
      record={headquarters}
      form={form}
      fields={FIELDS}
      transform={(data) => ({ ...data, city_id: cityIdOf(data.city_id) })}
      onClose={onClose}
    >
      <SelectField label={t("headquarters.business")} required {...textField(form, "business_id")}>
        <option value="">—</option>
        {businesses.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <Field label={t("headquarters.name")} required maxLength={120} {...textField(form, "name")} />
      <Field label={t("headquarters.address")} required maxLength={255} {...textField(form, "address")} />
      <Field label={t("headquarters.phone")} type="tel" maxLength={30} {...textField(form, "phone")} />
      <CitySelect
        cities={cities}
        value={form.data.city_id}
        onChange={(value) => form.setData("city_id", value)}
        error={form.errors.city_id}
        hint={t("food.headquarters_city_hint")}
      />
    </OrganisationDialog>
  );
}
