/** The insert-business dialog: create or edit a business (legal name, RUC, fiscal and legal address, e-mail, phone). */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import type { BusinessRow } from "./types";

const FIELDS = ["name", "ruc", "fiscal_address", "legal_address", "email", "phone"];

export function BusinessDialog({
  business,
  rucLength,
  onClose,
}: {
  business: BusinessRow | null;
  rucLength: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({
    name: business?.name ?? "",
    ruc: business?.ruc ?? "",
    fiscal_address: business?.fiscalAddress ?? "",
    legal_address: business?.legalAddress ?? "",
    email: business?.email ?? "",
    phone: business?.phone ?? "",
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (business) form.put(route("businesses.update", { business: business.id }), options);
    else form.post(route("businesses.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(business ? "businesses.edit_title" : "businesses.new_title")}
      closeLabel={t("businesses.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <div className="grid gap-3 sm:grid-cols-[1fr_11rem]">
          <Field
            label={t("businesses.name")}
            name="name"
            required
            maxLength={120}
            value={form.data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={form.errors.name}
          />
          <Field
            label={t("businesses.ruc")}
            name="ruc"
            required
            inputMode="numeric"
            maxLength={rucLength}
            inputClassName="font-mono"
            hint={t("businesses.ruc_hint", { length: rucLength })}
            value={form.data.ruc}
            onChange={(e) => form.setData("ruc", e.target.value.replace(/\D/g, ""))}
            error={form.errors.ruc}
          />
        </div>
        <Field
          label={t("businesses.fiscal_address")}
          name="fiscal_address"
          required
          maxLength={255}
          value={form.data.fiscal_address}
          onChange={(e) => form.setData("fiscal_address", e.target.value)}
          error={form.errors.fiscal_address}
        />
        <Field
          label={t("businesses.legal_address")}
          name="legal_address"
          required
          maxLength={255}
          value={form.data.legal_address}
          onChange={(e) => form.setData("legal_address", e.target.value)}
          error={form.errors.legal_address}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("businesses.email")}
            name="email"
            type="email"
            required
            maxLength={254}
            value={form.data.email}
            onChange={(e) => form.setData("email", e.target.value)}
            error={form.errors.email}
          />
          <Field
            label={t("businesses.phone")}
            name="phone"
            type="tel"
            maxLength={30}
            value={form.data.phone}
            onChange={(e) => form.setData("phone", e.target.value)}
            error={form.errors.phone}
          />
        </div>
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
