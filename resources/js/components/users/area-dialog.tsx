/** Create or edit an area: its name, the cafe or headquarters it belongs to, and the roles it offers. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { OtherErrors } from "../ui/form-errors";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";
import type { AreaRow, PlaceTree } from "./types";

export function AreaDialog({
  area,
  places,
  roles,
  onClose,
}: {
  area: AreaRow | null;
  places: PlaceTree;
  roles: { id: number; name: string }[];
  onClose: () => void;
}) {
  const { t, roleName } = useI18n();
  const route = useRoute();
  const initialPlace = area ? `${area.place.kind}:${area.place.id}` : "";
  const form = useForm({ name: area?.name ?? "", place: initialPlace, role_ids: area?.roles.map((r) => r.id) ?? [] });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((d) => {
      const [kind, id] = d.place.split(":");
      return {
        name: d.name,
        cafe_id: kind === "cafe" ? Number(id) : null,
        headquarters_id: kind === "headquarters" ? Number(id) : null,
        role_ids: d.role_ids,
      };
    });
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (area) form.put(route("areas.update", { area: area.id }), options);
    else form.post(route("areas.store"), options);
  };
  const toggle = (id: number, on: boolean) =>
    form.setData("role_ids", on ? [...form.data.role_ids, id] : form.data.role_ids.filter((r) => r !== id));
  const errors = form.errors as Record<string, string | undefined>;
  const placeError = errors.place ?? errors.cafe_id ?? errors.headquarters_id;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(area ? "access.areas.edit_title" : "access.areas.new_title")}
      closeLabel={t("access.users.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Field
          label={t("access.areas.name")}
          name="name"
          required
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
        />
        <SelectField
          label={t("access.areas.place")}
          name="place"
          value={form.data.place}
          onChange={(e) => form.setData("place", e.target.value)}
          error={placeError}
        >
          <option value="">{t("access.users.choose")}</option>
          {places.mines.map((mine) =>
            mine.units.map((unit) => (
              <optgroup key={`u${unit.id}`} label={`${mine.name} › ${unit.name}`}>
                {unit.cafes.map((cafe) => (
                  <option key={cafe.id} value={`cafe:${cafe.id}`}>
                    {t("access.areas.cafe")}: {cafe.name}
                  </option>
                ))}
              </optgroup>
            )),
          )}
          {places.businesses.map((business) => (
            <optgroup key={`b${business.id}`} label={business.name}>
              {business.headquarters.map((hq) => (
                <option key={hq.id} value={`headquarters:${hq.id}`}>
                  {t("access.areas.headquarters")}: {hq.name}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">{t("access.areas.roles")}</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {roles.map((r) => (
              <label key={r.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={form.data.role_ids.includes(r.id)}
                  onChange={(e) => toggle(r.id, e.target.checked)}
                />
                {roleName(r.name)}
              </label>
            ))}
          </div>
          {form.errors.role_ids && <p className="text-sm text-destructive">{form.errors.role_ids}</p>}
        </fieldset>
        <OtherErrors
          errors={form.errors as Record<string, string>}
          fields={["name", "place", "cafe_id", "headquarters_id", "role_ids"]}
        />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("access.users.cancel")}
          submitLabel={t("access.users.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
