/**
 * Voids a sale with a reason (POST sales.void). The sale stays in the list, struck through, and counts nowhere;
 * its number is not reused.
 */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { TextareaField } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import type { SaleView } from "./types";

export function VoidDialog({ sale, onClose }: { sale: SaleView; onClose: () => void }) {
  const { t, money } = useI18n();
  const route = useRoute();
  const form = useForm({ reason: "" });
  const errors = form.errors as Record<string, string>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.processing) return;
    form.post(route("sales.void", { sale: sale.id }), {
      preserveScroll: true,
      preserveState: true,
      only: ["sales", "last"],
      onSuccess: (page) => {
        const failed = (page.props.errors ?? {}) as Record<string, string>;
        if (Object.keys(failed).length === 0) onClose();
      },
    });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("dinners.void.title", { ticket: sale.ticket })}
      description={t("dinners.void.description", { name: sale.dinerName, total: money(sale.totalCents) })}
      closeLabel={t("dinners.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextareaField
          label={t("dinners.void.reason")}
          value={form.data.reason}
          onChange={(e) => form.setData("reason", e.target.value)}
          error={errors.reason}
          rows={3}
          maxLength={200}
          required
        />
        <OtherErrors errors={errors} fields={["reason"]} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>
            {t("dinners.cancel")}
          </Button>
          <Button type="submit" variant="destructive" disabled={form.processing}>
            {t("dinners.void.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
