/**
 * Create or edit a property: code, name, category (with the categories in use as suggestions), serial, where it
 * is kept (one select grouped into headquarters and cafes), status, acquisition date and value, notes.
 */
import { useForm } from "@inertiajs/react";
import { useId } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { DateField } from "../ui/date-picker";
import { textField } from "../form-dialog";
import { OrganisationDialog } from "./organisation-dialog";
import { Field, TextareaField } from "../ui/field";
import { SelectField } from "../ui/select-field";
import type { LocationOptions, PropertyRow, PropertyStatus } from "./types";

const FIELDS = [
  "code",
  "name",
  "category",
  "serial",
  "location",
  "status",
  "acquired_on",
  "acquisition_value",
  "notes",
];

export function PropertyDialog({
  property,
  statuses,
  locations,
  categories,
  today,
  onClose,
}: {
  property: PropertyRow | null;
  statuses: PropertyStatus[];
  locations: LocationOptions;
  categories: string[];
  /** YYYY-MM-DD, the latest acquisition date the date picker offers. */
  today: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const listId = useId();
  const form = useForm({
    code: property?.code ?? "",
    name: property?.name ?? "",
    category: property?.category ?? "",
    serial: property?.serial ?? "",
    location: property?.location.value ?? "",
    status: property?.status ?? "in_use",
    acquired_on: property?.acquiredOn ?? "",
    acquisition_value: property?.acquisitionValueCents == null ? "" : (property.acquisitionValueCents / 100).toFixed(2),
    notes: property?.notes ?? "",
  });
  return (
    <OrganisationDialog kind="properties" record={property} wide form={form} fields={FIELDS} onClose={onClose}>
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        <Field
          label={t("properties.code")}
          required
          maxLength={20}
          autoCapitalize="characters"
          inputClassName="font-mono"
          hint={t("properties.code_hint")}
          {...textField(form, "code", (value) => value.toUpperCase())}
        />
        <Field label={t("properties.name")} required maxLength={120} {...textField(form, "name")} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label={t("properties.category")}
          required
          maxLength={60}
          list={listId}
          {...textField(form, "category")}
        />
        <datalist id={listId}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <Field label={t("properties.serial")} maxLength={60} {...textField(form, "serial")} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField searchable label={t("properties.location")} required {...textField(form, "location")}>
          <option value="">—</option>
          {locations.headquarters.length > 0 && (
            <optgroup label={t("properties.location_headquarters")}>
              {locations.headquarters.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          )}
          {locations.cafes.length > 0 && (
            <optgroup label={t("properties.location_cafes")}>
              {locations.cafes.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          )}
        </SelectField>
        <SelectField
          label={t("properties.status")}
          name="status"
          required
          value={form.data.status}
          onChange={(e) => form.setData("status", e.target.value as PropertyStatus)}
          error={form.errors.status}
        >
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t(`properties.statuses.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <DateField
          label={t("properties.acquired_on")}
          max={today}
          value={form.data.acquired_on}
          onChange={(value) => form.setData("acquired_on", value)}
          error={form.errors.acquired_on}
        />
        <Field
          label={t("properties.acquisition_value")}
          inputMode="decimal"
          maxLength={20}
          hint={t("properties.value_hint")}
          {...textField(form, "acquisition_value")}
        />
      </div>
      <TextareaField label={t("properties.notes")} maxLength={1000} rows={3} {...textField(form, "notes")} />
    </OrganisationDialog>
  );
}
