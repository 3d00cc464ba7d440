/** The insert-business dialog: create or edit a business (legal name, RUC, fiscal and legal address, e-mail, phone). */
import { useForm } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { textField } from "../form-dialog";
import { OrganisationDialog } from "./organisation-dialog";
import { RucField } from "../ruc-field";
import { Field } from "../ui/field";
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
  const form = useForm({
    name: business?.name ?? "",
    ruc: business?.ruc ?? "",
    fiscal_address: business?.fiscalAddress ?? "",
    legal_address: business?.legalAddress ?? "",
    email: business?.email ?? "",
    phone: business?.phone ?? "",
  });
  return (
    <OrganisationDialog kind="businesses" record={business} wide form={form} fields={FIELDS} onClose={onClose}>
      <div className="grid gap-3 sm:grid-cols-[1fr_11rem]">
        <Field label={t("businesses.name")} required maxLength={120} {...textField(form, "name")} />
        <RucField
          label={t("businesses.ruc")}
          rucLength={rucLength}
          hint={t("businesses.ruc_hint", { length: rucLength })}
          {...textField(form, "ruc", (value) => value.replace(/\D/g, ""))}
        />
      </div>
      <Field label={t("businesses.fiscal_address")} required maxLength={255} {...textField(form, "fiscal_address")} />
      <Field label={t("businesses.legal_address")} required maxLength={255} {...textField(form, "legal_address")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={t("businesses.email")} type="email" required maxLength={254} {...textField(form, "email")} />
        <Field label={t("businesses.phone")} type="tel" maxLength={30} {...textField(form, "phone")} />
      </div>
    </OrganisationDialog>
  );
}
