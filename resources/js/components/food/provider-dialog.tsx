/** The New-provider dialog, and editing a provider: name, RUC (checked with its check digit), contact, phone, e-mail. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import type { ProviderRow } from "./types";

const FIELDS = ["name", "ruc", "contact", "phone", "email"];

export function ProviderDialog({
  provider,
  rucLength,
  onClose,
}: {
  provider: ProviderRow | null;
  rucLength: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({
    name: provider?.name ?? "",
    ruc: provider?.ruc ?? "",
    contact: provider?.contact ?? "",
    phone: provider?.phone ?? "",
    email: provider?.email ?? "",
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => onClose() };
    if (provider) form.put(route("providers.update", { provider: provider.id }), options);
    else form.post(route("providers.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={provider ? t("food.providers.edit_title", { name: provider.name }) : t("food.providers.new_title")}
      closeLabel={t("food.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Field
          label={t("food.providers.name")}
          name="name"
          required
          maxLength={120}
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
        />
        <Field
          label={t("food.providers.ruc")}
          name="ruc"
          required
          inputMode="numeric"
          maxLength={rucLength}
          inputClassName="font-mono"
          hint={t("food.providers.ruc_hint", { length: rucLength })}
          value={form.data.ruc}
          onChange={(e) => form.setData("ruc", e.target.value.replace(/\s/g, ""))}
          error={form.errors.ruc}
        />
        <Field
          label={t("food.providers.contact")}
          name="contact"
          maxLength={120}
          value={form.data.contact}
          onChange={(e) => form.setData("contact", e.target.value)}
          error={form.errors.contact}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("food.providers.phone")}
            name="phone"
            type="tel"
            maxLength={40}
            value={form.data.phone}
            onChange={(e) => form.setData("phone", e.target.value)}
            error={form.errors.phone}
          />
          <Field
            label={t("food.providers.email")}
            name="email"
            type="email"
            maxLength={254}
            value={form.data.email}
            onChange={(e) => form.setData("email", e.target.value)}
            error={form.errors.email}
          />
        </div>
        <OtherErrors errors={form.errors as Record<string, string>} fields={FIELDS} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("food.cancel")}
          submitLabel={t("food.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
