/** The services a business offers: one checkbox per service of the catalogue. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import type { BusinessRow, ServiceOption } from "./types";

export function BusinessServicesDialog({
  business,
  services,
  onClose,
}: {
  business: BusinessRow;
  services: ServiceOption[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ service_ids: business.serviceIds });
  const title = t("businesses.services_of", { name: business.name });
  const toggle = (id: number, on: boolean) =>
    form.setData("service_ids", on ? [...form.data.service_ids, id] : form.data.service_ids.filter((s) => s !== id));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.put(route("businesses.services.update", { business: business.id }), {
      preserveScroll: true,
      onSuccess: () => onClose(),
    });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={t("businesses.services_hint")}
      closeLabel={t("businesses.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {services.length === 0 && <p className="text-sm">{t("businesses.no_service_options")}</p>}
        <fieldset>
          <legend className="sr-only">{title}</legend>
          <div className="max-h-80 space-y-1 overflow-y-auto">
            {services.map((s) => (
              <label key={s.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={form.data.service_ids.includes(s.id)}
                  onChange={(e) => toggle(s.id, e.target.checked)}
                />
                <span className="font-mono">{s.code}</span> {s.name}
                <span className="text-xs text-muted-foreground">· {t(`services.types.${s.type}`)}</span>
                {!s.active && <span className="text-xs text-muted-foreground">({t("services.inactive")})</span>}
              </label>
            ))}
          </div>
        </fieldset>
        <OtherErrors errors={form.errors as Record<string, string>} fields={[]} />
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
