/** Edit a mine or unit (its name) or a cafe (name, issuing business, time zone, city). */
import { useForm } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cityIdOf, type CityOption } from "../food/city-select";
import { FormDialog, textField } from "../form-dialog";
import { Field } from "../ui/field";
import { CafeFields } from "./cafe-fields";
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

  const url =
    target.kind === "mine"
      ? route("mines.update", { mine: target.row.id })
      : target.kind === "unit"
        ? route("units.update", { unit: target.row.id })
        : route("cafes.update", { cafe: target.row.id });
  return (
    <FormDialog
      title={t(`management.edit_${target.kind}_title`, { name: target.row.name })}
      words="management"
      form={form}
      fields={["name", "business_id", "time_zone", "city_id"]}
      send={{ method: "put", url }}
      transform={
        cafe
          ? (data) => ({
              ...data,
              business_id: data.business_id ? Number(data.business_id) : null,
              city_id: cityIdOf(data.city_id),
            })
          : undefined
      }
      onClose={onClose}
    >
      {target.kind === "unit" && (
        <p className="text-sm text-muted-foreground">{t("management.in_mine", { mine: target.row.mineName })}</p>
      )}
      {cafe && (
        <p className="text-sm text-muted-foreground">
          {t("management.in_unit", { mine: cafe.mineName, unit: cafe.unitName })}
        </p>
      )}
      <Field label={t("management.name")} required maxLength={80} {...textField(form, "name")} />
      {cafe && (
        <CafeFields
          form={form}
          businesses={choices}
          businessRequired
          timeZones={zones}
          defaultTimeZone={defaultTimeZone}
          cities={cities}
        />
      )}
    </FormDialog>
  );
}
