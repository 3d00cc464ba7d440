/**
 * Create or edit a subdealership: its dealership, the company fields, and the units it works in (checkboxes grouped
 * by mine, only the units within the user's scope; units outside it stay as they are on the server).
 */
import { useForm } from "@inertiajs/react";
import { useId, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import { COMPANY_FIELDS, CompanyFields, companyData, type CompanyData } from "./company-fields";
import type { DealershipOption, SubdealershipRow, UnitChoiceMine } from "./types";

export function SubdealershipDialog({
  subdealership,
  dealershipId,
  dealershipOptions,
  unitChoices,
  rucLength,
  onClose,
}: {
  subdealership: SubdealershipRow | null;
  /** The dealership chosen beforehand ("add subdealership" on a dealership's row). */
  dealershipId?: number;
  dealershipOptions: DealershipOption[];
  unitChoices: UnitChoiceMine[];
  rucLength: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const unitsId = useId();
  const form = useForm({
    ...companyData(subdealership),
    dealership_id: String(subdealership?.dealershipId ?? dealershipId ?? ""),
    unit_ids: subdealership?.units.map((u) => u.id) ?? ([] as number[]),
  });
  const errors = form.errors as Partial<Record<keyof CompanyData | "dealership_id" | "unit_ids", string>>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => onClose() };
    if (subdealership) form.put(route("subdealerships.update", { subdealership: subdealership.id }), options);
    else form.post(route("subdealerships.store"), options);
  };
  const toggle = (id: number, on: boolean) =>
    form.setData("unit_ids", on ? [...form.data.unit_ids, id] : form.data.unit_ids.filter((u) => u !== id));
  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={t(subdealership ? "dealerships.edit_subdealership_title" : "dealerships.new_subdealership_title")}
      closeLabel={t("dealerships.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <SelectField
          label={t("dealerships.dealership")}
          name="dealership_id"
          required
          value={form.data.dealership_id}
          onChange={(e) => form.setData("dealership_id", e.target.value)}
          error={errors.dealership_id}
        >
          <option value="">{t("dealerships.choose_dealership")}</option>
          {dealershipOptions.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <CompanyFields
          data={form.data}
          errors={errors}
          rucLength={rucLength}
          onChange={(field, value) => form.setData(field, value)}
        />
        <fieldset
          className="space-y-2"
          aria-invalid={errors.unit_ids ? true : undefined}
          aria-describedby={errors.unit_ids ? `${unitsId}-hint ${unitsId}-error` : `${unitsId}-hint`}
        >
          <legend className="text-sm font-medium">{t("dealerships.units")}</legend>
          <p id={`${unitsId}-hint`} className="text-xs text-muted-foreground">
            {t("dealerships.units_hint")}
          </p>
          {unitChoices.length === 0 && <p className="text-sm">{t("dealerships.no_unit_choices")}</p>}
          <div className="grid max-h-56 gap-3 overflow-y-auto sm:grid-cols-2">
            {unitChoices.map((mine) => (
              <fieldset key={mine.id} className="rounded-md border p-2">
                <legend className="px-1 text-xs font-medium uppercase text-muted-foreground">{mine.name}</legend>
                {mine.units.map((unit) => (
                  <label key={unit.id} className="flex items-center gap-2 py-0.5 text-sm">
                    <input
                      type="checkbox"
                      name="unit_ids"
                      value={unit.id}
                      checked={form.data.unit_ids.includes(unit.id)}
                      onChange={(e) => toggle(unit.id, e.target.checked)}
                    />
                    {unit.name}
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
          {subdealership && subdealership.hiddenUnits > 0 && (
            <p className="text-xs text-muted-foreground">
              {t("dealerships.hidden_units_kept", { count: subdealership.hiddenUnits })}
            </p>
          )}
          {errors.unit_ids && (
            <p id={`${unitsId}-error`} className="text-sm text-destructive">
              {errors.unit_ids}
            </p>
          )}
        </fieldset>
        <OtherErrors
          errors={errors as Record<string, string>}
          fields={[...COMPANY_FIELDS, "dealership_id", "unit_ids"]}
        />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("dealerships.cancel")}
          submitLabel={t("dealerships.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
