/** The New-provider dialog, and editing a provider: name, RUC (checked with its check digit), contact, phone, e-mail. */
import { useForm } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { FormDialog, textField } from "../form-dialog";
import { RucField } from "../ruc-field";
import { Field } from "../ui/field";
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
  return (
    <FormDialog
      title={provider ? t("food.providers.edit_title", { name: provider.name }) : t("food.providers.new_title")}
      words="food"
      form={form}
      fields={FIELDS}
      send={
        provider
          ? { method: "put", url: route("providers.update", { provider: provider.id }), preserveState: true }
          : { method: "post", url: route("providers.store"), preserveState: true }
      }
      onClose={onClose}
    >
      <Field label={t("food.providers.name")} required maxLength={120} {...textField(form, "name")} />
      <RucField
        label={t("food.providers.ruc")}
        rucLength={rucLength}
        hint={t("food.providers.ruc_hint", { length: rucLength })}
        {...textField(form, "ruc", (value) => value.replace(/\s/g, ""))}
      />
      <Field label={t("food.providers.contact")} maxLength={120} {...textField(form, "contact")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={t("food.providers.phone")} type="tel" maxLength={40} {...textField(form, "phone")} />
        <Field label={t("food.providers.email")} type="email" maxLength={254} {...textField(form, "email")} />
      </div>
    </FormDialog>
  );
}
