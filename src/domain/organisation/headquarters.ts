/**
 * Headquarters: the offices of a business (name unique within it, address, phone). People of a headquarters
 * area reach every headquarters of its business, so creating, deleting or moving a headquarters to another
 * business bumps the access version in the same transaction. A headquarters cannot be deleted while it has
 * areas or keeps properties. A headquarters may be in a city (src/domain/food/cities.ts): as a logistics centre it
 * stocks from the offers there.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { areas, businesses, cities, headquarters, properties } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { bumpAccessVersion } from "../access/authorization";
import { reachesBusiness, reachesHeadquarters, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { chosenCity } from "../food/cities";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import {
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type PageRequest,
  type SortRequest,
} from "../search";
import { listSort, orderOf, type ListSort } from "../places/list-sort";
import { field, parseInput, t } from "../validation";
import type { HeadquartersRow } from "../../shared/organisation/types";
export type { HeadquartersRow } from "../../shared/organisation/types";

export type Headquarters = typeof headquarters.$inferSelect;

export interface HeadquartersFilter {
  search?: string;
}

const areasCount = sql<number>`(SELECT COUNT(*) FROM areas x WHERE x.headquarters_id = headquarters.id)`;
const propertiesCount = sql<number>`(SELECT COUNT(*) FROM properties x WHERE x.headquarters_id = headquarters.id)`;

/** The condition limiting headquarters to the scope. */
export function headquartersScopeCondition(scope: Scope): SQL | undefined {
  if (scope.all) return undefined;
  const ids = [...scope.headquartersIds];
  return ids.length ? inArray(headquarters.id, ids) : sql`0`;
}

/** The prepared list's condition: within the ids bound to `headquarters` (unless `all`), matching SEARCH (when searched). */
function listCondition(all: boolean, searched: boolean): SQL | undefined {
  return and(
    all ? undefined : inIdList(headquarters.id, "headquarters"),
    searched ? searchMatch([headquarters.name, businesses.name, headquarters.address, cities.name]) : undefined,
  );
}

const countHeadquarters = preparedQuery((db, all: boolean, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(headquarters)
    .innerJoin(businesses, eq(businesses.id, headquarters.businessId))
    .leftJoin(cities, eq(cities.id, headquarters.cityId))
    .where(listCondition(all, searched))
    .prepare(),
);

/** The columns the headquarters table sorts by on the server. */
const HEADQUARTERS_SORTS = {
  name: headquarters.name,
  business: businesses.name,
  address: headquarters.address,
  city: cities.name,
  areas: areasCount,
  properties: propertiesCount,
};

const headquartersPage = preparedQuery(
  (db, all: boolean, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
    db
      .select({
        hq: headquarters,
        businessName: businesses.name,
        cityName: cities.name,
        areas: areasCount,
        properties: propertiesCount,
      })
      .from(headquarters)
      .innerJoin(businesses, eq(businesses.id, headquarters.businessId))
      .leftJoin(cities, eq(cities.id, headquarters.cityId))
      .where(listCondition(all, searched))
      .orderBy(
        ...orderOf(
          HEADQUARTERS_SORTS,
          [sort, direction],
          [asc(businesses.name), asc(headquarters.name), asc(headquarters.id)],
        ),
      )
      .limit(LIMIT)
      .offset(OFFSET)
      .prepare(),
);

/** Headquarters within the scope matching the search, by business and name (or the allowed column asked for); every one when `page` is left out. */
export function listHeadquarters(
  db: Db,
  scope: Scope,
  filter: HeadquartersFilter,
  page?: PageRequest,
  sort?: SortRequest,
): ListResult<HeadquartersRow> {
  const search = searchPattern(filter.search);
  const shape = [scope.all, search !== null] as const;
  const values = { headquarters: scope.all ? null : idList(scope.headquartersIds), search };
  return readList(
    page,
    () => countHeadquarters(db, ...shape).get(values)?.n ?? 0,
    (window) =>
      headquartersPage(db, ...shape, ...listSort(HEADQUARTERS_SORTS, sort))
        .all({ ...values, ...window })
        .map(({ hq, businessName, cityName, areas, properties }) => ({
          id: hq.id,
          businessId: hq.businessId,
          businessName,
          name: hq.name,
          address: hq.address,
          phone: hq.phone,
          cityId: hq.cityId,
          cityName,
          areas,
          properties,
        })),
  );
}

/** The headquarters, when it exists and lies within the scope; NotFound otherwise. */
export function requireHeadquarters(db: Db, scope: Scope, id: number): Headquarters {
  const hq = db.select().from(headquarters).where(eq(headquarters.id, id)).get();
  if (!hq || !reachesHeadquarters(scope, hq.id)) throw new NotFound();
  return hq;
}

export const HeadquartersInput = t.Object({
  business_id: t.Integer({ minimum: 1 }),
  name: field.text(2, 120),
  address: field.text(3, 255),
  phone: field.optionalText(30),
  /** Left out: unchanged (a new headquarters has none); null: none. */
  city_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
});

/** The chosen business must exist and be within the scope (one the dialog offers). */
function ensureBusinessChoice(db: Db, scope: Scope, businessId: number): void {
  const business = db.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).get();
  if (!business || !reachesBusiness(scope, business.id))
    throw new ValidationFailed({ business_id: message("validation.invalid_choice") });
}

function ensureNameFree(db: Db, businessId: number, name: string, exceptId?: number): void {
  const existing = db
    .select({ id: headquarters.id })
    .from(headquarters)
    .where(and(eq(headquarters.businessId, businessId), sql`lower(${headquarters.name}) = lower(${name})`))
    .get();
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ name: message("headquarters.name_taken", { name }) });
}

function snapshot(h: Headquarters) {
  // The city is recorded once a headquarters has one (those made before cities have none).
  return {
    businessId: h.businessId,
    name: h.name,
    address: h.address,
    phone: h.phone,
    ...(h.cityId === null ? {} : { cityId: h.cityId }),
  };
}

/** Creates a headquarters of a business within the scope. */
export function createHeadquarters(db: Db, actor: Actor, scope: Scope, input: unknown): Headquarters {
  const data = parseInput(HeadquartersInput, input);
  ensureBusinessChoice(db, scope, data.business_id);
  ensureNameFree(db, data.business_id, data.name);
  const city = chosenCity(db, data.city_id);
  return db.transaction((tx) => {
    const hq = tx
      .insert(headquarters)
      .values({
        businessId: data.business_id,
        name: data.name,
        address: data.address,
        phone: data.phone ?? "",
        cityId: city?.id ?? null,
      })
      .returning()
      .get();
    bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "headquarters.created",
      subjectType: "headquarters",
      subjectId: hq.id,
      places: [{ headquartersId: hq.id }],
      after: snapshot(hq),
    });
    return hq;
  });
}

/** Edits a headquarters within the scope; moving it to another business refreshes everyone's scope. */
export function updateHeadquarters(db: Db, actor: Actor, scope: Scope, id: number, input: unknown): Headquarters {
  const data = parseInput(HeadquartersInput, input);
  const hq = requireHeadquarters(db, scope, id);
  if (data.business_id !== hq.businessId) ensureBusinessChoice(db, scope, data.business_id);
  ensureNameFree(db, data.business_id, data.name, id);
  const cityId = data.city_id === undefined ? hq.cityId : (chosenCity(db, data.city_id)?.id ?? null);
  return db.transaction((tx) => {
    const updated = tx
      .update(headquarters)
      .set({ businessId: data.business_id, name: data.name, address: data.address, phone: data.phone ?? "", cityId })
      .where(eq(headquarters.id, id))
      .returning()
      .get();
    if (updated.businessId !== hq.businessId) bumpAccessVersion(tx);
    recordAudit(tx, actor, {
      action: "headquarters.updated",
      subjectType: "headquarters",
      subjectId: id,
      places: [{ headquartersId: id }],
      before: snapshot(hq),
      after: snapshot(updated),
    });
    return updated;
  });
}

/** How many areas hang from the headquarters and how many properties it keeps. */
export function headquartersUsage(db: Db, id: number): { areas: number; properties: number } {
  return {
    areas:
      db
        .select({ n: sql<number>`count(*)` })
        .from(areas)
        .where(eq(areas.headquartersId, id))
        .get()?.n ?? 0,
    properties:
      db
        .select({ n: sql<number>`count(*)` })
        .from(properties)
        .where(eq(properties.headquartersId, id))
        .get()?.n ?? 0,
  };
}

/** Deletes a headquarters without areas or properties (Conflict otherwise, naming both counts). */
export function deleteHeadquarters(db: Db, actor: Actor, scope: Scope, id: number): Headquarters {
  const hq = requireHeadquarters(db, scope, id);
  const usage = headquartersUsage(db, id);
  if (usage.areas + usage.properties > 0)
    throw new Conflict(message("headquarters.in_use", { name: hq.name, ...usage }));
  db.transaction((tx) => {
    tx.delete(headquarters).where(eq(headquarters.id, id)).run();
    bumpAccessVersion(tx);
    // The headquarters is gone from every scope: the entry belongs to its business.
    recordAudit(tx, actor, {
      action: "headquarters.deleted",
      subjectType: "headquarters",
      subjectId: id,
      places: [{ businessId: hq.businessId }],
      before: snapshot(hq),
    });
  });
  return hq;
}
