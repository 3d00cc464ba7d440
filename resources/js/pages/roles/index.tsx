/** Roles: the role × permission matrix, with the role and permission modals for those who may change them. */
import { Head } from "@inertiajs/react";
import { Check, Pencil, Plus } from "lucide-react";
import { Fragment, useState } from "react";
import { SearchBox } from "../../components/data-table";
import { NavIcon } from "../../components/nav-icon";
import { Button } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { PermissionDialog } from "../../components/users/permission-dialog";
import { RoleDialog } from "../../components/users/role-dialog";
import { byArea, type Abilities, type PermissionRow, type RoleRow } from "../../components/users/types";
import { useI18n } from "../../hooks/use-i18n";

export default function RolesIndex({
  filters,
  roles,
  permissions,
  can,
}: {
  filters: { search: string };
  roles: RoleRow[];
  permissions: PermissionRow[];
  can: Abilities;
}) {
  const { t, roleName, permissionName, permissionArea } = useI18n();
  const [role, setRole] = useState<RoleRow | null | undefined>(undefined);
  const [permission, setPermission] = useState<PermissionRow | null>(null);
  return (
    <div className="space-y-6">
      <Head title={t("access.roles.title")} />
      <PageHeader
        title={t("access.roles.title")}
        description={t("access.roles.description")}
        actions={
          can.manageRoles && (
            <Button onClick={() => setRole(null)}>
              <Plus className="size-4" aria-hidden="true" />
              {t("access.roles.new")}
            </Button>
          )
        }
      />
      <SearchBox value={filters.search} label={t("access.roles.search")} />
      <div className="relative overflow-x-auto rounded-xl border bg-card">
        <table className="w-full text-sm">
          <caption className="sr-only">{t("access.roles.matrix")}</caption>
          <thead>
            <tr>
              <th
                scope="col"
                className="sticky left-0 border-b bg-card px-3 py-2 text-left font-medium text-muted-foreground"
              >
                {t("access.roles.permissions")}
              </th>
              {roles.map((r) => (
                <th key={r.id} scope="col" className="border-b px-2 py-2 text-center font-medium">
                  {can.manageRoles && !r.isSuper ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 hover:underline"
                      onClick={() => setRole(r)}
                      aria-label={`${t("access.users.edit")} ${roleName(r.name)}`}
                    >
                      {roleName(r.name)}
                      <Pencil className="size-3" aria-hidden="true" />
                    </button>
                  ) : (
                    roleName(r.name)
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {byArea(permissions, permissionArea).map(([area, list]) => (
              <Fragment key={area}>
                <tr>
                  <th
                    colSpan={roles.length + 1}
                    scope="colgroup"
                    className="bg-muted px-3 py-1 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground"
                  >
                    {permissionArea(area)}
                  </th>
                </tr>
                {list.map((p) => (
                  <tr key={p.name}>
                    <th
                      scope="row"
                      className="sticky left-0 min-w-56 border-b bg-card px-3 py-1.5 text-left font-normal"
                      title={p.name}
                    >
                      <span className="inline-flex items-center gap-2">
                        {p.icon && <NavIcon name={p.icon} className="size-4 text-muted-foreground" />}
                        {permissionName(p.name)}
                        {can.manageRoles && (
                          <button
                            type="button"
                            className="rounded p-0.5 hover:bg-accent"
                            onClick={() => setPermission(p)}
                            aria-label={`${t("access.roles.edit_entry")}: ${permissionName(p.name)}`}
                          >
                            <Pencil className="size-3" aria-hidden="true" />
                          </button>
                        )}
                      </span>
                    </th>
                    {roles.map((r) => {
                      const has = r.isSuper || r.permissions.includes(p.name);
                      return (
                        <td key={r.id} className="border-b px-2 py-1.5 text-center">
                          {has ? (
                            <Check
                              className="mx-auto size-4 text-success"
                              aria-label={`${roleName(r.name)}: ${permissionName(p.name)}`}
                            />
                          ) : (
                            <span className="sr-only">—</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {role !== undefined && (
        <RoleDialog role={role} permissions={permissions} open onClose={() => setRole(undefined)} />
      )}
      {permission && <PermissionDialog permission={permission} onClose={() => setPermission(null)} />}
    </div>
  );
}
