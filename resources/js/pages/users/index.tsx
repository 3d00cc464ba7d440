/**
 * Users: browse places → areas → people; create and edit users, change their roles, view their permissions,
 * deactivate them; manage areas and roles.
 */
import { Head, Link, router, usePage } from "@inertiajs/react";
import { Eye, KeyRound, Lock, Pencil, Plus, Power, Trash2 } from "lucide-react";
import { useState } from "react";
import { Pagination, SearchBox, Table, td, visitWith, type Page } from "../../components/data-table";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { Select } from "../../components/ui/select";
import { TabList } from "../../components/ui/tabs";
import { OtherErrors } from "../../components/ui/form-errors";
import { AreaDialog } from "../../components/users/area-dialog";
import { PermissionsDialog, type Inspected } from "../../components/users/permissions-dialog";
import { RoleDialog } from "../../components/users/role-dialog";
import { SelectRoleDialog } from "../../components/users/select-role-dialog";
import { PlacesNav } from "../../components/users/places-nav";
import type { Abilities, AdminUser, AreaRow, PermissionRow, PlaceTree, RoleRow } from "../../components/users/types";
import { foldedPage, ListSkeleton } from "../../components/list-skeleton";
import { DocumentLabel } from "../../components/users/document-label";
import { EmailLookalikeFlag } from "../../components/users/email-lookalike";
import { UserDialog } from "../../components/users/user-dialog";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  filters: {
    search: string;
    cafe: number | null;
    headquarters: number | null;
    area: number | null;
    status: string | null;
    areasSearch: string;
    rolesSearch: string;
  };
  places: PlaceTree;
  /** Every area of the chosen place (the area filter's and the dialogs' choices): deferred on a full load. */
  areaOptions?: AreaRow[];
  /** Below the fold (the areas and roles tabs, the role dialog's permissions): undefined on a full load until they
   * arrive, a moment after the page (src/http/pagination.ts, belowTheFold). */
  areas?: Page<AreaRow>;
  /** The people: on a full load only the page's first rows (`cut`), then the whole page (`usersFull`). */
  users: Page<AdminUser> & { cut?: true };
  usersFull?: Page<AdminUser>;
  roleOptions: { id: number; name: string; isSuper: boolean }[];
  roles?: Page<RoleRow> | null;
  permissions?: PermissionRow[];
  can: Abilities;
  inspected?: Inspected | null;
  /** DNI_LENGTH, for the document's rule in the user modal. */
  dniLength: number;
}

type Tab = "people" | "areas" | "roles";
type Modal =
  | { kind: "user"; user: AdminUser | null }
  | { kind: "role-select"; user: AdminUser }
  | { kind: "permissions" }
  | { kind: "area"; area: AreaRow | null }
  | { kind: "role"; role: RoleRow | null }
  | null;

export default function UsersIndex({
  filters,
  places,
  areaOptions,
  areas,
  users: usersHead,
  usersFull,
  roleOptions,
  roles,
  permissions,
  can,
  inspected,
  dniLength,
}: Props) {
  const { t, roleName, roleAbout } = useI18n();
  const foldedUsers = foldedPage(usersHead, usersFull, (page) => page.data.length);
  const users = foldedUsers.page!;
  const confirm = useConfirm();
  const route = useRoute();
  const [tab, setTab] = useState<Tab>("people");
  const [modal, setModal] = useState<Modal>(null);
  const close = () => setModal(null);
  const pageErrors = usePage().props.errors as Record<string, string>;

  const placeLink = (params: { cafe?: number; headquarters?: number }, label: string, active: boolean) => (
    <Link
      href={route("users.index", params)}
      preserveState
      className={cn("block rounded-md px-2 py-1 text-sm hover:bg-accent", active && "bg-accent font-medium")}
      aria-current={active ? "true" : undefined}
    >
      {label}
    </Link>
  );

  const inspect = (user: AdminUser) =>
    router.reload({
      only: ["inspected"],
      data: { inspect: user.id },
      onSuccess: () => setModal({ kind: "permissions" }),
    });

  const toggleStatus = async (user: AdminUser) => {
    const confirmed =
      user.status !== "active" ||
      (await confirm({
        title: t("access.users.confirm_deactivate_title", { name: user.name }),
        description: t("access.users.deactivate_consequence"),
        confirmLabel: t("access.users.deactivate"),
      }));
    if (!confirmed) return;
    router.post(
      route(user.status === "active" ? "users.deactivate" : "users.reactivate", { user: user.id }),
      {},
      { preserveScroll: true },
    );
  };

  // An area or role still held is refused by the server with its count ("2 personas tienen un rol en esta área"):
  // nothing to confirm then.
  const deleteArea = async (area: AreaRow) => {
    const confirmed =
      area.members > 0 ||
      (await confirm({
        title: t("access.areas.confirm_delete", { name: area.name }),
        description: t("access.areas.delete_consequence"),
        confirmLabel: t("access.areas.delete"),
      }));
    if (confirmed) router.delete(route("areas.destroy", { area: area.id }), { preserveScroll: true });
  };
  const deleteRole = async (role: RoleRow) => {
    const confirmed =
      role.holders > 0 ||
      (await confirm({
        title: t("access.roles.confirm_delete", { name: roleName(role.name) }),
        description: t("access.roles.delete_consequence"),
        confirmLabel: t("access.roles.delete"),
      }));
    if (confirmed) router.delete(route("roles.destroy", { role: role.id }), { preserveScroll: true });
  };

  const tabs: { id: Tab; label: string }[] = [
    { id: "people", label: t("access.users.people") },
    { id: "areas", label: t("access.users.areas") },
    ...(can.viewRoles ? [{ id: "roles" as Tab, label: t("access.users.roles_tab") }] : []),
  ];

  return (
    <div className="space-y-6">
      <Head title={t("access.users.title")} />
      <PageHeader
        title={t("access.users.title")}
        description={t("access.users.description")}
        actions={
          <>
            {can.manageAreas && (
              <Button variant="outline" onClick={() => setModal({ kind: "area", area: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("access.areas.new")}
              </Button>
            )}
            {can.manageUsers && (
              <Button onClick={() => setModal({ kind: "user", user: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("access.users.new")}
              </Button>
            )}
          </>
        }
      />

      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}

      <div className="flex flex-col gap-6 lg:flex-row">
        <PlacesNav
          places={places}
          chosenCafe={filters.cafe ?? null}
          chosenHeadquarters={filters.headquarters ?? null}
          link={placeLink}
        />

        <section className="min-w-0 flex-1 space-y-4">
          <TabList label={t("access.users.title")} tabs={tabs} current={tab} onChange={setTab} />

          {tab === "people" && (
            <div role="tabpanel" id="panel-people" aria-labelledby="tab-people" className="space-y-3">
              <div className="flex flex-wrap items-center gap-3">
                <SearchBox value={filters.search} label={t("access.users.search")} />
                <Select
                  aria-label={t("access.users.area")}
                  className="w-auto min-w-48"
                  value={filters.area === null ? "" : String(filters.area)}
                  onValueChange={(value) => visitWith({ area: value || null, page: null })}
                  options={[
                    { value: "", label: t("access.users.all_areas") },
                    ...(areaOptions ?? []).map((a) => ({
                      value: String(a.id),
                      label: `${a.name} — ${a.place.name}`,
                    })),
                  ]}
                />
                <Select
                  aria-label={t("access.users.filter_status")}
                  className="w-auto min-w-40"
                  value={filters.status ?? ""}
                  onValueChange={(value) => visitWith({ status: value || null, page: null })}
                  options={[
                    { value: "", label: t("access.users.all_statuses") },
                    { value: "active", label: t("access.users.active") },
                    { value: "deactivated", label: t("access.users.deactivated") },
                  ]}
                />
              </div>
              <Table
                actions
                caption={t("access.users.people")}
                headers={[
                  t("access.users.name"),
                  t("access.users.document"),
                  t("access.users.roles"),
                  t("access.users.status"),
                  <span className="sr-only">{t("access.users.actions")}</span>,
                ]}
                empty={users.data.length === 0 ? t("access.users.no_users") : null}
              >
                {users.data.map((user) => (
                  <tr key={user.id} data-testid={`user-row-${user.email}`}>
                    <td className={td}>
                      <div className="font-medium">{user.name}</div>
                      <div className="text-muted-foreground">
                        {user.email}
                        {!user.emailVerified && <span className="ml-1 text-xs">({t("access.users.unverified")})</span>}
                      </div>
                      {user.emailLookalike && <EmailLookalikeFlag lookalike={user.emailLookalike} />}
                    </td>
                    <td className={td}>
                      {user.documentType && user.documentNumber ? (
                        <DocumentLabel type={user.documentType} number={user.documentNumber} />
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className={td}>
                      {user.assignments.length === 0
                        ? t("access.users.none")
                        : user.assignments.map((a) => (
                            <div key={a.areaId}>
                              {roleName(a.roleName)} <span className="text-muted-foreground">· {a.areaName}</span>
                            </div>
                          ))}
                    </td>
                    <td className={td}>
                      <span
                        className={cn(
                          "rounded-full px-2 py-0.5 text-xs",
                          user.status === "active"
                            ? "bg-success/15 text-success"
                            : "bg-destructive/15 text-destructive",
                        )}
                      >
                        {t(`access.users.${user.status}`)}
                      </span>
                    </td>
                    <td className={cn(td, "whitespace-nowrap text-right")}>
                      <div className="flex justify-end gap-1">
                        <IconButton
                          label={t("access.users.view_permissions")}
                          onClick={() => inspect(user)}
                          icon={Eye}
                        />
                        {can.manageUsers && user.readOnly !== null && (
                          <span
                            className="inline-flex items-center gap-1 self-center text-xs text-muted-foreground"
                            data-testid="read-only"
                          >
                            <Lock className="size-3.5" aria-hidden />
                            {t(`access.users.read_only.${user.readOnly}`)}
                          </span>
                        )}
                        {can.manageUsers && user.readOnly === null && (
                          <>
                            <IconButton
                              label={t("access.users.edit")}
                              onClick={() => setModal({ kind: "user", user })}
                              icon={Pencil}
                            />
                            <IconButton
                              label={t("access.users.change_role")}
                              onClick={() => setModal({ kind: "role-select", user })}
                              icon={KeyRound}
                            />
                            <IconButton
                              label={t(
                                user.status === "active" ? "access.users.deactivate" : "access.users.reactivate",
                              )}
                              onClick={() => void toggleStatus(user)}
                              icon={Power}
                            />
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </Table>
              {foldedUsers.pending && <ListSkeleton label={t("access.users.loading")} rows={foldedUsers.missing} />}
              <Pagination page={users} />
            </div>
          )}

          {tab === "areas" && (
            <div role="tabpanel" id="panel-areas" aria-labelledby="tab-areas" className="space-y-3">
              <SearchBox value={filters.areasSearch} label={t("access.areas.search")} param="areas_search" />
              {areas === undefined ? (
                <ListSkeleton label={t("access.users.loading")} />
              ) : (
                <>
                  <Table
                    actions
                    caption={t("access.users.areas")}
                    headers={[
                      t("access.areas.name"),
                      t("access.areas.place"),
                      t("access.areas.roles"),
                      t("access.areas.members"),
                      <span className="sr-only">{t("access.users.actions")}</span>,
                    ]}
                    empty={areas.data.length === 0 ? t("access.areas.none") : null}
                  >
                    {areas.data.map((area) => (
                      <tr key={area.id}>
                        <td className={td}>
                          <Link
                            href={route("users.index", { area: area.id })}
                            preserveState
                            className="font-medium text-primary hover:underline"
                            onClick={() => setTab("people")}
                          >
                            {area.name}
                          </Link>
                        </td>
                        <td className={td}>{area.place.path}</td>
                        <td className={td}>{area.roles.map((r) => roleName(r.name)).join(", ") || "—"}</td>
                        <td className={td}>{area.members}</td>
                        <td className={cn(td, "text-right")}>
                          {can.manageAreas && (
                            <div className="flex justify-end gap-1">
                              <IconButton
                                label={t("access.users.edit")}
                                onClick={() => setModal({ kind: "area", area })}
                                icon={Pencil}
                              />
                              <IconButton
                                label={t("access.areas.delete")}
                                onClick={() => void deleteArea(area)}
                                icon={Trash2}
                              />
                            </div>
                          )}
                        </td>
                      </tr>
                    ))}
                  </Table>
                  <Pagination page={areas} param="areas_page" />
                </>
              )}
            </div>
          )}

          {tab === "roles" && roles === undefined && <ListSkeleton label={t("access.users.loading")} />}
          {tab === "roles" && roles && (
            <div role="tabpanel" id="panel-roles" aria-labelledby="tab-roles" className="space-y-3">
              <div className="flex flex-wrap items-center gap-3">
                <SearchBox value={filters.rolesSearch} label={t("access.roles.search")} param="roles_search" />
                {can.manageRoles && (
                  <Button variant="outline" onClick={() => setModal({ kind: "role", role: null })}>
                    <Plus className="size-4" aria-hidden="true" />
                    {t("access.roles.new")}
                  </Button>
                )}
              </div>
              <Table
                actions
                caption={t("access.roles.title")}
                headers={[
                  t("access.roles.name"),
                  t("access.roles.description_label"),
                  t("access.roles.permissions"),
                  t("access.roles.holders"),
                  <span className="sr-only">{t("access.users.actions")}</span>,
                ]}
              >
                {roles.data.map((role) => (
                  <tr key={role.id}>
                    <td className={cn(td, "font-medium")}>
                      {roleName(role.name)}
                      {role.isSuper && (
                        <span className="ml-1 text-xs text-muted-foreground">({t("access.roles.built_in")})</span>
                      )}
                    </td>
                    <td className={td}>{roleAbout(role.name, role.description)}</td>
                    <td className={td}>{role.isSuper ? t("access.roles.all_permissions") : role.permissions.length}</td>
                    <td className={td}>{role.holders}</td>
                    <td className={cn(td, "text-right")}>
                      {can.manageRoles && !role.isSuper && (
                        <div className="flex justify-end gap-1">
                          <IconButton
                            label={t("access.users.edit")}
                            onClick={() => setModal({ kind: "role", role })}
                            icon={Pencil}
                          />
                          <IconButton
                            label={t("access.roles.delete")}
                            onClick={() => void deleteRole(role)}
                            icon={Trash2}
                          />
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </Table>
              <Pagination page={roles} param="roles_page" />
            </div>
          )}
        </section>
      </div>

      {modal?.kind === "user" && areaOptions && (
        <UserDialog user={modal.user} areas={areaOptions} dniLength={dniLength} open onClose={close} />
      )}
      {modal?.kind === "role-select" && areaOptions && (
        <SelectRoleDialog user={modal.user} areas={areaOptions} onClose={close} />
      )}
      {modal?.kind === "permissions" && inspected && <PermissionsDialog inspected={inspected} onClose={close} />}
      {modal?.kind === "area" && <AreaDialog area={modal.area} places={places} roles={roleOptions} onClose={close} />}
      {modal?.kind === "role" && permissions && (
        <RoleDialog role={modal.role} permissions={permissions} open onClose={close} />
      )}
    </div>
  );
}

function IconButton({ label, onClick, icon: Icon }: { label: string; onClick: () => void; icon: typeof Eye }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-md p-1.5 hover:bg-accent"
      title={label}
      aria-label={label}
    >
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
}
