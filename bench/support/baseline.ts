/**
 * The baseline of the list benchmark: for each list page, the same statements Mesa's domain runs for it (the same
 * joins, subqueries, per-row lookups and ordering), written by hand in SQL and prepared once, with the rows shaped
 * into the same props in plain JavaScript. A list of ids travels as one JSON parameter (`json_each`), so one
 * statement serves any scope.
 *
 * Searching uses SQLite's own LIKE, which ignores the case of ASCII letters only; with `fold` it calls Mesa's
 * `unaccent_lower` function as Mesa's searches do. The benchmark searches ASCII words, which both find alike.
 */
import type { Database, Statement } from "bun:sqlite";
import type { Db } from "../../src/db";
import { roleDescription, roleLabel } from "../../src/shared/access/built-in-roles";
import { permissionLabel } from "../../src/shared/access/permissions";
import type { AuditRow } from "../../src/domain/audit";
import {
  actionLabel,
  AUDIT_ACTIONS,
  AUDIT_SUBJECTS,
  describeAuditRows,
  subjectLabel,
} from "../../src/domain/audit-view";
import { emailLookalike } from "../../src/domain/accounts/email-address";
import { foldText } from "../../src/domain/search";
import { translate, type Locale } from "../../src/shared/i18n";

/** Who is looking: the scope and permissions Mesa computes for the signed-in user (computed once here). */
export interface Viewer {
  /** The SHA-256 of the session id, as the sessions table keys it. */
  sessionHash: string;
  userId: number;
  all: boolean;
  cafeIds: number[];
  headquartersIds: number[];
  businessIds: number[];
  permissions: Set<string>;
  /** The language the pages speak to the viewer (role names are shown in it). */
  locale: Locale;
  /** The currency money is written in (the audit's prices). */
  currency: string;
  /** audit.view from a headquarters area (or a super-administrator): company-wide audit entries are visible. */
  companyWideAudit: boolean;
}

type Row = Record<string, any>;
type Params = Record<string, string | number | null>;

interface Paginated<T> {
  data: T[];
  total: number;
  page: number;
  perPage: number;
  lastPage: number;
}

/** A list request of a page: the page asked for, its size, and the search (at most 100 characters). */
export interface ListRequest {
  page: number;
  perPage: number;
  search: string;
}

export function listRequest(query: URLSearchParams, prefix = "", perPage = 15): ListRequest {
  const page = Number(query.get(`${prefix}page`));
  return {
    page: Number.isInteger(page) && page > 0 && page < 100000 ? page : 1,
    perPage,
    search: (query.get(`${prefix}search`) ?? "").slice(0, 100),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Groups rows by a key, keeping their order. */
function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

export class Baseline {
  private readonly statements = new Map<string, Statement>();
  /** Whether documents have a type (a DNI, a foreign-resident card, a passport) besides their number. */
  /** The viewer's cafes, headquarters and businesses as the JSON parameters $cafes, $hqs and $businesses. */
  private readonly scopeParams: Params;

  private readonly client: Database;

  /** `db` is Mesa's connection: the baseline's statements run on its client; the audit's words are Mesa's own. */
  constructor(
    private readonly db: Db,
    private readonly viewer: Viewer,
    private readonly fold: boolean,
  ) {
    this.client = db.$client;
    this.scopeParams = {
      cafes: JSON.stringify(viewer.cafeIds),
      hqs: JSON.stringify(viewer.headquartersIds),
      businesses: JSON.stringify(viewer.businessIds),
    };
  }

  // ——— Statements ———

  /** The statement for this SQL text, prepared on first use and kept for the run. */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.client.prepare(sql)));
    return statement;
  }

  private all(sql: string, params: Params = {}): Row[] {
    return this.statement(sql).all(params as never) as Row[];
  }

  private get(sql: string, params: Params = {}): Row | null {
    return this.statement(sql).get(params as never) as Row | null;
  }

  private count(sql: string, params: Params = {}): number {
    return (this.get(sql, params)?.n as number) ?? 0;
  }

  /** "WHERE a AND b" of the conditions given, or nothing. */
  private where(...conditions: (string | null | false)[]): string {
    const parts = conditions.filter(Boolean);
    return parts.length ? `WHERE ${parts.join(" AND ")}` : "";
  }

  /** "one of the columns contains $search". */
  private like(columns: string[]): string {
    return `(${columns.map((c) => `${this.fold ? `unaccent_lower(${c})` : c} LIKE $search ESCAPE '\\'`).join(" OR ")})`;
  }

  /** The search condition, or null (no condition) when nothing is searched. */
  private match(search: string, columns: string[]): string | null {
    return search.trim() ? this.like(columns) : null;
  }

  /** The LIKE pattern of a search, its % and _ literal. */
  private pattern(search: string): string | null {
    const trimmed = search.trim();
    return trimmed ? `%${trimmed.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  }

  private window(total: number, request: ListRequest): { page: number; limit: number; offset: number } {
    const lastPage = Math.max(1, Math.ceil(total / request.perPage));
    const page = Math.min(Math.max(1, Math.floor(request.page)), lastPage);
    return { page, limit: request.perPage, offset: (page - 1) * request.perPage };
  }

  private paginated<T>(rows: T[], total: number, page: number, perPage: number): Paginated<T> {
    return { data: rows, total, page, perPage, lastPage: Math.max(1, Math.ceil(total / perPage)) };
  }

  // ——— Scope ———

  /** `column` is one of the viewer's cafes (null: no condition for a super-administrator). */
  private inCafes(column: string): string | null {
    return this.viewer.all ? null : `${column} IN (SELECT value FROM json_each($cafes))`;
  }

  private inHeadquarters(column: string): string | null {
    return this.viewer.all ? null : `${column} IN (SELECT value FROM json_each($hqs))`;
  }

  private inBusinesses(column: string): string | null {
    return this.viewer.all ? null : `${column} IN (SELECT value FROM json_each($businesses))`;
  }

  /** The area `alias` is within the scope (areaScopeCondition). */
  private areaInScope(alias: string): string | null {
    return this.viewer.all
      ? null
      : `(${alias}.cafe_id IN (SELECT value FROM json_each($cafes)) OR ${alias}.headquarters_id IN (SELECT value FROM json_each($hqs)))`;
  }

  // ——— Every page: the session and the signed-in user ———

  signedIn(): { auth: { user: Row } } {
    const session = this.get("SELECT data, user_id, last_activity FROM sessions WHERE id = $id", {
      id: this.viewer.sessionHash,
    })!;
    JSON.parse(session.data); // the session's data (flash, errors, CSRF token), read on every request
    const u = this.get("SELECT * FROM users WHERE id = $id", { id: session.user_id })!;
    return { auth: { user: { id: u.id, name: u.name, email: u.email, emailVerified: u.email_verified_at !== null } } };
  }

  // ——— Users page ———

  usersPage(query: URLSearchParams): Row {
    const params = listRequest(query);
    const areaParams = listRequest(query, "areas_");
    const roleParams = listRequest(query, "roles_");
    const areas = this.listAreas(areaParams.search, areaParams);
    const roles = this.can("roles.view") ? this.rolesAsShown(roleParams.search, roleParams) : null;
    return {
      places: this.placeTree(),
      areaOptions: this.listAreas("", null).rows,
      areas: this.paginated(areas.rows, areas.total, areas.page, areaParams.perPage),
      users: this.listUsers(params),
      roleOptions: this.rolesAsShown("", null).rows.map(({ id, name, isSuper }) => ({ id, name, isSuper })),
      roles: roles && this.paginated(roles.rows, roles.total, roles.page, roleParams.perPage),
      permissions: this.permissions(),
    };
  }

  private can(permission: string): boolean {
    return this.viewer.all || this.viewer.permissions.has(permission);
  }

  private placeTree(): Row {
    const cafes = this.all(
      `SELECT m.id AS mineId, m.name AS mineName, u.id AS unitId, u.name AS unitName, c.id AS cafeId, c.name AS cafeName
       FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id ${this.where(this.inCafes("c.id"))}
       ORDER BY m.name, u.name, c.name`,
      this.scopeParams,
    );
    const mines = new Map<
      number,
      { id: number; name: string; units: Map<number, { id: number; name: string; cafes: Row[] }> }
    >();
    for (const r of cafes) {
      let mine = mines.get(r.mineId);
      if (!mine) mines.set(r.mineId, (mine = { id: r.mineId, name: r.mineName, units: new Map() }));
      let unit = mine.units.get(r.unitId);
      if (!unit) mine.units.set(r.unitId, (unit = { id: r.unitId, name: r.unitName, cafes: [] }));
      unit.cafes.push({ id: r.cafeId, name: r.cafeName });
    }
    const hqs = this.all(
      `SELECT b.id AS businessId, b.name AS businessName, h.id, h.name FROM headquarters h JOIN businesses b ON b.id = h.business_id
       ${this.where(this.inHeadquarters("h.id"))} ORDER BY b.name, h.name`,
      this.scopeParams,
    );
    const businesses = new Map<number, Row>();
    for (const r of hqs) {
      let business = businesses.get(r.businessId);
      if (!business)
        businesses.set(r.businessId, (business = { id: r.businessId, name: r.businessName, headquarters: [] }));
      business.headquarters.push({ id: r.id, name: r.name });
    }
    return {
      mines: [...mines.values()].map((m) => ({ id: m.id, name: m.name, units: [...m.units.values()] })),
      businesses: [...businesses.values()],
    };
  }

  /** Areas within the scope, searched; a page of them, or all (page null). */
  private listAreas(search: string, request: ListRequest | null): { rows: Row[]; total: number; page: number } {
    const where = this.where(this.areaInScope("a"), this.match(search, ["a.name", "c.name", "h.name"]));
    const params = { ...this.scopeParams, search: this.pattern(search) };
    const total = this.count(
      `SELECT count(*) AS n FROM areas a LEFT JOIN cafes c ON c.id = a.cafe_id LEFT JOIN headquarters h ON h.id = a.headquarters_id ${where}`,
      params,
    );
    const shown = request ? this.window(total, request) : null;
    const rows = this.all(
      `SELECT a.id, a.name, a.cafe_id, a.headquarters_id, c.name AS cafeName, u.name AS unitName, m.name AS mineName, h.name AS hqName, b.name AS businessName,
              (SELECT COUNT(*) FROM assignments x WHERE x.area_id = a.id) AS members
       FROM areas a LEFT JOIN cafes c ON c.id = a.cafe_id LEFT JOIN units u ON u.id = c.unit_id LEFT JOIN mines m ON m.id = u.mine_id
       LEFT JOIN headquarters h ON h.id = a.headquarters_id LEFT JOIN businesses b ON b.id = h.business_id
       ${where} ORDER BY a.name, a.id ${shown ? "LIMIT $limit OFFSET $offset" : ""}`,
      { ...params, limit: shown?.limit ?? null, offset: shown?.offset ?? null },
    );
    const offered = rows.length
      ? groupBy(
          this.all(
            "SELECT ar.area_id AS areaId, r.id, r.name FROM area_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.area_id IN (SELECT value FROM json_each($ids)) ORDER BY r.name",
            { ids: JSON.stringify(rows.map((r) => r.id)) },
          ),
          (r) => r.areaId,
        )
      : new Map<number, Row[]>();
    return {
      total,
      page: shown?.page ?? 1,
      rows: rows.map((r) => ({
        id: r.id,
        name: r.name,
        place: r.cafe_id
          ? {
              kind: "cafe",
              id: r.cafe_id,
              name: r.cafeName ?? "",
              path: [r.mineName, r.unitName, r.cafeName].filter(Boolean).join(" › "),
            }
          : {
              kind: "headquarters",
              id: r.headquarters_id,
              name: r.hqName ?? "",
              path: [r.businessName, r.hqName].filter(Boolean).join(" › "),
            },
        roles: (offered.get(r.id) ?? []).map(({ id, name }) => ({ id, name })),
        members: r.members,
      })),
    };
  }

  private listUsers(request: ListRequest): Paginated<Row> {
    const v = this.viewer;
    let visible: string | null = null;
    if (!v.all) {
      const ids = this.all(
        `SELECT DISTINCT a.user_id AS id FROM assignments a JOIN areas ar ON ar.id = a.area_id ${this.where(this.areaInScope("ar"))}`,
        this.scopeParams,
      ).map((r) => r.id);
      if (ids.length === 0) return this.paginated([], 0, 1, request.perPage);
      visible = JSON.stringify(ids);
    }
    const where = this.where(
      visible && "u.id IN (SELECT value FROM json_each($visible))",
      this.match(request.search, ["u.name", "u.email", "u.document_number"]),
    );
    const params = { visible, search: this.pattern(request.search) };
    const total = this.count(`SELECT count(*) AS n FROM users u ${where}`, params);
    const shown = this.window(total, request);
    const users = this.all(`SELECT * FROM users u ${where} ORDER BY u.name LIMIT $limit OFFSET $offset`, {
      ...params,
      limit: shown.limit,
      offset: shown.offset,
    });
    const rows = users.map((u) => {
      const isSuper = this.isSuper(u.id);
      return {
        id: u.id,
        name: u.name,
        email: u.email,
        // The flag of an address that could pass for another is Mesa's own rule, as the audit's words are.
        emailLookalike: emailLookalike(u.email),
        documentType: u.document_type,
        documentNumber: u.document_number,
        language: u.language,
        status: u.status,
        emailVerified: u.email_verified_at !== null,
        lastSignInAt: iso(u.last_sign_in_at),
        assignments: this.all(
          `SELECT a.area_id AS areaId, ar.name AS areaName, a.role_id AS roleId, r.name AS roleName FROM assignments a
           JOIN areas ar ON ar.id = a.area_id JOIN roles r ON r.id = a.role_id ${this.where("a.user_id = $user", this.areaInScope("ar"))} ORDER BY ar.name`,
          { ...this.scopeParams, user: u.id },
        ),
        isSuper,
        readOnly: this.readOnlyReason(u.id),
      };
    });
    return this.paginated(rows, total, shown.page, request.perPage);
  }

  private isSuper(userId: number): boolean {
    return (
      this.get(
        "SELECT r.id FROM assignments a JOIN roles r ON r.id = a.role_id WHERE a.user_id = $user AND r.is_super = 1 LIMIT 1",
        { user: userId },
      ) !== null
    );
  }

  /** Why the viewer may not change the user: a super-administrator, or someone holding a role outside the viewer's places. */
  private readOnlyReason(userId: number): "super" | "outside_scope" | null {
    if (this.viewer.all) return null;
    if (this.isSuper(userId)) return "super";
    const outside = this.get(
      `SELECT a.area_id FROM assignments a JOIN areas ar ON ar.id = a.area_id WHERE a.user_id = $user AND NOT COALESCE(${this.areaInScope("ar")}, 0) LIMIT 1`,
      { ...this.scopeParams, user: userId },
    );
    return outside ? "outside_scope" : null;
  }

  private mayChangeUser(userId: number): boolean {
    if (this.viewer.all) return true;
    const inside = this.get(
      `SELECT a.area_id FROM assignments a JOIN areas ar ON ar.id = a.area_id WHERE a.user_id = $user AND ${this.areaInScope("ar")} LIMIT 1`,
      { ...this.scopeParams, user: userId },
    );
    return inside !== null && this.readOnlyReason(userId) === null;
  }

  /** Roles with their permissions and holders, searched; a page of them, or all (page null). */
  private listRoles(search: string, request: ListRequest | null): { rows: Row[]; total: number; page: number } {
    const where = this.where(this.match(search, ["r.name", "r.description"]));
    const params = { search: this.pattern(search) };
    const total = this.count(`SELECT count(*) AS n FROM roles r ${where}`, params);
    const shown = request ? this.window(total, request) : null;
    const roles = this.all(
      `SELECT r.*, (SELECT COUNT(*) FROM assignments a WHERE a.role_id = r.id) AS holders FROM roles r ${where}
       ORDER BY r.is_super DESC, r.name ${shown ? "LIMIT $limit OFFSET $offset" : ""}`,
      { ...params, limit: shown?.limit ?? null, offset: shown?.offset ?? null },
    );
    const rows = roles.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      isSuper: r.is_super === 1,
      permissions: this.all(
        "SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = $role ORDER BY p.name",
        { role: r.id },
      ).map((p) => p.name),
      holders: r.holders,
    }));
    return { rows, total, page: shown?.page ?? 1 };
  }

  /**
   * The roles as the pages show them: every role read (they are few), the super-administrator first and then by the
   * name people read in their language, those whose stored or shown name or description contains the search, and a
   * page of them when one is asked for.
   */
  private rolesAsShown(search: string, request: ListRequest | null): { rows: Row[]; total: number; page: number } {
    const locale = this.viewer.locale;
    const collator = new Intl.Collator(locale);
    const wanted = foldText(search.trim());
    const rows = this.listRoles("", null)
      .rows.sort(
        (a, b) =>
          Number(b.isSuper) - Number(a.isSuper) ||
          collator.compare(roleLabel(a.name, locale), roleLabel(b.name, locale)),
      )
      .filter(
        (r) =>
          wanted === "" ||
          [r.name, roleLabel(r.name, locale), r.description, roleDescription(r.name, r.description, locale)].some(
            (text) => foldText(text).includes(wanted),
          ),
      );
    if (!request) return { rows, total: rows.length, page: 1 };
    const shown = this.window(rows.length, request);
    return { rows: rows.slice(shown.offset, shown.offset + shown.limit), total: rows.length, page: shown.page };
  }

  private permissions(): Row[] {
    return this.all("SELECT * FROM permissions ORDER BY area, name").map((p) => ({
      id: p.id,
      name: p.name,
      area: p.area,
      routeName: p.route_name,
      sidebarLabel: p.sidebar_label,
      icon: p.icon,
      sortOrder: p.sort_order,
    }));
  }

  // ——— Roles, blacklist, audit ———

  rolesPage(query: URLSearchParams): Row {
    return {
      roles: this.rolesAsShown((query.get("search") ?? "").slice(0, 100), null).rows,
      permissions: this.permissions(),
    };
  }

  blacklistPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const search = this.pattern(request.search);
    const total = this.count(
      `SELECT count(*) AS n FROM blacklist b ${this.where(this.match(request.search, ["b.document_number", "b.name", "b.reason"]))}`,
      { search },
    );
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT b.id, b.document_type, b.document_number, b.name, b.reason, b.created_at, d.name AS decided,
              u.id AS user_id, u.name AS user_name, u.email AS user_email
       FROM blacklist b
       LEFT JOIN users d ON d.id = b.decided_by
       LEFT JOIN users u ON u.id = COALESCE(b.user_id, (SELECT id FROM users WHERE document_type = b.document_type AND document_number = b.document_number LIMIT 1))
       WHERE ($search IS NULL OR ${this.like(["b.document_number", "b.name", "b.reason"])})
       ORDER BY b.id DESC LIMIT $limit OFFSET $offset`,
      { search, limit: shown.limit, offset: shown.offset },
    );
    const entries = rows.map((r) => ({
      id: r.id,
      documentType: r.document_type,
      documentNumber: r.document_number,
      name: r.name,
      reason: r.reason,
      createdAt: iso(r.created_at),
      decidedBy: r.decided,
      ...(r.user_id && !this.mayChangeUser(r.user_id)
        ? { user: null, outsideScope: true }
        : {
            user: r.user_id
              ? { id: r.user_id, name: r.user_name, email: r.user_email, emailLookalike: emailLookalike(r.user_email) }
              : null,
            outsideScope: false,
          }),
    }));
    return { entries: this.paginated(entries, total, shown.page, request.perPage) };
  }

  auditPage(query: URLSearchParams): Row {
    const request = listRequest(query, "", 25);
    const search = this.auditSearch(request.search);
    const where = this.where(search?.condition ?? null, this.auditVisible());
    const params = { ...this.scopeParams, ...search?.params };
    const total = this.count(`SELECT count(*) AS n FROM audit_log l ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT l.*, u.name AS actorName FROM audit_log l LEFT JOIN users u ON u.id = l.actor_id ${where} ORDER BY l.id DESC LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const found: AuditRow[] = rows.map((r) => ({
      id: r.id,
      actorId: r.actor_id,
      actorLabel: r.actor_label,
      actorName: r.actorName,
      action: r.action,
      subjectType: r.subject_type,
      subjectId: r.subject_id,
      before: r.before ? JSON.parse(r.before) : null,
      after: r.after ? JSON.parse(r.after) : null,
      createdAt: iso(r.created_at)!,
    }));
    // The entries in words (who, what, about what, each change) are Mesa's own: the same work on either side.
    const entries = describeAuditRows(this.db, found, { locale: this.viewer.locale, currency: this.viewer.currency });
    return { entries: this.paginated(entries, total, shown.page, request.perPage) };
  }

  /**
   * What an audit search finds, as Mesa's: the action or the kind of subject by its key or its words in the viewer's
   * language, the actor by the name shown (the command line, a visitor, a deleted account by those words), and the
   * subject by its name now. The words and the roles' and permissions' names are matched here; the other names by
   * one statement per kind of subject; the audit's rows are then compared by keys and ids. Null: nothing searched.
   */
  private auditSearch(typed: string): { condition: string; params: Params } | null {
    const search = this.pattern(typed);
    if (search === null) return null;
    const folded = foldText(typed.trim());
    const has = (text: string) => foldText(text).includes(folded);
    const locale = this.viewer.locale;
    const conditions: string[] = [];
    const params: Params = {};
    const within = (column: string, name: string, values: (string | number)[]) => {
      if (!values.length) return;
      params[name] = JSON.stringify(values);
      conditions.push(`${column} IN (SELECT value FROM json_each($${name}))`);
    };
    within(
      "l.action",
      "actions",
      AUDIT_ACTIONS.filter((a) => a.includes(folded) || has(actionLabel(a, locale))),
    );
    within(
      "l.subject_type",
      "subjects",
      AUDIT_SUBJECTS.filter((s) => s.includes(folded) || has(subjectLabel(s, locale))),
    );
    const named = (table: string, columns: string[]) =>
      this.all(`SELECT id FROM ${table} WHERE ${this.like(columns)}`, { search }).map((r) => r.id as number);
    const actors = named("users", ["name"]);
    within("l.actor_id", "actors", actors);
    for (const label of ["cli", "guest"] as const)
      if (label.includes(folded) || has(translate(locale, `access.audit.actors.${label}`)))
        conditions.push(`(l.actor_id IS NULL AND l.actor_label = '${label}')`);
    if (has(translate(locale, "access.audit.actors.deleted")))
      conditions.push("(l.actor_id IS NULL AND l.actor_label NOT IN ('cli', 'guest'))");
    const subject = (type: string, ids: number[]) => {
      if (!ids.length) return;
      params[`${type}_ids`] = JSON.stringify(ids);
      conditions.push(`(l.subject_type = '${type}' AND l.subject_id IN (SELECT value FROM json_each($${type}_ids)))`);
    };
    subject("user", actors);
    for (const [type, table, columns] of [
      ["area", "areas", ["name"]],
      ["cafe", "cafes", ["name"]],
      ["unit", "units", ["name"]],
      ["mine", "mines", ["name"]],
      ["headquarters", "headquarters", ["name"]],
      ["business", "businesses", ["name"]],
      ["dealership", "dealerships", ["name"]],
      ["subdealership", "subdealerships", ["name"]],
      ["service", "services", ["name", "code"]],
      ["property", "properties", ["name", "code"]],
      ["blacklist", "blacklist", ["name", "document_number"]],
    ] as const)
      subject(type, named(table, [...columns]));
    subject(
      "role",
      this.all("SELECT id, name FROM roles")
        .filter((r) => has(r.name) || has(roleLabel(r.name, locale)))
        .map((r) => r.id),
    );
    subject(
      "permission",
      this.all("SELECT id, name FROM permissions")
        .filter((p) => has(p.name) || has(permissionLabel(p.name, locale)))
        .map((p) => p.id),
    );
    // Nothing by that name: no entry, without reading the trail.
    return { condition: conditions.length ? `(${conditions.join(" OR ")})` : "0", params };
  }

  /** The audit entries the viewer reads: all of their places in scope, and a person's entries only while they work in scope. */
  private auditVisible(): string | null {
    if (this.viewer.all) return null;
    const cafes = "(SELECT value FROM json_each($cafes))";
    const hqs = "(SELECT value FROM json_each($hqs))";
    const inScope = `(
      (p.kind = 'cafe' AND p.place_id IN ${cafes})
      OR (p.kind = 'headquarters' AND p.place_id IN ${hqs})
      OR (p.kind = 'business' AND p.place_id IN (SELECT value FROM json_each($businesses)))
      OR (p.kind = 'unit' AND EXISTS (SELECT 1 FROM cafes c WHERE c.unit_id = p.place_id AND c.id IN ${cafes}))
      OR (p.kind = 'mine' AND EXISTS (SELECT 1 FROM cafes c JOIN units u ON u.id = c.unit_id WHERE u.mine_id = p.place_id AND c.id IN ${cafes})))`;
    const hasPlaces = "EXISTS (SELECT 1 FROM audit_places p WHERE p.audit_id = l.id)";
    const allInScope = `NOT EXISTS (SELECT 1 FROM audit_places p WHERE p.audit_id = l.id AND NOT ${inScope})`;
    const person = `(l.subject_type <> 'user' OR NOT EXISTS (SELECT 1 FROM assignments a JOIN areas ar ON ar.id = a.area_id
      WHERE a.user_id = l.subject_id AND NOT COALESCE(ar.cafe_id IN ${cafes} OR ar.headquarters_id IN ${hqs}, 0)))`;
    return this.viewer.companyWideAudit
      ? `((NOT ${hasPlaces} OR ${allInScope}) AND ${person})`
      : `(${hasPlaces} AND ${allInScope} AND ${person})`;
  }

  // ——— Services ———

  servicesPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const where = this.where(this.match(request.search, ["s.code", "s.name"]));
    const search = this.pattern(request.search);
    const total = this.count(`SELECT count(*) AS n FROM services s ${where}`, { search });
    const shown = this.window(total, request);
    const places =
      "((SELECT COUNT(*) FROM mine_services x WHERE x.service_id = s.id) + (SELECT COUNT(*) FROM unit_services x WHERE x.service_id = s.id) + (SELECT COUNT(*) FROM cafe_services x WHERE x.service_id = s.id))";
    const rows = this.all(
      `SELECT s.*, ${places} AS places FROM services s ${where} ORDER BY s.code LIMIT $limit OFFSET $offset`,
      { search, limit: shown.limit, offset: shown.offset },
    );
    const services = rows.map((s) => ({
      id: s.id,
      code: s.code,
      name: s.name,
      description: s.description,
      type: s.type,
      active: s.active === 1,
      places: s.places,
      updatedAt: iso(s.updated_at),
    }));
    return { services: this.paginated(services, total, shown.page, request.perPage) };
  }

  private serviceOptions(): Row[] {
    return this.all("SELECT id, code, name, type, active FROM services ORDER BY code").map((s) => ({
      ...s,
      active: s.active === 1,
    }));
  }

  /** Services offered by each of the places, as place id → service ids. */
  private offeredBy(
    table: "mine_services" | "unit_services" | "cafe_services",
    column: string,
    ids: number[],
  ): Map<number, number[]> {
    if (ids.length === 0) return new Map();
    const rows = this.all(
      `SELECT ${column} AS id, service_id FROM ${table} WHERE ${column} IN (SELECT value FROM json_each($ids))`,
      { ids: JSON.stringify(ids) },
    );
    return new Map([...groupBy(rows, (r) => r.id)].map(([id, list]) => [id, list.map((r) => r.service_id)]));
  }

  // ——— Management ———

  managementPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const tab = ["mines", "units", "cafes"].includes(query.get("tab") ?? "") ? query.get("tab") : "cafes";
    return {
      mines: tab === "mines" ? this.listMines(request) : null,
      units: tab === "units" ? this.listUnits(request) : null,
      cafes: tab === "cafes" ? this.listCafes(request) : null,
      serviceOptions: this.serviceOptions(),
      businesses: this.businessOptions(),
      importJob: this.latestImport(),
    };
  }

  /**
   * The viewer's latest places import, unless they closed it: the page shows it above the tables. (The benchmark
   * starts no import, so it is null; one that was there would be shaped by the page and read ≠ here.)
   */
  private latestImport(): Row | null {
    const job = this.get(
      "SELECT * FROM jobs WHERE user_id = $user AND kind = 'places.import' ORDER BY id DESC LIMIT 1",
      { user: this.viewer.userId },
    );
    return job && job.dismissed_at === null ? { id: job.id, state: job.state } : null;
  }

  /** The mines and units holding a cafe of the scope (null: every one). */
  private reachableParents(): { mineIds: number[]; unitIds: number[] } | null {
    if (this.viewer.all) return null;
    if (this.viewer.cafeIds.length === 0) return { mineIds: [], unitIds: [] };
    const rows = this.all(
      "SELECT u.id AS unitId, u.mine_id AS mineId FROM cafes c JOIN units u ON u.id = c.unit_id WHERE c.id IN (SELECT value FROM json_each($cafes))",
      this.scopeParams,
    );
    return { mineIds: [...new Set(rows.map((r) => r.mineId))], unitIds: [...new Set(rows.map((r) => r.unitId))] };
  }

  private listMines(request: ListRequest): Paginated<Row> {
    const reach = this.reachableParents();
    const where = this.where(
      reach && "m.id IN (SELECT value FROM json_each($mines))",
      this.match(request.search, ["m.name"]),
    );
    const params = {
      ...this.scopeParams,
      mines: JSON.stringify(reach?.mineIds ?? []),
      units: JSON.stringify(reach?.unitIds ?? []),
      search: this.pattern(request.search),
    };
    const total = this.count(`SELECT count(*) AS n FROM mines m ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT m.id, m.name,
              (SELECT COUNT(*) FROM units u WHERE u.mine_id = m.id ${reach ? "AND u.id IN (SELECT value FROM json_each($units))" : ""}) AS units,
              (SELECT COUNT(*) FROM cafes c JOIN units u ON u.id = c.unit_id WHERE u.mine_id = m.id ${reach ? "AND c.id IN (SELECT value FROM json_each($cafes))" : ""}) AS cafes
       FROM mines m ${where} ORDER BY m.name LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const offered = this.offeredBy(
      "mine_services",
      "mine_id",
      rows.map((r) => r.id),
    );
    return this.paginated(
      rows.map((r) => ({ ...r, serviceIds: offered.get(r.id) ?? [] })),
      total,
      shown.page,
      request.perPage,
    );
  }

  private listUnits(request: ListRequest): Paginated<Row> {
    const reach = this.reachableParents();
    const where = this.where(
      reach && "u.id IN (SELECT value FROM json_each($units))",
      this.match(request.search, ["u.name", "m.name"]),
    );
    const params = {
      ...this.scopeParams,
      units: JSON.stringify(reach?.unitIds ?? []),
      search: this.pattern(request.search),
    };
    const total = this.count(`SELECT count(*) AS n FROM units u JOIN mines m ON m.id = u.mine_id ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT u.id, u.name, u.mine_id AS mineId, m.name AS mineName,
              (SELECT COUNT(*) FROM cafes c WHERE c.unit_id = u.id ${reach ? "AND c.id IN (SELECT value FROM json_each($cafes))" : ""}) AS cafes,
              (SELECT COUNT(*) FROM subdealership_units s WHERE s.unit_id = u.id) AS subdealerships
       FROM units u JOIN mines m ON m.id = u.mine_id ${where} ORDER BY m.name, u.name LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const offered = this.offeredBy(
      "unit_services",
      "unit_id",
      rows.map((r) => r.id),
    );
    const parents = this.offeredBy("mine_services", "mine_id", [...new Set(rows.map((r) => r.mineId))]);
    return this.paginated(
      rows.map((r) => ({ ...r, serviceIds: offered.get(r.id) ?? [], parentServiceIds: parents.get(r.mineId) ?? [] })),
      total,
      shown.page,
      request.perPage,
    );
  }

  private listCafes(request: ListRequest): Paginated<Row> {
    const from =
      "FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id LEFT JOIN businesses b ON b.id = c.business_id LEFT JOIN cities ci ON ci.id = c.city_id";
    const where = this.where(
      this.inCafes("c.id"),
      this.match(request.search, ["c.name", "u.name", "m.name", "b.name", "ci.name"]),
    );
    const params = { ...this.scopeParams, search: this.pattern(request.search) };
    const total = this.count(`SELECT count(*) AS n ${from} ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT c.id, c.name, c.business_id, c.time_zone, c.city_id, ci.name AS cityName, u.id AS unitId, u.name AS unitName,
              m.id AS mineId, m.name AS mineName, b.name AS businessName
       ${from} ${where} ORDER BY m.name, u.name, c.name LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const ids = JSON.stringify(rows.map((r) => r.id));
    const parents = this.offeredBy("unit_services", "unit_id", [...new Set(rows.map((r) => r.unitId))]);
    const areas = rows.length
      ? new Map(
          this.all(
            `SELECT c.id, (SELECT COUNT(*) FROM areas a WHERE a.cafe_id = c.id) AS areas
             FROM cafes c WHERE c.id IN (SELECT value FROM json_each($ids))`,
            { ids },
          ).map((r) => [r.id, r.areas]),
        )
      : new Map<number, number>();
    // The services a cafe offers, each with its price (null: none yet).
    const prices = rows.length
      ? groupBy(
          this.all(
            "SELECT cafe_id, service_id, price_cents FROM cafe_services WHERE cafe_id IN (SELECT value FROM json_each($ids))",
            { ids },
          ),
          (r) => r.cafe_id,
        )
      : new Map<number, Row[]>();
    const cafes = rows.map((r) => {
      const offered = (prices.get(r.id) ?? []).map((p) => ({ serviceId: p.service_id, priceCents: p.price_cents }));
      return {
        id: r.id,
        name: r.name,
        unitId: r.unitId,
        unitName: r.unitName,
        mineId: r.mineId,
        mineName: r.mineName,
        businessId: r.business_id,
        businessName: r.businessName,
        timeZone: r.time_zone,
        cityId: r.city_id,
        cityName: r.cityName,
        areas: areas.get(r.id) ?? 0,
        serviceIds: offered.map((p) => p.serviceId),
        parentServiceIds: parents.get(r.unitId) ?? [],
        priced: offered.filter((p) => p.priceCents !== null).length,
        prices: offered,
      };
    });
    return this.paginated(cafes, total, shown.page, request.perPage);
  }

  private businessOptions(): Row[] {
    return this.all(
      `SELECT id, name FROM businesses ${this.where(this.inBusinesses("id"))} ORDER BY name`,
      this.scopeParams,
    );
  }

  // ——— Businesses, headquarters, properties ———

  businessesPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const where = this.where(this.inBusinesses("b.id"), this.match(request.search, ["b.name", "b.ruc"]));
    const params = { ...this.scopeParams, search: this.pattern(request.search) };
    const total = this.count(`SELECT count(*) AS n FROM businesses b ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT b.*, (SELECT COUNT(*) FROM headquarters x WHERE x.business_id = b.id) AS hqCount, (SELECT COUNT(*) FROM cafes x WHERE x.business_id = b.id) AS cafeCount
       FROM businesses b ${where} ORDER BY b.name LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const ids = JSON.stringify(rows.map((r) => r.id));
    const services = rows.length
      ? groupBy(
          this.all("SELECT * FROM business_services WHERE business_id IN (SELECT value FROM json_each($ids))", { ids }),
          (r) => r.business_id,
        )
      : new Map<number, Row[]>();
    const cafes = rows.length
      ? groupBy(
          this.all(
            `SELECT c.business_id, c.id, c.name, u.name AS unit, m.name AS mine FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id
             WHERE c.business_id IN (SELECT value FROM json_each($ids)) ORDER BY m.name, u.name, c.name`,
            { ids },
          ),
          (r) => r.business_id,
        )
      : new Map<number, Row[]>();
    const businesses = rows.map((b) => ({
      id: b.id,
      name: b.name,
      ruc: b.ruc ?? "",
      fiscalAddress: b.fiscal_address,
      legalAddress: b.legal_address,
      email: b.email,
      phone: b.phone,
      headquarters: b.hqCount,
      cafes: b.cafeCount,
      serviceIds: (services.get(b.id) ?? []).map((s) => s.service_id),
      operatedCafes: (cafes.get(b.id) ?? []).map(({ id, name, unit, mine }) => ({ id, name, unit, mine })),
    }));
    return {
      businesses: this.paginated(businesses, total, shown.page, request.perPage),
      serviceOptions: this.serviceOptions(),
    };
  }

  headquartersPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const from =
      "FROM headquarters h JOIN businesses b ON b.id = h.business_id LEFT JOIN cities ci ON ci.id = h.city_id";
    const where = this.where(
      this.inHeadquarters("h.id"),
      this.match(request.search, ["h.name", "b.name", "h.address", "ci.name"]),
    );
    const params = { ...this.scopeParams, search: this.pattern(request.search) };
    const total = this.count(`SELECT count(*) AS n ${from} ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT h.*, b.name AS businessName, ci.name AS cityName, (SELECT COUNT(*) FROM areas x WHERE x.headquarters_id = h.id) AS areas,
              (SELECT COUNT(*) FROM properties x WHERE x.headquarters_id = h.id) AS properties
       ${from} ${where} ORDER BY b.name, h.name LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const headquarters = rows.map((h) => ({
      id: h.id,
      businessId: h.business_id,
      businessName: h.businessName,
      name: h.name,
      address: h.address,
      phone: h.phone,
      cityId: h.city_id,
      cityName: h.cityName,
      areas: h.areas,
      properties: h.properties,
    }));
    return {
      headquarters: this.paginated(headquarters, total, shown.page, request.perPage),
      businesses: this.businessOptions(),
    };
  }

  propertiesPage(query: URLSearchParams): Row {
    const request = listRequest(query);
    const scope = this.viewer.all
      ? null
      : "(p.headquarters_id IN (SELECT value FROM json_each($hqs)) OR p.cafe_id IN (SELECT value FROM json_each($cafes)))";
    const where = this.where(scope, this.match(request.search, ["p.code", "p.name", "p.serial", "p.category"]));
    const params = { ...this.scopeParams, search: this.pattern(request.search) };
    const total = this.count(`SELECT count(*) AS n FROM properties p ${where}`, params);
    const shown = this.window(total, request);
    const rows = this.all(
      `SELECT p.*, h.name AS hqName, hb.name AS hqBusiness, c.name AS cafeName, u.name AS unitName, m.name AS mineName, cb.name AS cafeBusiness
       FROM properties p
       LEFT JOIN headquarters h ON h.id = p.headquarters_id LEFT JOIN businesses hb ON hb.id = h.business_id
       LEFT JOIN cafes c ON c.id = p.cafe_id LEFT JOIN units u ON u.id = c.unit_id LEFT JOIN mines m ON m.id = u.mine_id
       LEFT JOIN businesses cb ON cb.id = c.business_id
       ${where} ORDER BY p.code LIMIT $limit OFFSET $offset`,
      { ...params, limit: shown.limit, offset: shown.offset },
    );
    const properties = rows.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      category: p.category,
      serial: p.serial,
      status: p.status,
      location:
        p.headquarters_id !== null
          ? {
              kind: "headquarters",
              id: p.headquarters_id,
              value: `hq:${p.headquarters_id}`,
              name: p.hqName ?? "",
              detail: p.hqBusiness ?? "",
            }
          : {
              kind: "cafe",
              id: p.cafe_id,
              value: `cafe:${p.cafe_id}`,
              name: p.cafeName ?? "",
              detail: `${p.unitName ?? ""} / ${p.mineName ?? ""}`,
            },
      businessName: (p.headquarters_id !== null ? p.hqBusiness : p.cafeBusiness) ?? "",
      acquiredOn: p.acquired_on,
      acquisitionValueCents: p.acquisition_value_cents,
      notes: p.notes,
      updatedAt: iso(p.updated_at),
    }));
    const hqs = this.all(
      `SELECT h.id, h.name, b.name AS business FROM headquarters h JOIN businesses b ON b.id = h.business_id ${this.where(this.inHeadquarters("h.id"))} ORDER BY b.name, h.name`,
      this.scopeParams,
    );
    const cafes = this.all(
      `SELECT c.id, c.name, u.name AS unit, m.name AS mine FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id ${this.where(this.inCafes("c.id"))} ORDER BY m.name, u.name, c.name`,
      this.scopeParams,
    );
    return {
      properties: this.paginated(properties, total, shown.page, request.perPage),
      locations: {
        headquarters: hqs.map((h) => ({ value: `hq:${h.id}`, label: `${h.name} · ${h.business}` })),
        cafes: cafes.map((c) => ({ value: `cafe:${c.id}`, label: `${c.name} · ${c.unit} / ${c.mine}` })),
      },
      categories: this.all("SELECT DISTINCT category FROM properties ORDER BY category").map((r) => r.category),
    };
  }

  // ——— Dealerships and subdealerships ———

  private dialogProps(): Row {
    return {
      dealershipOptions: this.all("SELECT id, name FROM dealerships ORDER BY name"),
      unitChoices: this.unitChoices(),
    };
  }

  private reachableUnitIds(): Set<number> {
    const reach = this.reachableParents();
    return new Set(reach ? reach.unitIds : this.all("SELECT id FROM units").map((u) => u.id));
  }

  private unitChoices(): Row[] {
    const reachable = this.reachableUnitIds();
    const mines = new Map<number, Row>();
    for (const r of this.all(
      "SELECT m.id AS mineId, m.name AS mineName, u.id AS unitId, u.name AS unitName FROM units u JOIN mines m ON m.id = u.mine_id ORDER BY m.name, u.name",
    )) {
      if (!reachable.has(r.unitId)) continue;
      let mine = mines.get(r.mineId);
      if (!mine) mines.set(r.mineId, (mine = { id: r.mineId, name: r.mineName, units: [] }));
      mine.units.push({ id: r.unitId, name: r.unitName });
    }
    return [...mines.values()];
  }

  private dealershipRow(d: Row): Row {
    return {
      id: d.id,
      name: d.name,
      ruc: d.ruc,
      fiscalAddress: d.fiscal_address,
      legalAddress: d.legal_address,
      phone: d.phone,
      email: d.email,
      subdealershipCount: d.subCount,
    };
  }

  /** Subdealership rows with their units within the scope. */
  private subdealershipRows(list: Row[]): Row[] {
    const reachable = this.reachableUnitIds();
    const units = list.length
      ? groupBy(
          this.all(
            `SELECT su.subdealership_id, u.id, u.name, m.name AS mineName FROM subdealership_units su JOIN units u ON u.id = su.unit_id JOIN mines m ON m.id = u.mine_id
             WHERE su.subdealership_id IN (SELECT value FROM json_each($ids)) ORDER BY m.name, u.name`,
            { ids: JSON.stringify(list.map((s) => s.id)) },
          ),
          (r) => r.subdealership_id,
        )
      : new Map<number, Row[]>();
    return list.map((s) => {
      const all = (units.get(s.id) ?? []).map(({ id, name, mineName }) => ({ id, name, mineName }));
      const shown = all.filter((u) => reachable.has(u.id));
      return {
        id: s.id,
        dealershipId: s.dealership_id,
        dealershipName: s.dealershipName,
        name: s.name,
        ruc: s.ruc,
        fiscalAddress: s.fiscal_address,
        legalAddress: s.legal_address,
        phone: s.phone,
        email: s.email,
        units: shown,
        hiddenUnits: all.length - shown.length,
        matched: Boolean(s.matched),
      };
    });
  }

  dealershipTreePage(query: URLSearchParams): Row {
    const request = listRequest(query, "", 10);
    const search = this.pattern(request.search);
    const childMatch = search
      ? `EXISTS (SELECT 1 FROM subdealerships s WHERE s.dealership_id = d.id AND ${this.match(request.search, ["s.name", "s.ruc"])})`
      : null;
    const where = search ? `WHERE (${this.match(request.search, ["d.name", "d.ruc"])} OR ${childMatch})` : "";
    const total = this.count(`SELECT count(*) AS n FROM dealerships d ${where}`, { search });
    const shown = this.window(total, request);
    const parents = this.all(
      `SELECT d.*, (SELECT COUNT(*) FROM subdealerships s WHERE s.dealership_id = d.id) AS subCount, ${childMatch ?? "0"} AS childMatch
       FROM dealerships d ${where} ORDER BY d.name LIMIT $limit OFFSET $offset`,
      { search, limit: shown.limit, offset: shown.offset },
    );
    const children = parents.length
      ? this.subdealershipRows(
          this.all(
            `SELECT s.*, d.name AS dealershipName, ${this.match(request.search, ["s.name", "s.ruc"]) ?? "0"} AS matched FROM subdealerships s JOIN dealerships d ON d.id = s.dealership_id
             WHERE s.dealership_id IN (SELECT value FROM json_each($ids)) ORDER BY s.name`,
            { search, ids: JSON.stringify(parents.map((p) => p.id)) },
          ),
        )
      : [];
    const byDealership = groupBy(children, (c) => c.dealershipId);
    const tree = parents.map((p) => ({
      ...this.dealershipRow(p),
      subdealerships: byDealership.get(p.id) ?? [],
      expanded: Boolean(p.childMatch),
    }));
    return { tree: this.paginated(tree, total, shown.page, request.perPage), ...this.dialogProps() };
  }
}
