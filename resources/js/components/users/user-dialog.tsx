/**
 * Create or edit a user. A new user gets a role in an area (place → area → role) and either an invitation by
 * e-mail or a first password set here. The optional document has a type (DNI by default) whose rule shows under
 * the number.
 */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import {
  DEFAULT_DOCUMENT_TYPE,
  DOCUMENT_TYPES,
  documentRule,
  type DocumentType,
} from "../../../../src/shared/documents";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { OtherErrors } from "../ui/form-errors";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";
import type { AdminUser, AreaRow } from "./types";

export function UserDialog({
  user,
  areas,
  dniLength,
  open,
  onClose,
}: {
  user: AdminUser | null;
  areas: AreaRow[];
  dniLength: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t, roleName } = useI18n();
  const route = useRoute();
  const form = useForm({
    name: user?.name ?? "",
    email: user?.email ?? "",
    document_type: user?.documentType ?? DEFAULT_DOCUMENT_TYPE,
    document_number: user?.documentNumber ?? "",
    language: user?.language ?? "",
    area_id: "",
    role_id: "",
    access: "invite" as "invite" | "password",
    password: "",
  });
  const area = areas.find((a) => String(a.id) === form.data.area_id);
  const rule = documentRule(form.data.document_type, { dniLength });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    form.transform((data) => ({
      ...data,
      language: data.language || null,
      // No number, no document.
      document_type: data.document_number ? data.document_type : null,
      document_number: data.document_number || null,
      area_id: data.area_id ? Number(data.area_id) : null,
      role_id: data.role_id ? Number(data.role_id) : null,
    }));
    if (user) form.put(route("users.update", { user: user.id }), options);
    else form.post(route("users.store"), options);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t(user ? "access.users.edit_title" : "access.users.new_title")}
      closeLabel={t("access.users.close")}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Field
          label={t("access.users.name")}
          name="name"
          required
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
        />
        <Field
          label={t("access.users.email")}
          name="email"
          type="email"
          required
          value={form.data.email}
          onChange={(e) => form.setData("email", e.target.value)}
          error={form.errors.email}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t("access.users.document_type")}
            name="document_type"
            value={form.data.document_type}
            onChange={(e) => form.setData("document_type", e.target.value as DocumentType)}
            error={form.errors.document_type}
          >
            {DOCUMENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`documents.${type}`)}
              </option>
            ))}
          </SelectField>
          <Field
            label={t("access.users.document")}
            name="document_number"
            value={form.data.document_number}
            onChange={(e) => form.setData("document_number", e.target.value)}
            error={form.errors.document_number}
            hint={t(rule.key, rule.params)}
          />
          <SelectField
            label={t("access.users.language")}
            name="language"
            value={form.data.language}
            onChange={(e) => form.setData("language", e.target.value as "" | "es" | "en")}
            error={form.errors.language}
          >
            <option value="">{t("access.users.default_language")}</option>
            <option value="es">{t("locale.es")}</option>
            <option value="en">{t("locale.en")}</option>
          </SelectField>
        </div>
        {!user && (
          <>
            <SelectField
              label={t("access.users.area")}
              name="area_id"
              value={form.data.area_id}
              onChange={(e) => form.setData((d) => ({ ...d, area_id: e.target.value, role_id: "" }))}
              error={form.errors.area_id}
            >
              <option value="">{t("access.users.choose")}</option>
              {areas.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} — {a.place.path}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t("access.users.role")}
              name="role_id"
              value={form.data.role_id}
              onChange={(e) => form.setData("role_id", e.target.value)}
              error={form.errors.role_id}
              disabled={!area}
            >
              <option value="">{t("access.users.choose")}</option>
              {area?.roles.map((r) => (
                <option key={r.id} value={r.id}>
                  {roleName(r.name)}
                </option>
              ))}
            </SelectField>
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium">{t("access.users.access_mode")}</legend>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="access"
                  checked={form.data.access === "invite"}
                  onChange={() => form.setData("access", "invite")}
                />
                {t("access.users.invite")}
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="access"
                  checked={form.data.access === "password"}
                  onChange={() => form.setData("access", "password")}
                />
                {t("access.users.set_password")}
              </label>
            </fieldset>
            {form.data.access === "password" && (
              <Field
                label={t("access.users.password")}
                name="password"
                type="password"
                autoComplete="new-password"
                value={form.data.password}
                onChange={(e) => form.setData("password", e.target.value)}
                error={form.errors.password}
              />
            )}
          </>
        )}
        <OtherErrors
          errors={form.errors as Record<string, string>}
          fields={[
            "name",
            "email",
            "document_type",
            "document_number",
            "language",
            "area_id",
            "role_id",
            "password",
            "access",
          ]}
        />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("access.users.cancel")}
          submitLabel={t("access.users.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
