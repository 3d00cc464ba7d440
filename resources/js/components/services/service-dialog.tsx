/** Create or edit a service: code, name, type, description and whether it is active. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextareaField } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import type { ServiceRow, ServiceType } from "./types";

export function ServiceDialog({
  service,
  types,
  onClose,
}: {
  service: ServiceRow | null;
  types: ServiceType[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({
    code: service?.code ?? "",
    name: service?.name ?? "",
    type: service?.type ?? "",
    description: service?.description ?? "",
    active: service?.active ?? true,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (service) form.put(route("services.update", { service: service.id }), options);
    else form.post(route("services.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(service ? "services.edit_title" : "services.new_title")}
      closeLabel={t("services.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
          <Field
            label={t("services.code")}
            name="code"
            required
            maxLength={12}
            autoCapitalize="characters"
            inputClassName="font-mono"
            hint={t("services.code_hint")}
            value={form.data.code}
            onChange={(e) => form.setData("code", e.target.value.toUpperCase())}
            error={form.errors.code}
          />
          <Field
            label={t("services.name")}
            name="name"
            required
            maxLength={80}
            value={form.data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={form.errors.name}
          />
        </div>
        <SelectField
          label={t("services.type")}
          name="type"
          required
          value={form.data.type}
          onChange={(e) => form.setData("type", e.target.value as ServiceType)}
          error={form.errors.type}
        >
          <option value="">—</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {t(`services.types.${type}`)}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label={t("services.description_label")}
          name="description"
          maxLength={500}
          rows={3}
          value={form.data.description}
          onChange={(e) => form.setData("description", e.target.value)}
          error={form.errors.description}
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="active"
            checked={form.data.active}
            onChange={(e) => form.setData("active", e.target.checked)}
          />
          {t("services.active")}
        </label>
        <OtherErrors errors={form.errors as Record<string, string>} fields={["code", "name", "type", "description"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("services.cancel")}
          submitLabel={t("services.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
