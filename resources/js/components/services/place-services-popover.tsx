/**
 * The popover of a row that chooses the services a mine, unit or cafe offers, among those its parent offers. When
 * the change removes services its children offer, the server changes nothing and sends back the list of those
 * children; a dialog shows it and asks to confirm, then sends the same choice again with `confirm: true`.
 */
import { useForm } from "@inertiajs/react";
import { useId, useState, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { ConfirmDialog } from "../ui/alert-dialog";
import { ScrollRegion } from "../ui/scroll-region";
import { DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { Popover } from "../ui/popover";
import type { PlaceKind, RemovalConfirmation, ServiceOption } from "./types";

export interface PlaceTarget {
  kind: PlaceKind;
  id: number;
  name: string;
  serviceIds: number[];
  /** The parent's name and the services it offers; null for a mine (any active service). */
  parent: { name: string; serviceIds: number[] } | null;
}

/** `anchor` is the row's button that opened it. */
export function PlaceServicesPopover({
  place,
  services,
  anchor,
  onClose,
}: {
  place: PlaceTarget;
  services: ServiceOption[];
  anchor: HTMLElement;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const errorId = useId();
  const [confirmation, setConfirmation] = useState<RemovalConfirmation | null>(null);
  const form = useForm({ service_ids: place.serviceIds, confirm: false });
  // Offered already, or offered by the parent (any active service for a mine).
  const choices = services.filter(
    (s) => place.serviceIds.includes(s.id) || (place.parent ? place.parent.serviceIds.includes(s.id) : s.active),
  );
  const send = (confirm: boolean) => {
    form.transform((d) => ({ service_ids: d.service_ids, confirm }));
    form.put(route("places.services.update", { kind: place.kind, place: place.id }), {
      preserveScroll: true,
      onSuccess: (page) => {
        const pending = (page.flash as Record<string, unknown> | undefined)?.serviceRemoval as
          RemovalConfirmation | undefined;
        if (!confirm && pending && pending.kind === place.kind && pending.id === place.id) setConfirmation(pending);
        else onClose();
      },
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(false);
  };
  const toggle = (id: number, on: boolean) =>
    form.setData("service_ids", on ? [...form.data.service_ids, id] : form.data.service_ids.filter((s) => s !== id));
  const errors = form.errors as Record<string, string | undefined>;
  const title = t("services.services_of", { place: place.name });

  if (confirmation) {
    return (
      <ConfirmDialog
        open
        title={t("services.confirm_title")}
        description={t("services.confirm_text", {
          services: confirmation.removed.join(", "),
          place: confirmation.name,
        })}
        confirmLabel={t("services.confirm_button")}
        cancelLabel={t("services.cancel")}
        busy={form.processing}
        onConfirm={() => send(true)}
        // Cancelling goes back to the choice, as it was.
        onCancel={() => setConfirmation(null)}
      >
        <div className="space-y-3" data-testid="removal-confirmation">
          <ScrollRegion aria-label={t("services.confirm_title")} className="max-h-64">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              {confirmation.affected.map((a) => (
                <li key={`${a.kind}-${a.id}`}>
                  <span className="font-medium">{t(`services.kind.${a.kind}`)}</span> {a.path}:{" "}
                  <span className="font-mono">{a.services.join(", ")}</span>
                </li>
              ))}
            </ul>
          </ScrollRegion>
          <OtherErrors errors={errors} fields={[]} />
        </div>
      </ConfirmDialog>
    );
  }

  return (
    <Popover anchor={anchor} title={title} closeLabel={t("services.close")} onClose={onClose}>
      <form onSubmit={submit} className="space-y-3" noValidate>
        <p className="text-sm text-muted-foreground">
          {place.parent ? t("services.parent_offers", { parent: place.parent.name }) : t("services.all_services_hint")}
        </p>
        {choices.length === 0 && place.parent && (
          <p className="text-sm">{t("services.no_parent_services", { parent: place.parent.name })}</p>
        )}
        <fieldset>
          <legend className="sr-only">{title}</legend>
          <div className="max-h-72 space-y-1 overflow-y-auto">
            {choices.map((s) => {
              const error = errors[`service_ids.${s.id}`];
              return (
                <div key={s.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={form.data.service_ids.includes(s.id)}
                      onChange={(e) => toggle(s.id, e.target.checked)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${errorId}-${s.id}` : undefined}
                    />
                    <span className="font-mono">{s.code}</span> {s.name}
                    <span className="text-xs text-muted-foreground">· {t(`services.types.${s.type}`)}</span>
                    {!s.active && <span className="text-xs text-muted-foreground">({t("services.inactive")})</span>}
                  </label>
                  {error && (
                    <p id={`${errorId}-${s.id}`} className="pl-6 text-sm text-destructive">
                      {error}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
        </fieldset>
        <OtherErrors errors={errors} fields={choices.map((s) => `service_ids.${s.id}`)} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("services.cancel")}
          submitLabel={t("services.save")}
          busy={form.processing}
        />
      </form>
    </Popover>
  );
}
