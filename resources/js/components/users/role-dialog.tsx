/** Create or edit a role: name, description, and its permissions grouped by product area. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { OtherErrors } from "../ui/form-errors";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Building2 } from "lucide-react";
import { isBuiltInRoleName } from "../../../../src/shared/access/built-in-roles";
import { isCompanyWide } from "../../../../src/shared/access/permissions";
import { byArea, type PermissionRow, type RoleRow } from "./types";

export function RoleDialog({
  role,
  permissions,
  open,
  onClose,
}: {
  role: RoleRow | null;
  permissions: PermissionRow[];
  open: boolean;
  onClose: () => void;
}) {
  const { t, roleName, permissionName, permissionArea } = useI18n();
  const route = useRoute();
  const form = useForm({
    name: role?.name ?? "",
    description: role?.description ?? "",
    permissions: role?.permissions ?? [],
  });
  const toggle = (name: string, on: boolean) =>
    form.setData(
      "permissions",
      on ? [...form.data.permissions, name] : form.data.permissions.filter((p) => p !== name),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, onSuccess: () => onClose() };
    if (role) form.put(route("roles.update", { role: role.id }), options);
    else form.post(route("roles.store"), options);
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t(role ? "access.roles.edit_title" : "access.roles.new_title")}
      closeLabel={t("access.users.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("access.roles.name")}
          name="name"
          required
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={form.errors.name}
          hint={
            role && isBuiltInRoleName(role.name) && form.data.name === role.name
              ? t("access.roles.built_in_label", { label: roleName(role.name) })
              : undefined
          }
        />
        <Field
          label={t("access.roles.description_label")}
          name="description"
          value={form.data.description}
          onChange={(e) => form.setData("description", e.target.value)}
          error={form.errors.description}
        />
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium">{t("access.roles.permissions")}</legend>
          <p id="company-wide-note" className="text-sm text-muted-foreground">
            <Building2 className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
            {t("access.roles.company_wide_note")}
          </p>
          {form.errors.permissions && <p className="text-sm text-destructive">{form.errors.permissions}</p>}
          <div className="grid gap-3 sm:grid-cols-2">
            {byArea(permissions, permissionArea).map(([area, list]) => (
              <div key={area} className="rounded-lg border p-3">
                <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                  {permissionArea(area)}
                </p>
                {list.map((p) => (
                  <label key={p.name} className="flex items-center gap-2 py-0.5 text-sm" title={p.name}>
                    <input
                      type="checkbox"
                      checked={form.data.permissions.includes(p.name)}
                      onChange={(e) => toggle(p.name, e.target.checked)}
                    />
                    {permissionName(p.name)}
                    {isCompanyWide(p.name) && (
                      <span
                        className="inline-flex items-center gap-0.5 text-xs text-muted-foreground"
                        aria-describedby="company-wide-note"
                      >
                        <Building2 className="size-3" aria-hidden="true" />
                        {t("access.roles.company_wide")}
                      </span>
                    )}
                  </label>
                ))}
              </div>
            ))}
          </div>
        </fieldset>
        <OtherErrors errors={form.errors as Record<string, string>} fields={["name", "description", "permissions"]} />
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
