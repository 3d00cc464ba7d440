/**
 * The audit trail: every change to users, roles, permissions, areas, places, organisation and the blacklist is
 * recorded with who made it, when, the values before and after, and the places it is about. A viewer reads the
 * entries whose places all lie in their scope; entries about company-wide data (no places) only the
 * super-administrator and holders of `audit.view` in a headquarters area read.
 */
import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  areas,
  assignments,
  auditLog,
  auditPlaces,
  blacklist,
  businesses,
  cafes,
  dealerships,
  headquarters,
  mines,
  properties,
  services,
  subdealerships,
  units,
  users,
  type AuditPlaceKind,
} from "../../db/schema";
import { preparedQuery, type Db, type DbTransaction } from "../db";
import type { AccessProfile } from "./access/authorization";
import { scopeOf, type Scope } from "./access/scope";
import { translate, type Locale } from "../shared/i18n";
import { roleLabel } from "../shared/access/built-in-roles";
import { permissionLabel } from "../shared/access/permissions";
import { actionLabel, AUDIT_ACTIONS, AUDIT_SUBJECTS, subjectLabel } from "./audit-view";
import { foldText, pageWindow, searchCondition, type ListResult } from "./search";

/** Who is acting: a signed-in user, or the command line. */
export interface Actor {
  userId: number | null;
  label: string;
}

export const CLI_ACTOR: Actor = { userId: null, label: "cli" };

export type Tx = DbTransaction | Db;

/** A place an audit entry is about. */
export type AuditPlace =
  { cafeId: number } | { headquartersId: number } | { unitId: number } | { mineId: number } | { businessId: number };

/** The places of an entry about company-wide data (roles, permissions, the services catalogue, dealerships): none. */
export const COMPANY_WIDE: readonly AuditPlace[] = [];

export interface AuditEntry {
  action: string;
  subjectType: string;
  subjectId: number | null;
  /** Every place the entry is about, as it was when the change was made; COMPANY_WIDE for company-wide data. */
  places: readonly AuditPlace[];
  before?: unknown;
  after?: unknown;
}

function placeRow(place: AuditPlace): { kind: AuditPlaceKind; placeId: number } {
  if ("cafeId" in place) return { kind: "cafe", placeId: place.cafeId };
  if ("headquartersId" in place) return { kind: "headquarters", placeId: place.headquartersId };
  if ("unitId" in place) return { kind: "unit", placeId: place.unitId };
  if ("mineId" in place) return { kind: "mine", placeId: place.mineId };
  return { kind: "business", placeId: place.businessId };
}

// Every change writes an entry: both statements are prepared once per connection.
const P = (name: string) => sql.placeholder(name);
const insertEntry = preparedQuery((db: Db) =>
  db
    .insert(auditLog)
    .values({
      actorId: P("actorId"),
      actorLabel: P("actorLabel"),
      action: P("action"),
      subjectType: P("subjectType"),
      subjectId: P("subjectId"),
      before: P("before"),
      after: P("after"),
      createdAt: P("createdAt"),
    })
    .returning({ id: auditLog.id })
    .prepare(),
);
const insertPlace = preparedQuery((db: Db) =>
  db
    .insert(auditPlaces)
    .values({ auditId: P("auditId"), kind: P("kind"), placeId: P("placeId") })
    .onConflictDoNothing()
    .prepare(),
);

/** Writes one audit entry and its places (inside the caller's transaction when given one). */
export function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry, now = new Date()): void {
  const { id } = insertEntry(tx).get({
    actorId: actor.userId,
    actorLabel: actor.label,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId ?? null,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
    createdAt: now,
  })!;
  for (const place of entry.places) insertPlace(tx).run({ auditId: id, ...placeRow(place) });
}

// ——— Places of the things audited ———

/** The place of a mine, unit or cafe of the place tree. */
export function treePlace(kind: "mine" | "unit" | "cafe", id: number): AuditPlace {
  return kind === "mine" ? { mineId: id } : kind === "unit" ? { unitId: id } : { cafeId: id };
}

/** The place of something kept at a cafe or a headquarters (an area, a property). */
export function cafeOrHeadquarters(at: { cafeId: number | null; headquartersId: number | null }): AuditPlace {
  return at.cafeId !== null ? { cafeId: at.cafeId } : { headquartersId: at.headquartersId! };
}

/** The place of an area, read now (call before the area is deleted or moved). */
export function placesOfArea(tx: Tx, areaId: number): AuditPlace[] {
  const area = tx
    .select({ cafeId: areas.cafeId, headquartersId: areas.headquartersId })
    .from(areas)
    .where(eq(areas.id, areaId))
    .get();
  return area ? [cafeOrHeadquarters(area)] : [];
}

/** The places of every area the user holds a role in right now (none: an account without roles is company-wide). */
export function placesOfUser(tx: Tx, userId: number): AuditPlace[] {
  const rows = tx
    .select({ cafeId: areas.cafeId, headquartersId: areas.headquartersId })
    .from(assignments)
    .innerJoin(areas, eq(areas.id, assignments.areaId))
    .where(eq(assignments.userId, userId))
    .all();
  return unionOfPlaces(rows.map(cafeOrHeadquarters));
}

/** The places of all the lists, each once (an entry about a change: the places before and after). */
export function unionOfPlaces(...lists: (readonly AuditPlace[])[]): AuditPlace[] {
  const seen = new Map<string, AuditPlace>();
  for (const place of lists.flat()) {
    const { kind, placeId } = placeRow(place);
    seen.set(`${kind}:${placeId}`, place);
  }
  return [...seen.values()];
}

// ——— Reading ———

/** Who reads the audit: their place scope, and whether they read entries about company-wide data. */
export interface AuditViewer {
  scope: Scope;
  companyWide: boolean;
}

/** The audit viewer a user is: company-wide entries need the super-administrator or `audit.view` at headquarters. */
export function auditViewerOf(profile: AccessProfile): AuditViewer {
  return { scope: scopeOf(profile), companyWide: profile.isSuper || profile.headquartersPermissions.has("audit.view") };
}

/** The entries `viewer` may read, as a condition on audit_log. */
function visibleTo(viewer: AuditViewer): SQL | undefined {
  if (viewer.scope.all) return undefined;
  const ids = (set: ReadonlySet<number>) => sql`(SELECT value FROM json_each(${JSON.stringify([...set])}))`;
  const cafeIds = ids(viewer.scope.cafeIds);
  // A place within the scope: a cafe, headquarters or business of the scope, or a unit or mine holding one of its cafes.
  const inScope = sql`(
    (p.kind = 'cafe' AND p.place_id IN ${cafeIds})
    OR (p.kind = 'headquarters' AND p.place_id IN ${ids(viewer.scope.headquartersIds)})
    OR (p.kind = 'business' AND p.place_id IN ${ids(viewer.scope.businessIds)})
    OR (p.kind = 'unit' AND EXISTS (SELECT 1 FROM cafes c WHERE c.unit_id = p.place_id AND c.id IN ${cafeIds}))
    OR (p.kind = 'mine' AND EXISTS (SELECT 1 FROM cafes c JOIN units u ON u.id = c.unit_id WHERE u.mine_id = p.place_id AND c.id IN ${cafeIds}))
  )`;
  const hasPlaces = sql`EXISTS (SELECT 1 FROM audit_places p WHERE p.audit_id = ${auditLog.id})`;
  const allPlacesInScope = sql`NOT EXISTS (SELECT 1 FROM audit_places p WHERE p.audit_id = ${auditLog.id} AND NOT ${inScope})`;
  // An entry about a person also follows where that person works now: once they hold a role outside the viewer's
  // places, their e-mail and document in older entries are out of sight too (as the person is on the Users page).
  const areaInScope = sql`COALESCE(ar.cafe_id IN ${cafeIds} OR ar.headquarters_id IN ${ids(viewer.scope.headquartersIds)}, 0)`;
  const personInScope = sql`(${auditLog.subjectType} <> 'user' OR NOT EXISTS (
    SELECT 1 FROM assignments a JOIN areas ar ON ar.id = a.area_id WHERE a.user_id = ${auditLog.subjectId} AND NOT ${areaInScope}))`;
  if (viewer.companyWide) return sql`((NOT ${hasPlaces} OR ${allPlacesInScope}) AND ${personInScope})`;
  // For a place-bound viewer an entry must have a place in scope: the candidates come from audit_places' (kind,
  // place_id) index first, so the conditions above run on the viewer's entries rather than on the whole trail.
  const candidates = sql`${auditLog.id} IN (
    SELECT audit_id FROM audit_places WHERE kind = 'cafe' AND place_id IN ${cafeIds}
    UNION SELECT audit_id FROM audit_places WHERE kind = 'headquarters' AND place_id IN ${ids(viewer.scope.headquartersIds)}
    UNION SELECT audit_id FROM audit_places WHERE kind = 'business' AND place_id IN ${ids(viewer.scope.businessIds)}
    UNION SELECT audit_id FROM audit_places WHERE kind = 'unit' AND place_id IN (SELECT unit_id FROM cafes WHERE id IN ${cafeIds})
    UNION SELECT audit_id FROM audit_places WHERE kind = 'mine' AND place_id IN (SELECT u.mine_id FROM units u JOIN cafes c ON c.unit_id = u.id WHERE c.id IN ${cafeIds}))`;
  return sql`(${candidates} AND ${allPlacesInScope} AND ${personInScope})`;
}

export interface AuditRow {
  id: number;
  /** The acting user, while their account exists; null for the command line, a visitor or a deleted account. */
  actorId: number | null;
  /** "cli", "guest", or the e-mail the acting user had (never shown: audit-view.ts names the actor). */
  actorLabel: string;
  /** The acting user's name now. */
  actorName: string | null;
  action: string;
  subjectType: string;
  subjectId: number | null;
  before: unknown;
  after: unknown;
  createdAt: string;
}

/** The JSON array of ids, for `IN (SELECT value FROM json_each(?))`. */
const idList = (ids: Iterable<number>) => sql`(SELECT value FROM json_each(${JSON.stringify([...ids])}))`;

/** A table whose rows an audit entry can be about, with the columns that name a row. */
interface NamedTable {
  table: SQLiteTable & { id: SQLiteColumn };
  columns: SQLiteColumn[];
}

/** The ids of the rows of a (small) table whose name contains the search (searchCondition: folded, or its copy). */
function idsNamed(db: Db, { table, columns }: NamedTable, search: string): number[] {
  return db
    .select({ id: table.id })
    .from(table)
    .where(searchCondition(search, columns))
    .all()
    .map((r) => r.id as number);
}

/** Subjects searched by their names now: each kind's table and the columns that name its rows. */
const NAMED_SUBJECTS: [subjectType: string, named: NamedTable][] = [
  ["user", { table: users, columns: [users.name] }],
  ["area", { table: areas, columns: [areas.name] }],
  ["cafe", { table: cafes, columns: [cafes.name] }],
  ["unit", { table: units, columns: [units.name] }],
  ["mine", { table: mines, columns: [mines.name] }],
  ["headquarters", { table: headquarters, columns: [headquarters.name] }],
  ["business", { table: businesses, columns: [businesses.name] }],
  ["dealership", { table: dealerships, columns: [dealerships.name] }],
  ["subdealership", { table: subdealerships, columns: [subdealerships.name] }],
  ["service", { table: services, columns: [services.name, services.code] }],
  ["property", { table: properties, columns: [properties.name, properties.code] }],
  ["blacklist", { table: blacklist, columns: [blacklist.name, blacklist.documentNumber] }],
];

/**
 * The entries a search finds, as the page shows them: the action and the kind of subject in the viewer's words or
 * as keys, the actor by the name shown (never the e-mail behind it), the subject by its name now. The text is
 * folded once and matched against the few names of each kind here; the audit's rows are then compared by keys and
 * ids only, with no function called per row, so a search over the whole trail costs about what its scan costs.
 */
function auditSearch(db: Db, search: string | undefined, locale: Locale): SQL | undefined {
  const typed = search?.trim();
  if (!typed) return undefined;
  const folded = foldText(typed);
  const has = (text: string) => foldText(text).includes(folded);
  const found: SQL[] = [];
  // Actions and kinds of subject by key or by their words: matched here against the catalogue, so the rows are
  // compared by key only.
  const actions = AUDIT_ACTIONS.filter((a) => a.includes(folded) || has(actionLabel(a, locale)));
  if (actions.length) found.push(inArray(auditLog.action, actions));
  const subjects = AUDIT_SUBJECTS.filter((s) => s.includes(folded) || has(subjectLabel(s, locale)));
  if (subjects.length) found.push(inArray(auditLog.subjectType, subjects));
  const actors = idsNamed(db, NAMED_SUBJECTS[0][1], typed);
  if (actors.length) found.push(sql`${auditLog.actorId} IN ${idList(actors)}`);
  for (const label of ["cli", "guest"] as const)
    if (has(translate(locale, `access.audit.actors.${label}`)) || label.includes(folded))
      found.push(sql`(${auditLog.actorId} IS NULL AND ${auditLog.actorLabel} = ${label})`);
  if (has(translate(locale, "access.audit.actors.deleted")))
    found.push(sql`(${auditLog.actorId} IS NULL AND ${auditLog.actorLabel} NOT IN ('cli', 'guest'))`);
  const subject = (type: string, ids: number[]) => {
    if (ids.length) found.push(sql`(${auditLog.subjectType} = ${type} AND ${auditLog.subjectId} IN ${idList(ids)})`);
  };
  for (const [type, named] of NAMED_SUBJECTS) subject(type, type === "user" ? actors : idsNamed(db, named, typed));
  const roles = db.$client.query<{ id: number; name: string }, []>("SELECT id, name FROM roles").all();
  subject(
    "role",
    roles.filter((r) => has(r.name) || has(roleLabel(r.name, locale))).map((r) => r.id),
  );
  const permissionRows = db.$client.query<{ id: number; name: string }, []>("SELECT id, name FROM permissions").all();
  subject(
    "permission",
    permissionRows.filter((p) => has(p.name) || has(permissionLabel(p.name, locale))).map((p) => p.id),
  );
  // Nothing by that name: no entry, without reading the trail.
  return found.length ? or(...found) : sql`0`;
}

/**
 * The entries `viewer` may read, newest first, paginated and optionally searched (see auditSearch) in the viewer's
 * language.
 */
export function listAudit(
  db: Db,
  viewer: AuditViewer,
  options: { page: number; perPage: number; search?: string; locale?: Locale },
): ListResult<AuditRow> {
  const where = and(auditSearch(db, options.search, options.locale ?? "es"), visibleTo(viewer));
  const total =
    db
      .select({ n: sql<number>`count(*)` })
      .from(auditLog)
      .where(where)
      .get()?.n ?? 0;
  const page = pageWindow(total, options);
  const rows = db
    .select({ entry: auditLog, actorName: users.name })
    .from(auditLog)
    .leftJoin(users, sql`${users.id} = ${auditLog.actorId}`)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  return {
    total,
    page: page.page,
    rows: rows.map(({ entry, actorName }) => ({
      id: entry.id,
      actorId: entry.actorId,
      actorLabel: entry.actorLabel,
      actorName,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      before: entry.before ? JSON.parse(entry.before) : null,
      after: entry.after ? JSON.parse(entry.after) : null,
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}
