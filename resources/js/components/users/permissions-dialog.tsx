/** "View permissions": what a user may do, loaded on demand (a partial reload of the `inspected` prop). */
import { useI18n } from "../../hooks/use-i18n";
import { Dialog } from "../ui/dialog";
import type { AdminUser } from "./types";

export interface Inspected {
  user: AdminUser;
  isSuper: boolean;
  permissions: string[];
  roles: string[];
}

export function PermissionsDialog({ inspected, onClose }: { inspected: Inspected; onClose: () => void }) {
  const { t, roleName, permissionName } = useI18n();
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("access.users.permissions_title", { name: inspected.user.name })}
      closeLabel={t("access.users.close")}
    >
      <div className="space-y-3 text-sm" data-testid="inspected-permissions">
        <p>
          {t("access.users.roles")}:{" "}
          {inspected.roles.length ? inspected.roles.map(roleName).join(", ") : t("access.users.none")}
        </p>
        {inspected.isSuper ? (
          <p className="font-medium">{t("access.users.super_everything")}</p>
        ) : inspected.permissions.length === 0 ? (
          <p className="text-muted-foreground">{t("access.users.no_permissions")}</p>
        ) : (
          <>
            <p className="text-muted-foreground" data-testid="permission-count">
              {t("app.counts.permissions", { count: inspected.permissions.length })}
            </p>
            <ul className="grid gap-1 sm:grid-cols-2">
              {inspected.permissions.map((p) => (
                <li key={p} title={p}>
                  {permissionName(p)}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Dialog>
  );
}
