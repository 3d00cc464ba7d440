/**
 * Access control screens: Users (places → areas → users, with the user, area, role and permission modals),
 * Roles (role × permission matrix), Blacklist and the audit trail. Every list and write goes through the domain
 * with the actor and their scope; sensitive changes need a recent password confirmation.
 */
import { listAreas, createArea, updateArea, deleteArea } from "../../domain/access/areas";
import { assignRole, removeAssignment } from "../../domain/access/assignments";
import {
  addToBlacklist,
  completeDocument,
  listBlacklist,
  nameForDocument,
  removeFromBlacklist,
} from "../../domain/access/blacklist";
import { listPermissions, updatePermissionEntry } from "../../domain/access/catalogue";
import { placeTree } from "../../domain/access/places";
import { roleLabel } from "../../shared/access/built-in-roles";
import { createRole, deleteRole, rolesMatching, updateRole } from "../../domain/access/roles";
import {
  accessWithinScope,
  createUserByAdmin,
  listUsersForAdmin,
  requireVisibleUser,
  setUserStatus,
  toAdminRow,
  updateUserByAdmin,
} from "../../domain/access/users-admin";
import { createInvitationToken } from "../../domain/accounts/password-reset";
import { auditViewerOf, listAudit } from "../../domain/audit";
import { describeAuditRows } from "../../domain/audit-view";
import { can } from "../../domain/access/authorization";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../../shared/message";
import { LIMITS } from "../../domain/rate-limit";
import { invitationMessage } from "../../mail/messages";
import type { RequestContext } from "../context";
import type { User } from "../../domain/accounts/users";
import { optional } from "../page-protocol/props";
import { belowTheFold, idParam, listAtTheFold, listParams, pageHead, paginated } from "../pagination";
import { recordWrites } from "../record-routes";
import { access, defineRoutes, routeParameters, type Method, type RouteDefinition } from "../routing";

const ID = { permission: "\\d+", entry: "\\d+" };

/** An id from a form or JSON body: a positive whole number written in digits (not 0x5 or 1e1), else NaN. */
function idValue(value: unknown): number {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 ? value : NaN;
  return typeof value === "string" && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
}

function numberParam(ctx: RequestContext, name: string): number {
  return Number(ctx.params[name]);
}

function abilities(ctx: RequestContext) {
  const profile = ctx.access;
  return {
    manageUsers: can(profile, "users.manage"),
    manageAreas: can(profile, "areas.manage"),
    manageRoles: can(profile, "roles.manage"),
    viewRoles: can(profile, "roles.view"),
    /** Only a super-administrator may change another one. */
    manageSupers: profile.isSuper,
  };
}

/**
 * A change to one user (`/users/{user}…`, every parameter an id): users.manage with a recent password confirmation.
 * `change` makes it and says what was done; the answer goes back to the Users page.
 */
function userChange(
  name: string,
  method: Method,
  uri: string,
  change: (ctx: RequestContext, userId: number) => string | Promise<string>,
): RouteDefinition {
  const ids = Object.fromEntries(routeParameters(uri).map((p) => [p.name, "\\d+"]));
  return {
    name,
    methods: [method],
    uri,
    wheres: ids,
    bindings: Object.fromEntries(Object.keys(ids).map((param) => [param, "id"])),
    access: access.can("users.manage"),
    confirmPassword: true,
    handle: async (ctx) => {
      ctx.flash("success", await change(ctx, numberParam(ctx, "user")));
      return ctx.back(ctx.urlFor("users.index"));
    },
  };
}

/** Mails a new user the link to choose their first password. */
async function sendInvitation(ctx: RequestContext, user: User) {
  const token = createInvitationToken(ctx.db, user);
  const url = `${ctx.config.appUrl}${ctx.urlFor("password.reset", { token })}?email=${encodeURIComponent(user.email)}`;
  await ctx.services.mailer.send(
    invitationMessage(
      user.language ?? ctx.locale,
      ctx.config.appName,
      { name: user.name, address: user.email },
      url,
      ctx.user!.name,
    ),
  );
}

export const accessRoutes = defineRoutes([
  {
    name: "users.index",
    methods: ["GET"],
    uri: "/users",
    access: access.can("users.view"),
    handle: (ctx) => {
      const scope = ctx.scope;
      const params = listParams(ctx.query);
      const cafeId = idParam(ctx.query, "cafe");
      const headquartersId = idParam(ctx.query, "headquarters");
      const areaId = idParam(ctx.query, "area");
      const status = ctx.query.status === "active" || ctx.query.status === "deactivated" ? ctx.query.status : undefined;
      const areaParams = listParams(ctx.query, "areas_");
      const roleParams = listParams(ctx.query, "roles_");
      const placeFilter = { cafeId, headquartersId };
      return ctx.render("users/index", {
        filters: {
          search: params.search,
          cafe: cafeId ?? null,
          headquarters: headquartersId ?? null,
          area: areaId ?? null,
          status: status ?? null,
          areasSearch: areaParams.search,
          rolesSearch: roleParams.search,
        },
        places: () => placeTree(ctx.db, scope),
        // Every area of the chosen place, for the area filter's and the modals' choices (all of them: 3,000 at a large
        // company, so deferred on a full load); and the searchable, paginated table of them.
        areaOptions: belowTheFold(ctx, () => listAreas(ctx.db, scope, placeFilter).rows),
        // The people, a page at a time (15), cut at the fold on a full load (listAtTheFold); below the fold, deferred
        // on a full load, the areas and roles tabs and the role dialog's permission catalogue (belowTheFold).
        areas: belowTheFold(ctx, () =>
          paginated(listAreas(ctx.db, scope, { ...placeFilter, search: areaParams.search }, areaParams), areaParams),
        ),
        ...listAtTheFold(
          ctx,
          "users",
          () =>
            paginated(
              listUsersForAdmin(ctx.db, scope, {
                search: params.search,
                areaId,
                status,
                page: params.page,
                perPage: params.perPage,
              }),
              params,
            ),
          pageHead,
        ),
        roleOptions: () =>
          rolesMatching(ctx.db, "", ctx.locale).rows.map(({ id, name, isSuper }) => ({ id, name, isSuper })),
        roles: belowTheFold(ctx, () =>
          abilities(ctx).viewRoles
            ? paginated(rolesMatching(ctx.db, roleParams.search, ctx.locale, roleParams), roleParams)
            : null,
        ),
        permissions: belowTheFold(ctx, () => listPermissions(ctx.db)),
        can: abilities(ctx),
        dniLength: ctx.config.dniLength,
        // Loaded on demand by the "view permissions" dialog: ?inspect=<user id>.
        inspected: optional(() => {
          const id = idParam(ctx.query, "inspect");
          if (!id) return null;
          const user = requireVisibleUser(ctx.db, scope, id);
          return { user: toAdminRow(ctx.db, scope, user), ...accessWithinScope(ctx.db, scope, user.id) };
        }),
      });
    },
  },
  {
    name: "users.store",
    methods: ["POST"],
    uri: "/users",
    access: access.can("users.manage"),
    confirmPassword: true,
    handle: async (ctx) => {
      const { user, invite } = await createUserByAdmin(ctx.db, ctx.config, ctx.actor, ctx.scope, ctx.body);
      if (invite) await sendInvitation(ctx, user);
      ctx.flash("success", ctx.t(invite ? "access.user_invited" : "access.user_created", { email: user.email }));
      return ctx.back(ctx.urlFor("users.index"));
    },
  },
  userChange("users.update", "PUT", "/users/{user}", (ctx, userId) => {
    updateUserByAdmin(ctx.db, ctx.actor, ctx.scope, userId, ctx.body, ctx.config);
    return ctx.t("access.user_saved");
  }),
  userChange("users.deactivate", "POST", "/users/{user}/deactivate", async (ctx, userId) => {
    if (userId === ctx.user!.id) throw new ValidationFailed({ user: message("access.not_yourself") });
    const user = setUserStatus(ctx.db, ctx.actor, ctx.scope, userId, "deactivated", ctx.events);
    // Their open tabs are signed out and their realtime connections closed before the answer (src/realtime/subscribers.ts).
    await ctx.events.settled();
    return ctx.t("access.user_deactivated", { email: user.email });
  }),
  userChange("users.reactivate", "POST", "/users/{user}/reactivate", (ctx, userId) => {
    const user = setUserStatus(ctx.db, ctx.actor, ctx.scope, userId, "active");
    return ctx.t("access.user_reactivated", { email: user.email });
  }),
  userChange("users.roles.update", "PUT", "/users/{user}/roles", (ctx, userId) => {
    requireVisibleUser(ctx.db, ctx.scope, userId);
    const areaId = idValue(ctx.body.area_id);
    const roleId = idValue(ctx.body.role_id);
    if (!Number.isInteger(areaId) || areaId < 1)
      throw new ValidationFailed({ area_id: message("validation.required") });
    if (!Number.isInteger(roleId) || roleId < 1)
      throw new ValidationFailed({ role_id: message("validation.required") });
    assignRole(ctx.db, ctx.actor, ctx.scope, { userId, areaId, roleId });
    return ctx.t("access.role_assigned");
  }),
  userChange("users.roles.destroy", "DELETE", "/users/{user}/roles/{area}", (ctx, userId) => {
    requireVisibleUser(ctx.db, ctx.scope, userId);
    removeAssignment(ctx.db, ctx.actor, ctx.scope, userId, numberParam(ctx, "area"));
    return ctx.t("access.role_removed");
  }),
  ...recordWrites("areas", "/areas/{area}", access.can("areas.manage"), {
    confirmPassword: "update-and-destroy",
    create: (ctx) => createArea(ctx.db, ctx.actor, ctx.scope, ctx.body),
    update: (ctx, id) => updateArea(ctx.db, ctx.actor, ctx.scope, id, ctx.body),
    destroy: (ctx, id) => deleteArea(ctx.db, ctx.actor, ctx.scope, id),
    saved: (ctx, area) => ctx.t("access.area_saved", { name: area.name }),
    deleted: (ctx) => ctx.t("access.area_deleted"),
    back: (ctx) => ctx.urlFor("users.index"),
  }),
  {
    name: "roles.index",
    methods: ["GET"],
    uri: "/roles",
    access: access.can("roles.view"),
    handle: (ctx) => {
      const search = typeof ctx.query.search === "string" ? ctx.query.search.slice(0, 100) : "";
      return ctx.render("roles/index", {
        filters: { search },
        roles: () => rolesMatching(ctx.db, search, ctx.locale).rows,
        permissions: () => listPermissions(ctx.db),
        can: abilities(ctx),
      });
    },
  },
  ...recordWrites("roles", "/roles/{role}", access.can("roles.manage"), {
    confirmPassword: "every-write",
    create: (ctx) => createRole(ctx.db, ctx.actor, ctx.body),
    update: (ctx, id) => updateRole(ctx.db, ctx.actor, id, ctx.body),
    destroy: (ctx, id) => deleteRole(ctx.db, ctx.actor, id),
    saved: (ctx, role) => ctx.t("access.role_saved", { name: roleLabel(role.name, ctx.locale) }),
    deleted: (ctx) => ctx.t("access.role_deleted"),
    back: (ctx) => ctx.urlFor("roles.index"),
  }),
  {
    name: "permissions.update",
    methods: ["PUT"],
    uri: "/permissions/{permission}",
    wheres: { permission: ID.permission },
    bindings: { permission: "id" },
    access: access.can("roles.manage"),
    confirmPassword: true,
    handle: (ctx) => {
      updatePermissionEntry(ctx.db, ctx.actor, numberParam(ctx, "permission"), ctx.body);
      ctx.flash("success", ctx.t("access.permission_saved"));
      return ctx.back(ctx.urlFor("roles.index"));
    },
  },
  {
    name: "blacklist.index",
    methods: ["GET"],
    uri: "/blacklist",
    access: access.can("blacklist.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query);
      return ctx.render("users/blacklist", {
        filters: { search: params.search },
        entries: () => paginated(listBlacklist(ctx.db, ctx.scope, params), params),
        can: {
          manage: can(ctx.access, "blacklist.manage"),
          // A bar that reaches no account is company-wide: lifted from headquarters only.
          liftUnlinked: ctx.access.isSuper || ctx.access.headquartersPermissions.has("blacklist.manage"),
        },
        dniLength: ctx.config.dniLength,
      });
    },
  },
  {
    // The blacklist form's lookup: the name of the diner or user with exactly this document, within the person's
    // scope, or null. Only a complete, valid document is looked up, and such lookups are counted like the point of
    // sale's (a script walking through DNIs is held to two a second).
    name: "blacklist.lookup",
    methods: ["GET"],
    uri: "/blacklist/lookup",
    access: access.can("blacklist.manage"),
    // A read while typing: it leaves the session as it is, so it never takes the flash ("Documento … agregado")
    // meant for the page that follows a save it happens to run beside.
    session: false,
    handle: (ctx) => {
      const document = completeDocument(ctx.query.document_type, ctx.query.document_number, ctx.config);
      if (document) ctx.services.limiter.take([{ key: `blacklist-lookup:${ctx.user!.id}`, limit: LIMITS.dinerLookup }]);
      const name = document ? nameForDocument(ctx.db, ctx.scope, document) : null;
      return Response.json({ name }, { headers: { "cache-control": "no-store" } });
    },
  },
  {
    name: "blacklist.store",
    methods: ["POST"],
    uri: "/blacklist",
    access: access.can("blacklist.manage"),
    confirmPassword: true,
    handle: async (ctx) => {
      const entry = addToBlacklist(ctx.db, ctx.actor, ctx.scope, ctx.body, ctx.config, ctx.events);
      // The barred accounts' open tabs are signed out and their realtime connections closed before the answer.
      await ctx.events.settled();
      ctx.flash("success", ctx.t("access.blacklist_added", { document: entry.documentNumber }));
      return ctx.back(ctx.urlFor("blacklist.index"));
    },
  },
  {
    name: "blacklist.destroy",
    methods: ["DELETE"],
    uri: "/blacklist/{entry}",
    wheres: { entry: ID.entry },
    bindings: { entry: "id" },
    access: access.can("blacklist.manage"),
    confirmPassword: true,
    handle: (ctx) => {
      removeFromBlacklist(ctx.db, ctx.actor, ctx.scope, numberParam(ctx, "entry"), {
        companyWide: ctx.access.headquartersPermissions.has("blacklist.manage"),
      });
      ctx.flash("success", ctx.t("access.blacklist_removed"));
      return ctx.back(ctx.urlFor("blacklist.index"));
    },
  },
  {
    name: "audit.index",
    methods: ["GET"],
    uri: "/audit",
    access: access.can("audit.view"),
    handle: (ctx) => {
      const params = listParams(ctx.query, "", 25);
      return ctx.render("audit/index", {
        filters: { search: params.search },
        entries: () => {
          const found = listAudit(ctx.db, auditViewerOf(ctx.access), { ...params, locale: ctx.locale });
          const words = { locale: ctx.locale, currency: ctx.config.currency };
          return paginated({ ...found, rows: describeAuditRows(ctx.db, found.rows, words) }, params);
        },
      });
    },
  },
]);
