/**
 * An identity document's two fields, its type (DNI by default) and its number, with the number's rule for the chosen
 * type under it: the user dialog and the blacklist's form share them.
 */
import type { InertiaFormProps } from "@inertiajs/react";
import { DOCUMENT_TYPES, documentRule, type DocumentType } from "../../../../src/shared/documents";
import { useI18n } from "../../hooks/use-i18n";
import { textField } from "../form-dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";

export type DocumentData = { document_type: DocumentType; document_number: string };

export function DocumentFields<T extends DocumentData>({
  form,
  dniLength,
  labels,
  numberRequired = false,
}: {
  form: InertiaFormProps<T>;
  dniLength: number;
  labels: { type: string; number: string };
  numberRequired?: boolean;
}) {
  const { t } = useI18n();
  const rule = documentRule(form.data.document_type, { dniLength });
  return (
    <>
      <SelectField label={labels.type} {...textField(form, "document_type")}>
        {DOCUMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`documents.${type}`)}
          </option>
        ))}
      </SelectField>
      <Field
        label={labels.number}
        required={numberRequired}
        {...textField(form, "document_number")}
        hint={t(rule.key, rule.params)}
      />
    </>
  );
}
