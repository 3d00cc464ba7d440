/** Create or edit a headquarters: its business, name, address, phone and city (where it acts as a logistics centre). */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { CitySelect, cityIdOf, type CityOption } from "../food/city-select";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
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
  const route = useRoute();
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    form.transform((data) => ({ ...data, city_id: cityIdOf(data.city_id) }));
    if (headquarters) form.put(route("headquarters.update", { headquarters: headquarters.id }), options);
    else form.post(route("headquarters.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(headquarters ? "headquarters.edit_title" : "headquarters.new_title")}
      closeLabel={t("businesses.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <SelectField
          label={t("headquarters.business")}
          name="business_id"
          required
          value={form.data.business_id}
          onChange={(e) => form.setData("business_id", e.target.value)}
          error={form.errors.business_id}
        >
          <option value="">—</option>
          {businesses.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </SelectField>
        <Field
          label={t("headquarters.name")}
          name="name"
          required
          maxLength={120}
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
        />
        <Field
          label={t("headquarters.address")}
          name="address"
          required
          maxLength={255}
          value={form.data.address}
          onChange={(e) => form.setData("address", e.target.value)}
          error={form.errors.address}
        />
        <Field
          label={t("headquarters.phone")}
          name="phone"
          type="tel"
          maxLength={30}
          value={form.data.phone}
          onChange={(e) => form.setData("phone", e.target.value)}
          error={form.errors.phone}
        />
        <CitySelect
          cities={cities}
          value={form.data.city_id}
          onChange={(value) => form.setData("city_id", value)}
          error={form.errors.city_id}
          hint={t("food.headquarters_city_hint")}
        />
        <OtherErrors errors={form.errors as Record<string, string>} fields={FIELDS} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("businesses.cancel")}
          submitLabel={t("businesses.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
