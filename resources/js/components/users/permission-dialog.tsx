/** Edit a permission's sidebar entry: label, icon and order. */
import { useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { ICONS, NavIcon } from "../nav-icon";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { SelectField } from "../ui/select-field";
import type { PermissionRow } from "./types";

export function PermissionDialog({ permission, onClose }: { permission: PermissionRow; onClose: () => void }) {
  const { t, permissionName, permissionArea } = useI18n();
  const route = useRoute();
  const form = useForm({
    sidebar_label: permission.sidebarLabel ?? "",
    icon: permission.icon ?? "",
    sort_order: permission.sortOrder,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.put(route("permissions.update", { permission: permission.id }), {
      preserveScroll: true,
      onSuccess: () => onClose(),
    });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("access.permissions.title", { name: permissionName(permission.name) })}
      closeLabel={t("access.users.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <p className="text-sm text-muted-foreground">
          {t("access.permissions.area")}: {permissionArea(permission.area)}
          {permission.routeName && (
            <>
              {" · "}
              {t("access.permissions.page")}: <code>{permission.routeName}</code>
            </>
          )}
        </p>
        <Field
          label={t("access.permissions.label")}
          name="sidebar_label"
          value={form.data.sidebar_label}
          onChange={(e) => form.setData("sidebar_label", e.target.value)}
          error={form.errors.sidebar_label}
          hint={t("access.permissions.label_hint")}
        />
        <SelectField
          label={t("access.permissions.icon")}
          name="icon"
          value={form.data.icon}
          onChange={(e) => form.setData("icon", e.target.value)}
          error={form.errors.icon}
        >
          <option value="">—</option>
          {Object.keys(ICONS).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        {form.data.icon && <NavIcon name={form.data.icon} className="size-5" />}
        <Field
          label={t("access.permissions.order")}
          name="sort_order"
          type="number"
          min={0}
          max={10000}
          value={String(form.data.sort_order)}
          onChange={(e) => form.setData("sort_order", Number(e.target.value))}
          error={form.errors.sort_order}
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
