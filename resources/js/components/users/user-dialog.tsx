/**
 * Create or edit a user. A new user gets a role in an area (place → area → role) and either an invitation by
 * e-mail or a first password set here. The optional document has a type (DNI by default) whose rule shows under
 * the number.
 */
import { useForm } from "@inertiajs/react";
import { DEFAULT_DOCUMENT_TYPE } from "../../../../src/shared/documents";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { FormDialog, textField } from "../form-dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";
import { DocumentFields } from "./document-fields";
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

  return (
    <FormDialog
      open={open}
      title={t(user ? "access.users.edit_title" : "access.users.new_title")}
      words="access.users"
      form={form}
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
      send={
        user
          ? { method: "put", url: route("users.update", { user: user.id }) }
          : { method: "post", url: route("users.store") }
      }
      transform={(data) => ({
        ...data,
        language: data.language || null,
        // No number, no document.
        document_type: data.document_number ? data.document_type : null,
        document_number: data.document_number || null,
        area_id: data.area_id ? Number(data.area_id) : null,
        role_id: data.role_id ? Number(data.role_id) : null,
      })}
      onClose={onClose}
    >
      <Field label={t("access.users.name")} required {...textField(form, "name")} />
      <Field label={t("access.users.email")} type="email" required {...textField(form, "email")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <DocumentFields
          form={form}
          dniLength={dniLength}
          labels={{ type: t("access.users.document_type"), number: t("access.users.document") }}
        />
        <SelectField label={t("access.users.language")} {...textField(form, "language")}>
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
          <SelectField label={t("access.users.role")} {...textField(form, "role_id")} disabled={!area}>
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
              type="password"
              autoComplete="new-password"
              {...textField(form, "password")}
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
