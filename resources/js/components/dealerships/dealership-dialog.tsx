/** Create or edit a dealership: name, RUC, fiscal and legal address, phone and e-mail. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { COMPANY_FIELDS, CompanyFields, companyData } from "./company-fields";
import type { DealershipRow } from "./types";

export function DealershipDialog({
  dealership,
  rucLength,
  onClose,
}: {
  dealership: DealershipRow | null;
  rucLength: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm(companyData(dealership));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => onClose() };
    if (dealership) form.put(route("dealerships.update", { dealership: dealership.id }), options);
    else form.post(route("dealerships.store"), options);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t(dealership ? "dealerships.edit_title" : "dealerships.new_title")}
      closeLabel={t("dealerships.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <CompanyFields
          data={form.data}
          errors={form.errors}
          rucLength={rucLength}
          onChange={(field, value) => form.setData(field, value)}
        />
        <OtherErrors errors={form.errors as Record<string, string>} fields={COMPANY_FIELDS} />
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
