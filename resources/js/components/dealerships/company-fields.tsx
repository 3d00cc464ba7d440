/** The fields a dealership and a subdealership share: name, RUC, fiscal and legal address, phone and e-mail. */
import { useI18n } from "../../hooks/use-i18n";
import { RucField } from "../ruc-field";
import { Field } from "../ui/field";

export interface CompanyData {
  name: string;
  ruc: string;
  fiscal_address: string;
  legal_address: string;
  phone: string;
  email: string;
}

export const COMPANY_FIELDS = ["name", "ruc", "fiscal_address", "legal_address", "phone", "email"];

export function companyData(
  row: { name: string; ruc: string; fiscalAddress: string; legalAddress: string; phone: string; email: string } | null,
): CompanyData {
  return {
    name: row?.name ?? "",
    ruc: row?.ruc ?? "",
    fiscal_address: row?.fiscalAddress ?? "",
    legal_address: row?.legalAddress ?? "",
    phone: row?.phone ?? "",
    email: row?.email ?? "",
  };
}

export function CompanyFields({
  data,
  errors,
  rucLength,
  onChange,
}: {
  data: CompanyData;
  errors: Partial<Record<keyof CompanyData, string>>;
  rucLength: number;
  onChange: (field: keyof CompanyData, value: string) => void;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        label={t("dealerships.name")}
        name="name"
        required
        maxLength={120}
        value={data.name}
        onChange={(e) => onChange("name", e.target.value)}
        error={errors.name}
      />
      <RucField
        label={t("dealerships.ruc")}
        name="ruc"
        rucLength={rucLength}
        hint={t("dealerships.ruc_hint", { length: rucLength })}
        value={data.ruc}
        onChange={(e) => onChange("ruc", e.target.value.replace(/\s/g, ""))}
        error={errors.ruc}
      />
      <Field
        label={t("dealerships.fiscal_address")}
        name="fiscal_address"
        maxLength={255}
        value={data.fiscal_address}
        onChange={(e) => onChange("fiscal_address", e.target.value)}
        error={errors.fiscal_address}
      />
      <Field
        label={t("dealerships.legal_address")}
        name="legal_address"
        maxLength={255}
        value={data.legal_address}
        onChange={(e) => onChange("legal_address", e.target.value)}
        error={errors.legal_address}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label={t("dealerships.phone")}
          name="phone"
          type="tel"
          maxLength={40}
          value={data.phone}
          onChange={(e) => onChange("phone", e.target.value)}
          error={errors.phone}
        />
        <Field
          label={t("dealerships.email")}
          name="email"
          type="email"
          maxLength={254}
          value={data.email}
          onChange={(e) => onChange("email", e.target.value)}
          error={errors.email}
        />
      </div>
    </>
  );
}
