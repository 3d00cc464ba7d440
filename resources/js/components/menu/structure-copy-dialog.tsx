/**
 * Copies a service's saved structure to other cafes of the viewer's scope that offer the service
 * (menu.structures.copy): their structure for that service is replaced.
 */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import type { MenuCafe, ServiceStructure } from "./structure-types";

export function StructureCopyDialog({
  cafe,
  structure,
  targets,
  onClose,
}: {
  cafe: MenuCafe;
  structure: ServiceStructure;
  targets: { id: number; path: string }[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ cafe_ids: [] as number[] });
  const chosen = form.data.cafe_ids;
  const errors = form.errors as Record<string, string>;
  const toggle = (id: number) =>
    form.setData("cafe_ids", chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.processing) return;
    if (chosen.length === 0) {
      form.clearErrors();
      form.setError("cafe_ids", t("menu.structures.errors.copy_none"));
      return;
    }
    form.post(route("menu.structures.copy", { cafe: cafe.id, service: structure.service.id }), {
      preserveScroll: true,
      onSuccess: () => onClose(),
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t("menu.structures.copy_title", { service: structure.service.name })}
      description={t("menu.structures.copy_body", { service: structure.service.name })}
      closeLabel={t("ui.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <OtherErrors errors={errors} fields={[]} />
        {targets.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("menu.structures.copy_none")}</p>
        ) : (
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium">
              {t("menu.structures.copy_targets", { service: structure.service.name })}
            </legend>
            <div className="max-h-72 space-y-1 overflow-y-auto rounded-md border p-2">
              {targets.map((target) => (
                <label key={target.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-accent">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={chosen.includes(target.id)}
                    onChange={() => toggle(target.id)}
                  />
                  {target.path}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("ui.cancel")}
          submitLabel={t("menu.structures.copy_selected", { count: chosen.length })}
          busy={form.processing || targets.length === 0}
        />
      </form>
    </Dialog>
  );
}
