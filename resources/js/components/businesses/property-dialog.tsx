/**
 * Create or edit a property: code, name, category (with the categories in use as suggestions), serial, where it
 * is kept (one select grouped into headquarters and cafes), status, acquisition date and value, notes.
 */
import { useForm } from "@inertiajs/react";
import { useId, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { DateField } from "../ui/date-picker";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextareaField } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
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
  const route = useRoute();
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (property) form.put(route("properties.update", { property: property.id }), options);
    else form.post(route("properties.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(property ? "properties.edit_title" : "properties.new_title")}
      closeLabel={t("businesses.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
          <Field
            label={t("properties.code")}
            name="code"
            required
            maxLength={20}
            autoCapitalize="characters"
            inputClassName="font-mono"
            hint={t("properties.code_hint")}
            value={form.data.code}
            onChange={(e) => form.setData("code", e.target.value.toUpperCase())}
            error={form.errors.code}
          />
          <Field
            label={t("properties.name")}
            name="name"
            required
            maxLength={120}
            value={form.data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={form.errors.name}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("properties.category")}
            name="category"
            required
            maxLength={60}
            list={listId}
            value={form.data.category}
            onChange={(e) => form.setData("category", e.target.value)}
            error={form.errors.category}
          />
          <datalist id={listId}>
            {categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <Field
            label={t("properties.serial")}
            name="serial"
            maxLength={60}
            value={form.data.serial}
            onChange={(e) => form.setData("serial", e.target.value)}
            error={form.errors.serial}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            searchable
            label={t("properties.location")}
            name="location"
            required
            value={form.data.location}
            onChange={(e) => form.setData("location", e.target.value)}
            error={form.errors.location}
          >
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
            name="acquisition_value"
            inputMode="decimal"
            maxLength={20}
            hint={t("properties.value_hint")}
            value={form.data.acquisition_value}
            onChange={(e) => form.setData("acquisition_value", e.target.value)}
            error={form.errors.acquisition_value}
          />
        </div>
        <TextareaField
          label={t("properties.notes")}
          name="notes"
          maxLength={1000}
          rows={3}
          value={form.data.notes}
          onChange={(e) => form.setData("notes", e.target.value)}
          error={form.errors.notes}
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
