/**
 * Registers a diner from the point of sale (diners.manage), prefilled with the document that was not found; once
 * saved, the page sells to them at once. Sent as JSON (diners.store answers the diner), so the page keeps its
 * state and the sale follows without a reload. A name never holds digits: digits that arrive in it (a scan typed into
 * the wrong field) are refused at once, with a message, and the dialog sends nothing until the name is a name.
 */
import { useState, type FormEvent } from "react";
import { documentRule } from "../../../../src/shared/documents";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import { fieldErrors, requestJson } from "../../lib/json-client";
import type { CafeChoice, DinerView, DocumentType, LevelOption, SubdealershipOption } from "./types";

const FIELDS = ["name", "document_type", "document_number", "phone", "subdealership_id", "cafe_id", "level_id"];

/** Digits in a name: a scanner's document typed into the name field. */
const HAS_DIGITS = /\d/;

export function NewDinerDialog({
  document,
  name = "",
  cafeId,
  cafes,
  subdealerships,
  levels,
  documentTypes,
  dniLength,
  onCreated,
  onClose,
}: {
  document: string;
  name?: string;
  cafeId: number;
  cafes: CafeChoice[];
  subdealerships: SubdealershipOption[];
  levels: LevelOption[];
  documentTypes: DocumentType[];
  dniLength: number;
  onCreated: (diner: DinerView) => void;
  onClose: () => void;
}) {
  const { t, levelName } = useI18n();
  const route = useRoute();
  const [data, setData] = useState({
    name,
    document_type: (/^\d+$/.test(document) || document === "" ? "dni" : "ce") as DocumentType,
    document_number: document,
    phone: "",
    subdealership_id: "",
    cafe_id: String(cafeId),
    level_id: "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof data) => (value: string) => setData((d) => ({ ...d, [field]: value }));
  const setName = (value: string) => {
    set("name")(value);
    setErrors((e) => {
      const rest = Object.fromEntries(Object.entries(e).filter(([field]) => field !== "name"));
      return HAS_DIGITS.test(value) ? { ...rest, name: t("dinners.new_diner.name_digits") } : rest;
    });
  };
  const rule = documentRule(data.document_type, { dniLength });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (HAS_DIGITS.test(data.name)) {
      setErrors((e) => ({ ...e, name: t("dinners.new_diner.name_digits") }));
      return;
    }
    setBusy(true);
    try {
      const { status, body } = await requestJson<DinerView>("POST", route("diners.store"), {
        name: data.name,
        document_type: data.document_type,
        document_number: data.document_number,
        phone: data.phone,
        subdealership_id: data.subdealership_id === "" ? null : Number(data.subdealership_id),
        cafe_id: Number(data.cafe_id),
        level_id: data.level_id === "" ? null : Number(data.level_id),
      });
      if (status === 201 && body) return onCreated(body);
      if (status === 422) setErrors(fieldErrors(body));
      else
        setErrors({
          form: (body as { message?: string } | null)?.message ?? t("dinners.request_failed", { status }),
        });
    } catch {
      setErrors({ form: t("dinners.offline") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} title={t("dinners.new_diner.title")} closeLabel={t("dinners.close")} wide>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("dinners.new_diner.name")}
          value={data.name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          autoComplete="off"
          required
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t("dinners.new_diner.document_type")}
            value={data.document_type}
            onValueChange={set("document_type")}
            error={errors.document_type}
            options={documentTypes.map((type) => ({ value: type, label: t(`documents.${type}`) }))}
          />
          <Field
            label={t("dinners.new_diner.document")}
            value={data.document_number}
            onChange={(e) => set("document_number")(e.target.value)}
            error={errors.document_number}
            hint={t(rule.key, rule.params)}
            inputMode={data.document_type === "dni" ? "numeric" : "text"}
            autoComplete="off"
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t("dinners.new_diner.subdealership")}
            value={data.subdealership_id}
            onValueChange={set("subdealership_id")}
            error={errors.subdealership_id}
            searchable
            placeholder={t("dinners.new_diner.choose")}
            options={subdealerships.map((s) => ({ value: String(s.id), label: `${s.name} (${s.dealership})` }))}
          />
          <Field
            label={t("dinners.new_diner.phone")}
            value={data.phone}
            onChange={(e) => set("phone")(e.target.value)}
            error={errors.phone}
            inputMode="tel"
            autoComplete="off"
          />
          <SelectField
            label={t("dinners.new_diner.cafe")}
            value={data.cafe_id}
            onValueChange={set("cafe_id")}
            error={errors.cafe_id}
            searchable={cafes.length > 8}
            options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
          />
          <SelectField
            label={t("dinners.new_diner.level")}
            value={data.level_id}
            onValueChange={set("level_id")}
            error={errors.level_id}
            options={[
              { value: "", label: t("dinners.new_diner.no_level") },
              ...levels.map((l) => ({ value: String(l.id), label: levelName(l.name) })),
            ]}
          />
        </div>
        <OtherErrors errors={errors} fields={FIELDS} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("dinners.cancel")}
          submitLabel={t("dinners.new_diner.save_and_sell")}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
