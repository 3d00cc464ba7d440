/** Change the role a user holds in an area, give them a role in another area, or take one away. */
import { router, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { OtherErrors } from "../ui/form-errors";
import { Dialog, DialogActions } from "../ui/dialog";
import { SelectField } from "../ui/select-field";
import type { AdminUser, AreaRow } from "./types";

export function SelectRoleDialog({ user, areas, onClose }: { user: AdminUser; areas: AreaRow[]; onClose: () => void }) {
  const { t, roleName } = useI18n();
  const route = useRoute();
  const first = user.assignments[0];
  const form = useForm({ area_id: first ? String(first.areaId) : "", role_id: first ? String(first.roleId) : "" });
  const area = areas.find((a) => String(a.id) === form.data.area_id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((d) => ({ area_id: Number(d.area_id), role_id: Number(d.role_id) }));
    form.put(route("users.roles.update", { user: user.id }), { preserveScroll: true, onSuccess: () => onClose() });
  };
  const remove = (areaId: number) =>
    router.delete(route("users.roles.destroy", { user: user.id, area: areaId }), {
      preserveScroll: true,
      onSuccess: () => onClose(),
    });
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("access.users.select_role_title", { name: user.name })}
      closeLabel={t("access.users.close")}
    >
      {user.assignments.length > 0 && (
        <ul className="space-y-1 text-sm">
          {user.assignments.map((a) => (
            <li key={a.areaId} className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5">
              <span>
                {a.areaName}: <strong>{roleName(a.roleName)}</strong>
              </span>
              <button
                type="button"
                className="text-destructive underline-offset-4 hover:underline"
                onClick={() => remove(a.areaId)}
              >
                {t("access.users.remove_role")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="space-y-3" noValidate>
        <SelectField
          label={t("access.users.area")}
          value={form.data.area_id}
          onChange={(e) => form.setData({ area_id: e.target.value, role_id: "" })}
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
        <OtherErrors errors={form.errors as Record<string, string>} fields={["area_id", "role_id"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("access.users.cancel")}
          submitLabel={t("access.users.save")}
          busy={form.processing || !form.data.role_id}
        />
      </form>
    </Dialog>
  );
}
