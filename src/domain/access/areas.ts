/**
 * Areas: departments of exactly one cafe or one headquarters, each offering some roles. Users hold roles in
 * areas. An actor sees and changes only the areas within their scope (see scope.ts).
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import {
  areaRoles,
  areas,
  assignments,
  cafes,
  headquarters,
  mines,
  roles,
  units,
  businesses,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { cafeOrHeadquarters, recordAudit, unionOfPlaces, type Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import {
  boundNumber,
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type PageRequest,
} from "../search";
import { parseInput, t } from "../validation";
import { bumpAccessVersion } from "./authorization";
import { scopeValues, type Scope, reachesHeadquarters, reachesCafe } from "./scope";
import type { AreaSummary } from "../../shared/access/types";
export type { AreaSummary } from "../../shared/access/types";

export type Area = typeof areas.$inferSelect;

/** SQL condition limiting areas to the scope. */
export function areaScopeCondition(scope: Scope) {
  if (scope.all) return undefined;
  const cafeIds = [...scope.cafeIds];
  const hqIds = [...scope.headquartersIds];
  if (cafeIds.length === 0 && hqIds.length === 0) return sql`0`;
  const parts = [];
  if (cafeIds.length) parts.push(inArray(areas.cafeId, cafeIds));
  if (hqIds.length) parts.push(inArray(areas.headquartersId, hqIds));
  return parts.length === 1 ? parts[0] : sql`(${parts[0]} OR ${parts[1]})`;
}

/**
 * areaScopeCondition for prepared statements: the area belongs to one of the cafes or headquarters bound to the
 * `cafes` and `headquarters` placeholders (scopeValues). Like areaScopeCondition it is NULL, not false, for a
 * headquarters area outside the scope (`cafe_id IN …` of a NULL cafe), so a negation needs COALESCE.
 */
export function areaInScope(): SQL {
  return sql`(${inIdList(areas.cafeId, "cafes")} OR ${inIdList(areas.headquartersId, "headquarters")})`;
}

/** The area, if it exists within the scope (outside it looks the same as missing). */
export function requireArea(db: Db, scope: Scope, id: number): Area {
  const area = db
    .select()
    .from(areas)
    .where(and(eq(areas.id, id), areaScopeCondition(scope)))
    .get();
  if (!area) throw new NotFound();
  return area;
}

export interface AreaFilter {
  search?: string;
  cafeId?: number;
  headquartersId?: number;
}

/** The prepared list's condition; the shape says which parts it has (their values are bound by listAreas). */
function listCondition(all: boolean, searched: boolean, byCafe: boolean, byHeadquarters: boolean): SQL | undefined {
  return and(
    all ? undefined : areaInScope(),
    searched ? searchMatch([areas.name, cafes.name, headquarters.name]) : undefined,
    byCafe ? eq(areas.cafeId, boundNumber("cafe")) : undefined,
    byHeadquarters ? eq(areas.headquartersId, boundNumber("headquarter")) : undefined,
  );
}

type AreaListShape = [all: boolean, searched: boolean, byCafe: boolean, byHeadquarters: boolean];

const countAreas = preparedQuery((db, ...shape: AreaListShape) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(areas)
    .leftJoin(cafes, eq(cafes.id, areas.cafeId))
    .leftJoin(headquarters, eq(headquarters.id, areas.headquartersId))
    .where(listCondition(...shape))
    .prepare(),
);

const areasPage = preparedQuery((db, ...shape: AreaListShape) =>
  db
    .select({
      area: areas,
      cafeName: cafes.name,
      unitName: units.name,
      mineName: mines.name,
      hqName: headquarters.name,
      businessName: businesses.name,
      members: sql<number>`(SELECT COUNT(*) FROM assignments a WHERE a.area_id = ${areas.id})`,
    })
    .from(areas)
    .leftJoin(cafes, eq(cafes.id, areas.cafeId))
    .leftJoin(units, eq(units.id, cafes.unitId))
    .leftJoin(mines, eq(mines.id, units.mineId))
    .leftJoin(headquarters, eq(headquarters.id, areas.headquartersId))
    .leftJoin(businesses, eq(businesses.id, headquarters.businessId))
    .where(listCondition(...shape))
    .orderBy(asc(areas.name), asc(areas.id))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

const rolesOfferedIn = preparedQuery((db) =>
  db
    .select({ areaId: areaRoles.areaId, id: roles.id, name: roles.name })
    .from(areaRoles)
    .innerJoin(roles, eq(roles.id, areaRoles.roleId))
    .where(inIdList(areaRoles.areaId, "ids"))
    .orderBy(asc(roles.name))
    .prepare(),
);

/** Areas within the scope, filtered; a page of them when `page` is given, all of them otherwise (choices in a modal). */
export function listAreas(db: Db, scope: Scope, filter: AreaFilter = {}, page?: PageRequest): ListResult<AreaSummary> {
  const search = searchPattern(filter.search);
  const shape: AreaListShape = [scope.all, search !== null, Boolean(filter.cafeId), Boolean(filter.headquartersId)];
  const values = {
    ...scopeValues(scope),
    search,
    cafe: filter.cafeId ?? null,
    headquarter: filter.headquartersId ?? null,
  };
  const found = readList(
    page,
    () => countAreas(db, ...shape).get(values)?.n ?? 0,
    (window) => areasPage(db, ...shape).all({ ...values, ...window }),
  );
  const rows = found.rows;
  const offered = rows.length ? rolesOfferedIn(db).all({ ids: idList(rows.map((r) => r.area.id)) }) : [];
  // Grouped once: matching each area against every offered role would be quadratic on a whole company's areas.
  const rolesByArea = new Map<number, { id: number; name: string }[]>();
  for (const { areaId, id, name } of offered) {
    const list = rolesByArea.get(areaId) ?? [];
    list.push({ id, name });
    rolesByArea.set(areaId, list);
  }
  const summaries = rows.map((r) => ({
    id: r.area.id,
    name: r.area.name,
    place: r.area.cafeId
      ? {
          kind: "cafe" as const,
          id: r.area.cafeId,
          name: r.cafeName ?? "",
          path: [r.mineName, r.unitName, r.cafeName].filter(Boolean).join(" › "),
        }
      : {
          kind: "headquarters" as const,
          id: r.area.headquartersId!,
          name: r.hqName ?? "",
          path: [r.businessName, r.hqName].filter(Boolean).join(" › "),
        },
    roles: rolesByArea.get(r.area.id) ?? [],
    members: r.members,
  }));
  return { rows: summaries, total: found.total, page: found.page };
}

export const AreaInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 80 }),
  cafe_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  headquarters_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  role_ids: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 200 })),
});

function checkPlace(
  db: Db,
  scope: Scope,
  data: { cafe_id?: number | null; headquarters_id?: number | null },
): { cafeId: number | null; headquartersId: number | null } {
  const cafeId = data.cafe_id ?? null;
  const headquartersId = data.headquarters_id ?? null;
  if ((cafeId === null) === (headquartersId === null))
    throw new ValidationFailed({ place: message("access.area_one_place") });
  if (cafeId !== null) {
    if (!db.select({ id: cafes.id }).from(cafes).where(eq(cafes.id, cafeId)).get() || !reachesCafe(scope, cafeId)) {
      throw new ValidationFailed({ cafe_id: message("access.place_not_found") });
    }
  } else if (
    !db.select({ id: headquarters.id }).from(headquarters).where(eq(headquarters.id, headquartersId!)).get() ||
    !reachesHeadquarters(scope, headquartersId!)
  ) {
    throw new ValidationFailed({ headquarters_id: message("access.place_not_found") });
  }
  return { cafeId, headquartersId };
}

function checkRoles(db: Db, scope: Scope, roleIds: number[]): number[] {
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return [];
  const found = db.select({ id: roles.id, isSuper: roles.isSuper }).from(roles).where(inArray(roles.id, unique)).all();
  if (found.length !== unique.length) throw new ValidationFailed({ role_ids: message("access.unknown_roles") });
  // Only a super-administrator may offer the super-administrator role in an area.
  if (found.some((r) => r.isSuper) && !scope.all)
    throw new ValidationFailed({ role_ids: message("access.super_role_reserved") });
  return unique;
}

function ensureNameFree(
  db: Db,
  name: string,
  place: { cafeId: number | null; headquartersId: number | null },
  exceptId?: number,
): void {
  const existing = db
    .select({ id: areas.id })
    .from(areas)
    .where(
      and(
        eq(areas.name, name),
        place.cafeId ? eq(areas.cafeId, place.cafeId) : eq(areas.headquartersId, place.headquartersId!),
      ),
    )
    .get();
  if (existing && existing.id !== exceptId) throw new ValidationFailed({ name: message("access.area_name_taken") });
}

function offeredRoleIds(db: Db, areaId: number): number[] {
  return db
    .select({ id: areaRoles.roleId })
    .from(areaRoles)
    .where(eq(areaRoles.areaId, areaId))
    .all()
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

export function createArea(db: Db, actor: Actor, scope: Scope, input: unknown): Area {
  const data = parseInput(AreaInput, input);
  const place = checkPlace(db, scope, data);
  ensureNameFree(db, data.name, place);
  const roleIds = checkRoles(db, scope, data.role_ids ?? []);
  return db.transaction((tx) => {
    const area = tx
      .insert(areas)
      .values({ name: data.name, ...place })
      .returning()
      .get();
    for (const roleId of roleIds) tx.insert(areaRoles).values({ areaId: area.id, roleId }).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "area.created",
      subjectType: "area",
      subjectId: area.id,
      places: [cafeOrHeadquarters(area)],
      after: { name: area.name, ...place, roleIds },
    });
    return area;
  });
}

/** Renames, moves and sets the roles an area offers; a role still held in the area cannot be withdrawn. */
export function updateArea(db: Db, actor: Actor, scope: Scope, areaId: number, input: unknown): Area {
  const area = requireArea(db, scope, areaId);
  const data = parseInput(AreaInput, input);
  const place = checkPlace(db, scope, data);
  ensureNameFree(db, data.name, place, area.id);
  const roleIds = checkRoles(db, scope, data.role_ids ?? []);
  const held = db
    .select({ roleId: assignments.roleId })
    .from(assignments)
    .where(eq(assignments.areaId, area.id))
    .all()
    .map((r) => r.roleId);
  const withdrawn = held.filter((id) => !roleIds.includes(id));
  if (withdrawn.length) throw new ValidationFailed({ role_ids: message("access.role_still_held") });
  const before = {
    name: area.name,
    cafeId: area.cafeId,
    headquartersId: area.headquartersId,
    roleIds: offeredRoleIds(db, area.id),
  };
  return db.transaction((tx) => {
    const updated = tx
      .update(areas)
      .set({ name: data.name, ...place })
      .where(eq(areas.id, area.id))
      .returning()
      .get();
    tx.delete(areaRoles).where(eq(areaRoles.areaId, area.id)).run();
    for (const roleId of roleIds) tx.insert(areaRoles).values({ areaId: area.id, roleId }).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "area.updated",
      subjectType: "area",
      subjectId: area.id,
      places: unionOfPlaces([cafeOrHeadquarters(area)], [cafeOrHeadquarters(updated)]),
      before,
      after: { name: data.name, ...place, roleIds: [...roleIds].sort((a, b) => a - b) },
    });
    return updated;
  });
}

/** Deletes an area nobody holds a role in. */
export function deleteArea(db: Db, actor: Actor, scope: Scope, areaId: number): void {
  const area = requireArea(db, scope, areaId);
  const members =
    db
      .select({ n: sql<number>`count(*)` })
      .from(assignments)
      .where(eq(assignments.areaId, area.id))
      .get()?.n ?? 0;
  if (members > 0) throw new Conflict(message("access.area_in_use", { count: members }));
  db.transaction((tx) => {
    tx.delete(areas).where(eq(areas.id, area.id)).run();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "area.deleted",
      subjectType: "area",
      subjectId: area.id,
      places: [cafeOrHeadquarters(area)],
      before: { name: area.name, cafeId: area.cafeId, headquartersId: area.headquartersId },
    });
  });
}
