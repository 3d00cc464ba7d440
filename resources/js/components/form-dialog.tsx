/**
 * A dialog that holds one form sent with the page protocol's form helper (`useForm`): the form's fields, then the
 * errors that belong to none of them, then Cancel and the submit button (disabled while the form is sending). The
 * browser's own checks are off (`noValidate`): the fields show Mesa's messages, and the server's.
 */
import type { InertiaFormProps } from "@inertiajs/react";
import type { ChangeEvent, FormEvent, ReactNode } from "react";
import { useI18n } from "../hooks/use-i18n";
import { Dialog, DialogActions } from "./ui/dialog";
import { OtherErrors } from "./ui/form-errors";

/** The areas whose words the dialog's buttons use: `<area>.close`, `<area>.cancel` and `<area>.save`. */
export type FormDialogWords = "businesses" | "food" | "foodCatalogue" | "management" | "access.users";

/** Where the form is sent: a new record is posted, an edited one put (or patched). */
export interface FormDialogSend {
  method: "post" | "put" | "patch";
  url: string;
  /** Keeps the page's local state (its open tabs and filters) when the page comes back. */
  preserveState?: boolean;
}

export function FormDialog<T extends Record<string, unknown>>({
  open = true,
  title,
  description,
  words,
  wide,
  roomy = false,
  form,
  fields,
  send,
  transform,
  onSaved,
  onClose,
  children,
}: {
  /** A dialog kept mounted while closed (its form keeps what was typed) passes whether it is open. */
  open?: boolean;
  title: string;
  description?: ReactNode;
  words: FormDialogWords;
  wide?: boolean;
  /** More space between the fields (the food catalogue's short forms). */
  roomy?: boolean;
  form: InertiaFormProps<T>;
  /** The fields that show their own error; the form's other errors are shown together above the buttons. */
  fields: string[];
  /** Sent on submit, the page's scroll kept; the dialog closes once it is saved. */
  send: FormDialogSend;
  /** What is sent instead of the form's values as they are (a choice turned into an id, say). */
  transform?: (data: T) => object;
  /** What happens once the form is saved, before the dialog closes (its form emptied, say). */
  onSaved?: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (transform) form.transform(transform);
    form.submit(send.method, send.url, {
      preserveScroll: true,
      ...(send.preserveState ? { preserveState: true } : {}),
      onSuccess: () => {
        onSaved?.();
        onClose();
      },
    });
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      closeLabel={t(`${words}.close`)}
      wide={wide}
    >
      <form onSubmit={submit} className={roomy ? "space-y-4" : "space-y-3"} noValidate>
        {children}
        <OtherErrors errors={form.errors as Record<string, string>} fields={fields} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t(`${words}.cancel`)}
          submitLabel={t(`${words}.save`)}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}

type TextControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * What binds a text field to one of a form's values: its name, its value, its changes (through `clean`, when the
 * field keeps only some characters) and its error.
 */
export function textField<T extends Record<string, unknown>>(
  form: InertiaFormProps<T>,
  name: keyof T & string,
  clean: (value: string) => string = (value) => value,
) {
  // setData's key type is the form's own; here the key is one of T's text values.
  const setText = form.setData as unknown as (key: string, value: string) => void;
  return {
    name,
    value: form.data[name] as string,
    onChange: (event: ChangeEvent<TextControl>) => setText(name, clean(event.target.value)),
    error: (form.errors as Record<string, string | undefined>)[name],
  };
}
