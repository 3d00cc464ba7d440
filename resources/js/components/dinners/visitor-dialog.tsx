/**
 * A cash sale to a visitor: someone who is not a registered diner gives a name and a document. The page sends the
 * sale with `visitor_name`; the server refuses a barred document. As in New diner, the name refuses digits (a scan
 * typed into it), and nothing is sent while they are there.
 */
import { useState, type FormEvent } from "react";
import { documentRule } from "../../../../src/shared/documents";
import { useI18n } from "../../hooks/use-i18n";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import type { DocumentType } from "./types";

export interface Visitor {
  name: string;
  documentType: DocumentType;
  documentNumber: string;
}

const FIELDS = ["visitor_name", "document_type", "document_number"];

export function VisitorDialog({
  document,
  documentTypes,
  dniLength,
  errors,
  busy,
  onSell,
  onClose,
}: {
  document: string;
  documentTypes: DocumentType[];
  dniLength: number;
  /** The server's answer to the last attempt, by field. */
  errors: Record<string, string>;
  busy: boolean;
  onSell: (visitor: Visitor) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [visitor, setVisitor] = useState<Visitor>({
    name: "",
    documentType: /^\d*$/.test(document) ? "dni" : "ce",
    documentNumber: document,
  });
  const rule = documentRule(visitor.documentType, { dniLength });
  const nameError = /\d/.test(visitor.name) ? t("dinners.new_diner.name_digits") : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && !nameError) onSell(visitor);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("dinners.visitor.title")}
      description={t("dinners.visitor.description")}
      closeLabel={t("dinners.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("dinners.visitor.name")}
          value={visitor.name}
          onChange={(e) => setVisitor((v) => ({ ...v, name: e.target.value }))}
          error={nameError ?? errors.visitor_name}
          autoComplete="off"
          required
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t("dinners.new_diner.document_type")}
            value={visitor.documentType}
            onValueChange={(value) => setVisitor((v) => ({ ...v, documentType: value as DocumentType }))}
            error={errors.document_type}
            options={documentTypes.map((type) => ({ value: type, label: t(`documents.${type}`) }))}
          />
          <Field
            label={t("dinners.new_diner.document")}
            value={visitor.documentNumber}
            onChange={(e) => setVisitor((v) => ({ ...v, documentNumber: e.target.value }))}
            error={errors.document_number}
            hint={t(rule.key, rule.params)}
            autoComplete="off"
          />
        </div>
        <OtherErrors errors={errors} fields={FIELDS} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("dinners.cancel")}
          submitLabel={t("dinners.visitor.sell")}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
