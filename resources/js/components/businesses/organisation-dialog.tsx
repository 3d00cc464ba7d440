/**
 * The dialog of a business, a headquarters or a property of the Businesses area: titled "new" or "edit" after the
 * record, saved to its store (a new one) or its update (an edited one), with the area's buttons.
 */
import type { InertiaFormProps } from "@inertiajs/react";
import type { ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { FormDialog, type FormDialogSend } from "../form-dialog";

export type OrganisationKind = "businesses" | "headquarters" | "properties";

export function OrganisationDialog<T extends Record<string, unknown>>({
  kind,
  record,
  wide,
  form,
  fields,
  transform,
  onClose,
  children,
}: {
  kind: OrganisationKind;
  /** The record edited, or null for a new one. */
  record: { id: number } | null;
  wide?: boolean;
  form: InertiaFormProps<T>;
  fields: string[];
  transform?: (data: T) => object;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const id = record?.id ?? null;
  const send: FormDialogSend =
    id === null
      ? { method: "post", url: route(`${kind}.store`) }
      : {
          method: "put",
          url:
            kind === "businesses"
              ? route("businesses.update", { business: id })
              : kind === "headquarters"
                ? route("headquarters.update", { headquarters: id })
                : route("properties.update", { property: id }),
        };
  return (
    <FormDialog
      title={t(record ? `${kind}.edit_title` : `${kind}.new_title`)}
      words="businesses"
      wide={wide}
      form={form}
      fields={fields}
      send={send}
      transform={transform}
      onClose={onClose}
    >
      {children}
    </FormDialog>
  );
}
