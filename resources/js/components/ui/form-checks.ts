/**
 * No browser bubble ("Please fill out this field.") on any form: a control the browser finds invalid is told so in
 * Mesa's own words, in the page's language. A control inside a labelled field (FieldFrame: Field, SelectField,
 * TextareaField…) shows the message under itself, like the server's; any other form is sent without the browser's
 * check, and the server answers with its messages, in the page's language too. Installed once by app.tsx.
 */
import { translate, type Locale } from "../../../../src/shared/i18n";

/** The attribute FieldFrame puts on its frame: the controls inside it show their own messages. */
const FIELD_FRAME_ATTRIBUTE = "data-field-frame";

type Checked = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Why the browser refuses `control`, in Mesa's words ("Este campo es obligatorio."), or null when it is valid. */
export function validityMessage(control: Checked, locale: Locale): string | null {
  const v = control.validity;
  if (v.valid) return null;
  const t = translate;
  const attribute = (name: string) => Number(control.getAttribute(name));
  if (v.valueMissing)
    return control instanceof HTMLSelectElement
      ? t(locale, "validation.invalid_choice")
      : t(locale, "validation.required");
  if (v.typeMismatch) return control.type === "email" ? t(locale, "validation.email") : t(locale, "validation.invalid");
  if (v.badInput) return t(locale, "validation.number");
  if (v.tooShort) return t(locale, "validation.min_length", { min: attribute("minlength") });
  if (v.tooLong) return t(locale, "validation.max_length", { max: attribute("maxlength") });
  if (v.rangeUnderflow) return t(locale, "validation.at_least", { min: attribute("min") });
  if (v.rangeOverflow) return t(locale, "validation.at_most", { max: attribute("max") });
  if (v.stepMismatch && control.getAttribute("step") === "1") return t(locale, "validation.whole_number");
  return t(locale, "validation.invalid");
}

const resent = new WeakSet<HTMLFormElement>();

/**
 * Cancels the browser's bubble for every invalid control of the page (`invalid` is caught on its way down, before
 * any field hears it). A control outside a labelled field leaves its form to the server: the form is sent once more
 * without the browser's check, so the server's messages answer.
 */
export function installFormChecks(): void {
  document.addEventListener(
    "invalid",
    (event) => {
      event.preventDefault();
      const control = event.target as Checked;
      if (!(control instanceof Element) || control.closest(`[${FIELD_FRAME_ATTRIBUTE}]`)) return;
      const form = control.form;
      if (!form || resent.has(form)) return;
      resent.add(form);
      // After every invalid event of this attempt: send it unchecked, then let a later attempt be checked again.
      setTimeout(() => {
        form.noValidate = true;
        try {
          form.requestSubmit();
        } finally {
          form.noValidate = false;
          resent.delete(form);
        }
      });
    },
    true,
  );
}
