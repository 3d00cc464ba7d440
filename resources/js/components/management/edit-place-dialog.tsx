/** Edit a mine or unit (its name) or a cafe (name, issuing business, time zone, city). */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { CitySelect, cityIdOf, type CityOption } from "../food/city-select";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import type { CafeRow, MineRow, PlaceOption, UnitRow } from "./types";

export type EditTarget =
  { kind: "mine"; row: MineRow } | { kind: "unit"; row: UnitRow } | { kind: "cafe"; row: CafeRow };

export function EditPlaceDialog({
  target,
  businesses,
  timeZones,
  defaultTimeZone,
  cities,
  onClose,
}: {
  target: EditTarget;
  businesses: PlaceOption[];
  timeZones: string[];
  defaultTimeZone: string;
  cities: CityOption[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const cafe = target.kind === "cafe" ? target.row : null;
  const form = useForm({
    name: target.row.name,
    business_id: cafe?.businessId ? String(cafe.businessId) : "",
    time_zone: cafe?.timeZone ?? defaultTimeZone,
    city_id: cafe?.cityId ? String(cafe.cityId) : "",
  });
  // The cafe's own business stays choosable even when it lies outside the user's businesses.
  const choices =
    cafe?.businessId && !businesses.some((b) => b.id === cafe.businessId)
      ? [...businesses, { id: cafe.businessId, name: cafe.businessName ?? "?" }]
      : businesses;
  const zones = cafe && !timeZones.includes(cafe.timeZone) ? [cafe.timeZone, ...timeZones] : timeZones;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (target.kind === "mine") form.put(route("mines.update", { mine: target.row.id }), options);
    else if (target.kind === "unit") form.put(route("units.update", { unit: target.row.id }), options);
    else {
      form.transform((data) => ({
        ...data,
        business_id: data.business_id ? Number(data.business_id) : null,
        city_id: cityIdOf(data.city_id),
      }));
      form.put(route("cafes.update", { cafe: target.row.id }), options);
    }
  };
  const errors = form.errors as Record<string, string | undefined>;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(`management.edit_${target.kind}_title`, { name: target.row.name })}
      closeLabel={t("management.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {target.kind === "unit" && (
          <p className="text-sm text-muted-foreground">{t("management.in_mine", { mine: target.row.mineName })}</p>
        )}
        {cafe && (
          <p className="text-sm text-muted-foreground">
            {t("management.in_unit", { mine: cafe.mineName, unit: cafe.unitName })}
          </p>
        )}
        <Field
          label={t("management.name")}
          name="name"
          required
          maxLength={80}
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={errors.name}
        />
        {cafe && (
          <>
            <SelectField
              label={t("management.business")}
              name="business_id"
              required
              value={form.data.business_id}
              onChange={(e) => form.setData("business_id", e.target.value)}
              error={errors.business_id}
            >
              <option value="">—</option>
              {choices.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </SelectField>
            <SelectField
              searchable
              label={t("management.time_zone")}
              name="time_zone"
              value={form.data.time_zone}
              onChange={(e) => form.setData("time_zone", e.target.value)}
              error={errors.time_zone}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone === defaultTimeZone ? t("management.time_zone_default", { zone }) : zone}
                </option>
              ))}
            </SelectField>
            <CitySelect
              cities={cities}
              value={form.data.city_id}
              onChange={(value) => form.setData("city_id", value)}
              error={errors.city_id}
            />
          </>
        )}
        <OtherErrors errors={errors} fields={["name", "business_id", "time_zone", "city_id"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("management.cancel")}
          submitLabel={t("management.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
