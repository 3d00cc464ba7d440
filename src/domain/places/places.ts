/**
 * Places: mines, units and cafes. Names are unique within their parent. A cafe has an issuing business and a time
 * zone (APP_TIMEZONE unless chosen), and may be in a city (src/domain/food/cities.ts), whose offers it is supplied from. A place is deleted only when nothing depends on it: a mine without units, a
 * unit without cafes or subdealerships, a cafe without areas or properties; the refusal says what is in the way.
 *
 * Scope: a cafe is reachable when it is in the actor's scope; a mine or unit when it contains such a cafe. Outside
 * the scope a place looks missing (NotFound). An actor without an all-places scope creates a cafe only for a
 * business of their headquarters areas (so it stays in their scope), and a new mine or unit only together with
 * such a cafe (the management modal). Creating, deleting or re-assigning a cafe bumps the access version, because
 * scopes derive from cafes and their businesses.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import {
  areas,
  businesses,
  cafes,
  cafeServices,
  cities,
  mines,
  mineServices,
  properties,
  subdealershipUnits,
  units,
  unitServices,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { cafeSalesUsage } from "../sales/usage";
import { bumpAccessVersion } from "../access/authorization";
import { reachesBusiness, type Scope, reachesCafe } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { chosenCity } from "../food/cities";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import type { TranslationKey } from "../../shared/i18n";
import {
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchCondition,
  searchMatch,
  searchPattern,
  type ListResult,
  type SortRequest,
} from "../search";
import { listSort, orderOf, type ListSort } from "./list-sort";
import type { Static } from "@sinclair/typebox";
import { parseInput, t } from "../validation";
import type { CafeRow, MineRow, PlaceChoice, UnitRow } from "../../shared/places/types";
export type { CafeRow, MineRow, PlaceChoice, PlaceOption, UnitRow } from "../../shared/places/types";

export interface PageRequest {
  page: number;
  perPage: number;
}

const parentsOfCafes = preparedQuery((db) =>
  db
    .select({ unitId: units.id, mineId: units.mineId })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .where(inIdList(cafes.id, "cafes"))
    .prepare(),
);

/** The ids of the mines and units that contain a cafe within the scope (null: every one). */
export function reachableParents(db: Db | Tx, scope: Scope): { mineIds: number[]; unitIds: number[] } | null {
  if (scope.all) return null;
  if (scope.cafeIds.size === 0) return { mineIds: [], unitIds: [] };
  const rows = parentsOfCafes(db as Db).all({ cafes: idList(scope.cafeIds) });
  return { mineIds: [...new Set(rows.map((r) => r.mineId))], unitIds: [...new Set(rows.map((r) => r.unitId))] };
}

function within(column: Parameters<typeof inArray>[0], ids: number[] | null): SQL | undefined {
  if (ids === null) return undefined;
  return ids.length ? inArray(column, ids) : sql`0`;
}

// Correlated subqueries name the outer table in plain SQL: drizzle prints a column of a single-table query as a
// bare "id", which inside the subquery would mean the inner table's id. A limited actor's lists take the ids they
// reach as JSON placeholders: `mines`, `units` (their reachable parents) and `cafes` (their scope).

const servicesOfPlaces = {
  mine: preparedQuery((db) =>
    db
      .select({ id: mineServices.mineId, serviceId: mineServices.serviceId })
      .from(mineServices)
      .where(inIdList(mineServices.mineId, "ids"))
      .prepare(),
  ),
  unit: preparedQuery((db) =>
    db
      .select({ id: unitServices.unitId, serviceId: unitServices.serviceId })
      .from(unitServices)
      .where(inIdList(unitServices.unitId, "ids"))
      .prepare(),
  ),
  cafe: preparedQuery((db) =>
    db
      .select({ id: cafeServices.cafeId, serviceId: cafeServices.serviceId })
      .from(cafeServices)
      .where(inIdList(cafeServices.cafeId, "ids"))
      .prepare(),
  ),
};

/** The services each of the places offers, as place id → service ids. */
function servicesOf(db: Db, kind: keyof typeof servicesOfPlaces, ids: number[]): Map<number, number[]> {
  const map = new Map<number, number[]>();
  if (ids.length === 0) return map;
  for (const r of servicesOfPlaces[kind](db).all({ ids: idList(ids) })) {
    const list = map.get(r.id);
    if (list) list.push(r.serviceId);
    else map.set(r.id, [r.serviceId]);
  }
  return map;
}

/** The values of a list's placeholders for the scope: the reachable mines and units and the scope's cafes. */
function reachValues(db: Db, scope: Scope) {
  const reach = reachableParents(db, scope);
  return {
    mines: reach ? idList(reach.mineIds) : null,
    units: reach ? idList(reach.unitIds) : null,
    cafes: scope.all ? null : idList(scope.cafeIds),
  };
}

const countMines = preparedQuery((db, all: boolean, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(mines)
    .where(and(all ? undefined : inIdList(mines.id, "mines"), searched ? searchMatch([mines.name]) : undefined))
    .prepare(),
);

/** How many units and cafes of the mine row lie within the scope (`all`: every one). */
const unitsOfMine = (all: boolean) =>
  sql<number>`(SELECT COUNT(*) FROM units u WHERE u.mine_id = mines.id${all ? sql`` : sql` AND ${inIdList(sql`u.id`, "units")}`})`;
const cafesOfMine = (all: boolean) =>
  sql<number>`(SELECT COUNT(*) FROM cafes c JOIN units u ON u.id = c.unit_id WHERE u.mine_id = mines.id${all ? sql`` : sql` AND ${inIdList(sql`c.id`, "cafes")}`})`;

/** The columns the mines table sorts by on the server. */
const mineSorts = (all: boolean) => ({ name: mines.name, units: unitsOfMine(all), cafes: cafesOfMine(all) });
const MINE_SORTS = mineSorts(true);

const minesPage = preparedQuery((db, all: boolean, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
  db
    .select({ id: mines.id, name: mines.name, units: unitsOfMine(all), cafes: cafesOfMine(all) })
    .from(mines)
    .where(and(all ? undefined : inIdList(mines.id, "mines"), searched ? searchMatch([mines.name]) : undefined))
    .orderBy(...orderOf(mineSorts(all), [sort, direction], [asc(mines.name)]))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/** Mines within the scope, by name (or the allowed column asked for), searched by name. */
export function listMines(
  db: Db,
  scope: Scope,
  search: string | undefined,
  page: PageRequest,
  sort?: SortRequest,
): ListResult<MineRow> {
  const pattern = searchPattern(search);
  const shape = [scope.all, pattern !== null] as const;
  const values = { ...reachValues(db, scope), search: pattern };
  const found = readList(
    page,
    () => countMines(db, ...shape).get(values)?.n ?? 0,
    (window) => minesPage(db, ...shape, ...listSort(MINE_SORTS, sort)).all({ ...values, ...window }),
  );
  const offered = servicesOf(
    db,
    "mine",
    found.rows.map((r) => r.id),
  );
  return { ...found, rows: found.rows.map((r) => ({ ...r, serviceIds: offered.get(r.id) ?? [] })) };
}

const unitCondition = (all: boolean, searched: boolean) =>
  and(all ? undefined : inIdList(units.id, "units"), searched ? searchMatch([units.name, mines.name]) : undefined);

const countUnits = preparedQuery((db, all: boolean, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(units)
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(unitCondition(all, searched))
    .prepare(),
);

/** How many cafes of the unit row lie within the scope, and how many subdealerships work there. */
const cafesOfUnit = (all: boolean) =>
  sql<number>`(SELECT COUNT(*) FROM cafes c WHERE c.unit_id = units.id${all ? sql`` : sql` AND ${inIdList(sql`c.id`, "cafes")}`})`;
const subdealershipsOfUnit = sql<number>`(SELECT COUNT(*) FROM subdealership_units s WHERE s.unit_id = units.id)`;

/** The columns the units table sorts by on the server. */
const unitSorts = (all: boolean) => ({
  name: units.name,
  mine: mines.name,
  cafes: cafesOfUnit(all),
  subdealerships: subdealershipsOfUnit,
});
const UNIT_SORTS = unitSorts(true);

const unitsPage = preparedQuery((db, all: boolean, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
  db
    .select({
      id: units.id,
      name: units.name,
      mineId: units.mineId,
      mineName: mines.name,
      cafes: cafesOfUnit(all),
      subdealerships: subdealershipsOfUnit,
    })
    .from(units)
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(unitCondition(all, searched))
    .orderBy(...orderOf(unitSorts(all), [sort, direction], [asc(mines.name), asc(units.name)]))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/** Units within the scope, by mine and name (or the allowed column asked for), searched by unit or mine name. */
export function listUnits(
  db: Db,
  scope: Scope,
  search: string | undefined,
  page: PageRequest,
  sort?: SortRequest,
): ListResult<UnitRow> {
  const pattern = searchPattern(search);
  const shape = [scope.all, pattern !== null] as const;
  const values = { ...reachValues(db, scope), search: pattern };
  const found = readList(
    page,
    () => countUnits(db, ...shape).get(values)?.n ?? 0,
    (window) => unitsPage(db, ...shape, ...listSort(UNIT_SORTS, sort)).all({ ...values, ...window }),
  );
  const offered = servicesOf(
    db,
    "unit",
    found.rows.map((r) => r.id),
  );
  const parents = servicesOf(db, "mine", [...new Set(found.rows.map((r) => r.mineId))]);
  return {
    ...found,
    rows: found.rows.map((r) => ({
      ...r,
      serviceIds: offered.get(r.id) ?? [],
      parentServiceIds: parents.get(r.mineId) ?? [],
    })),
  };
}

const cafeCondition = (all: boolean, searched: boolean) =>
  and(
    all ? undefined : inIdList(cafes.id, "cafes"),
    searched ? searchMatch([cafes.name, units.name, mines.name, businesses.name, cities.name]) : undefined,
  );

const countCafes = preparedQuery((db, all: boolean, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .leftJoin(cities, eq(cities.id, cafes.cityId))
    .where(cafeCondition(all, searched))
    .prepare(),
);

/** The columns the cafes table sorts by on the server. */
const CAFE_SORTS = {
  name: cafes.name,
  unit: units.name,
  mine: mines.name,
  business: businesses.name,
  time_zone: cafes.timeZone,
  city: cities.name,
};

const cafesPage = preparedQuery((db, all: boolean, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
  db
    .select()
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .leftJoin(cities, eq(cities.id, cafes.cityId))
    .where(cafeCondition(all, searched))
    .orderBy(...orderOf(CAFE_SORTS, [sort, direction], [asc(mines.name), asc(units.name), asc(cafes.name)]))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

const areasOfCafes = preparedQuery((db) =>
  db
    .select({ id: cafes.id, areas: sql<number>`(SELECT COUNT(*) FROM areas a WHERE a.cafe_id = cafes.id)` })
    .from(cafes)
    .where(inIdList(cafes.id, "ids"))
    .prepare(),
);

const pricesOfCafes = preparedQuery((db) =>
  db
    .select({ cafeId: cafeServices.cafeId, serviceId: cafeServices.serviceId, priceCents: cafeServices.priceCents })
    .from(cafeServices)
    .where(inIdList(cafeServices.cafeId, "ids"))
    .prepare(),
);

/** Cafes within the scope, by mine, unit and name (or the allowed column asked for), searched by cafe, unit, mine or business name. */
export function listCafes(
  db: Db,
  scope: Scope,
  search: string | undefined,
  page: PageRequest,
  sort?: SortRequest,
): ListResult<CafeRow> {
  const pattern = searchPattern(search);
  const shape = [scope.all, pattern !== null] as const;
  const values = { cafes: scope.all ? null : idList(scope.cafeIds), search: pattern };
  const found = readList(
    page,
    () => countCafes(db, ...shape).get(values)?.n ?? 0,
    (window) => cafesPage(db, ...shape, ...listSort(CAFE_SORTS, sort)).all({ ...values, ...window }),
  );
  const ids = found.rows.map((r) => r.cafes.id);
  const parents = servicesOf(db, "unit", [...new Set(found.rows.map((r) => r.units.id))]);
  const areasOf = new Map<number, number>();
  const pricesOf = new Map<number, CafeRow["prices"]>();
  if (ids.length) {
    const list = idList(ids);
    for (const r of areasOfCafes(db).all({ ids: list })) areasOf.set(r.id, r.areas);
    for (const { cafeId, serviceId, priceCents } of pricesOfCafes(db).all({ ids: list })) {
      const prices = pricesOf.get(cafeId);
      if (prices) prices.push({ serviceId, priceCents });
      else pricesOf.set(cafeId, [{ serviceId, priceCents }]);
    }
  }
  return {
    total: found.total,
    page: found.page,
    rows: found.rows.map(({ cafes: c, units: u, mines: m, businesses: b, cities: city }) => {
      const prices = pricesOf.get(c.id) ?? [];
      return {
        id: c.id,
        name: c.name,
        unitId: u.id,
        unitName: u.name,
        mineId: m.id,
        mineName: m.name,
        businessId: c.businessId,
        businessName: b?.name ?? null,
        timeZone: c.timeZone,
        cityId: c.cityId,
        cityName: city?.name ?? null,
        areas: areasOf.get(c.id) ?? 0,
        serviceIds: prices.map((p) => p.serviceId),
        parentServiceIds: parents.get(u.id) ?? [],
        priced: prices.filter((p) => p.priceCents !== null).length,
        prices,
      };
    }),
  };
}

/** Up to `limit` mines within the scope whose name contains `search` (the management modal), with their services. */
export function searchMines(db: Db, scope: Scope, search: string, limit = 8): PlaceChoice[] {
  return listMines(db, scope, search, { page: 1, perPage: limit }).rows.map(({ id, name, serviceIds }) => ({
    id,
    name,
    serviceIds,
  }));
}

/** Up to `limit` units of a mine within the scope whose name contains `search`, with their services. */
export function searchUnits(db: Db, scope: Scope, mineId: number, search: string, limit = 8): PlaceChoice[] {
  const reach = reachableParents(db, scope);
  const found = db
    .select({ id: units.id, name: units.name })
    .from(units)
    .where(
      and(eq(units.mineId, mineId), within(units.id, reach?.unitIds ?? null), searchCondition(search, [units.name])),
    )
    .orderBy(asc(units.name))
    .limit(limit)
    .all();
  const offered = servicesOf(
    db,
    "unit",
    found.map((u) => u.id),
  );
  return found.map((u) => ({ ...u, serviceIds: offered.get(u.id) ?? [] }));
}

function reachableMineIds(db: Db, scope: Scope): Set<number> | null {
  const reach = reachableParents(db, scope);
  return reach ? new Set(reach.mineIds) : null;
}

export function requireMine(db: Db, scope: Scope, id: number) {
  const mine = db.select().from(mines).where(eq(mines.id, id)).get();
  const reach = reachableMineIds(db, scope);
  if (!mine || (reach && !reach.has(id))) throw new NotFound();
  return mine;
}

export function requireUnit(db: Db, scope: Scope, id: number) {
  const unit = db.select().from(units).where(eq(units.id, id)).get();
  const reach = reachableParents(db, scope);
  if (!unit || (reach && !reach.unitIds.includes(id))) throw new NotFound();
  return unit;
}

export function requireCafe(db: Db, scope: Scope, id: number) {
  const cafe = db.select().from(cafes).where(eq(cafes.id, id)).get();
  if (!cafe || !reachesCafe(scope, id)) throw new NotFound();
  return cafe;
}

const name = () => t.String({ minLength: 2, maxLength: 80 });
const optionalId = () => t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()]));

export const MineInput = t.Object({ name: name() });
export const UnitInput = t.Object({ name: name() });
export const CafeInput = t.Object({
  name: name(),
  business_id: t.Integer({ minimum: 1 }),
  time_zone: t.Optional(t.String({ maxLength: 64 })),
  /** Left out: unchanged; null: none. */
  city_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
});

/** The management modal: an existing mine or a new one, then an existing unit or a new one, then a new cafe. */
export const NewPlaceInput = t.Object({
  mine_id: optionalId(),
  mine_name: t.Optional(t.String({ maxLength: 80 })),
  unit_id: optionalId(),
  unit_name: t.Optional(t.String({ maxLength: 80 })),
  cafe_name: t.Optional(t.String({ maxLength: 80 })),
  business_id: optionalId(),
  time_zone: t.Optional(t.String({ maxLength: 64 })),
  city_id: optionalId(),
});

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

function checkTimeZone(zone: string | undefined, fallback: string, field = "time_zone"): string {
  const value = zone?.trim() || fallback;
  if (!isTimeZone(value)) throw new ValidationFailed({ [field]: message("places.time_zone_invalid", { zone: value }) });
  return value;
}

function checkBusiness(db: Db, scope: Scope, businessId: number, field = "business_id"): { id: number; name: string } {
  const business = db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .get();
  if (!business || !reachesBusiness(scope, businessId))
    throw new ValidationFailed({ [field]: message("places.business_unknown") });
  return business;
}

/** A place name as stored: trimmed, runs of spaces made one. */
const tidyName = (name: string) => name.replace(/\s+/g, " ").trim();

/** Place names compare without regard to case or spacing: "Mina Norte" and "MINA  NORTE" are the same place. */
export const placeNameKey = (name: string) => tidyName(name).toLocaleLowerCase("es");

/** True when a rename changes more than case: only then can it collide with a sibling. */
const renamed = (before: string, after: string) => placeNameKey(before) !== placeNameKey(after);

function ensureNameFree(
  siblings: { id: number; name: string }[],
  name: string,
  exceptId: number | undefined,
  field: string,
  taken: TranslationKey,
): void {
  const key = placeNameKey(name);
  if (siblings.some((other) => other.id !== exceptId && placeNameKey(other.name) === key))
    throw new ValidationFailed({ [field]: message(taken, { name }) });
}

function ensureMineNameFree(db: Tx, name: string, exceptId?: number, field = "name"): void {
  ensureNameFree(
    db.select({ id: mines.id, name: mines.name }).from(mines).all(),
    name,
    exceptId,
    field,
    "places.mine_taken",
  );
}

function ensureUnitNameFree(db: Tx, mineId: number, name: string, exceptId?: number, field = "name"): void {
  ensureNameFree(
    db.select({ id: units.id, name: units.name }).from(units).where(eq(units.mineId, mineId)).all(),
    name,
    exceptId,
    field,
    "places.unit_taken",
  );
}

function ensureCafeNameFree(db: Tx, unitId: number, name: string, exceptId?: number, field = "name"): void {
  ensureNameFree(
    db.select({ id: cafes.id, name: cafes.name }).from(cafes).where(eq(cafes.unitId, unitId)).all(),
    name,
    exceptId,
    field,
    "places.cafe_taken",
  );
}

function checkName(value: string | undefined, field: string): string {
  const trimmed = tidyName(value ?? "");
  if (!trimmed) throw new ValidationFailed({ [field]: message("validation.required") });
  if (trimmed.length < 2) throw new ValidationFailed({ [field]: message("validation.min_length", { min: 2 }) });
  return trimmed;
}

export interface CreatedPlace {
  mine: { id: number; name: string; created: boolean };
  unit: { id: number; name: string; created: boolean } | null;
  cafe: { id: number; name: string } | null;
}

/** What the management modal asks for, checked: the mine, unit and cafe to find or create. */
export interface PlacePlan {
  /** The chosen mine, or null for a new one named `mineName`. */
  mine: typeof mines.$inferSelect | null;
  mineName: string;
  /** The chosen unit, or null for a new one named `unitName` (none when `unitName` is null too). */
  unit: typeof units.$inferSelect | null;
  unitName: string | null;
  /** The new cafe, when one is named. */
  cafe: {
    name: string;
    business: { id: number; name: string };
    timeZone: string;
    city: { id: number; name: string } | null;
  } | null;
}

/**
 * Checks what the management modal describes and reports every field's problem at once (a place outside the scope
 * is NotFound and stops at once). `errors` receives the problems of fields a caller checks alongside; they are
 * thrown together. Without an all-places scope the flow must end in a new cafe.
 */
export function planPlace(
  db: Db,
  scope: Scope,
  data: Static<typeof NewPlaceInput>,
  defaults: { timeZone: string },
  errors: Record<string, Message> = {},
): PlacePlan {
  const check = <T>(fn: () => T): T | null => {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      Object.assign(errors, error.errors);
      return null;
    }
  };
  const refuse = (field: string, problem: Message) => void (errors[field] ??= problem);
  const mine = data.mine_id ? requireMine(db, scope, data.mine_id) : null;
  const mineName = mine ? mine.name : check(() => checkName(data.mine_name, "mine_name"));
  const unit = data.unit_id ? requireUnit(db, scope, data.unit_id) : null;
  if (unit && (!mine || unit.mineId !== mine.id)) refuse("unit_id", message("places.unit_not_in_mine"));
  const unitName = unit
    ? unit.name
    : data.unit_name?.trim()
      ? check(() => checkName(data.unit_name, "unit_name"))
      : null;
  const cafeName = data.cafe_name?.trim() ? check(() => checkName(data.cafe_name, "cafe_name")) : null;
  if (!unitName && (cafeName || (mine && !unit))) refuse("unit_name", message("validation.required"));
  // Choosing an existing mine and unit creates nothing unless a cafe is named.
  if (mine && unit && !data.cafe_name?.trim()) refuse("cafe_name", message("validation.required"));
  // A mine or unit without a cafe would fall outside a limited scope at once.
  if (!scope.all && !data.cafe_name?.trim()) refuse("cafe_name", message("places.cafe_required"));
  const business = cafeName && data.business_id ? check(() => checkBusiness(db, scope, data.business_id!)) : null;
  if (cafeName && !data.business_id) refuse("business_id", message("validation.required"));
  const timeZone =
    (cafeName ? check(() => checkTimeZone(data.time_zone, defaults.timeZone)) : null) ?? defaults.timeZone;
  const city = cafeName ? check(() => chosenCity(db, data.city_id)) : null;
  if (!mine && mineName) check(() => ensureMineNameFree(db, mineName, undefined, "mine_name"));
  if (mine && !unit && unitName) check(() => ensureUnitNameFree(db, mine.id, unitName, undefined, "unit_name"));
  if (unit && cafeName) check(() => ensureCafeNameFree(db, unit.id, cafeName, undefined, "cafe_name"));
  if (Object.keys(errors).length || mineName === null) throw new ValidationFailed(errors);
  return {
    mine,
    mineName,
    unit: unit && unitName ? unit : null,
    unitName,
    cafe: cafeName && unitName && business ? { name: cafeName, business, timeZone, city } : null,
  };
}

/** Writes a checked plan inside the caller's transaction: the new mine, unit and cafe, each audited. */
export function writePlace(tx: Tx, actor: Actor, plan: PlacePlan, now = new Date()): CreatedPlace {
  const { mine, mineName, unit, unitName } = plan;
  const mineRow = mine ?? tx.insert(mines).values({ name: mineName }).returning().get();
  if (!mine)
    recordAudit(
      tx,
      actor,
      {
        action: "mine.created",
        subjectType: "mine",
        subjectId: mineRow.id,
        places: [{ mineId: mineRow.id }],
        after: { name: mineName },
      },
      now,
    );
  let unitRow: { id: number; name: string } | null = unit;
  if (!unit && unitName) {
    unitRow = tx.insert(units).values({ mineId: mineRow.id, name: unitName }).returning().get();
    recordAudit(
      tx,
      actor,
      {
        action: "unit.created",
        subjectType: "unit",
        subjectId: unitRow.id,
        places: [{ unitId: unitRow.id }],
        after: { mine: mineRow.name, name: unitName },
      },
      now,
    );
  }
  let cafeRow: { id: number; name: string } | null = null;
  if (plan.cafe && unitRow) {
    const { name, business, timeZone, city } = plan.cafe;
    cafeRow = tx
      .insert(cafes)
      .values({ unitId: unitRow.id, name, businessId: business.id, timeZone, cityId: city?.id ?? null })
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "cafe.created",
        subjectType: "cafe",
        subjectId: cafeRow.id,
        places: [{ cafeId: cafeRow.id }],
        after: {
          mine: mineRow.name,
          unit: unitRow.name,
          name,
          business: business.name,
          timeZone,
          ...(city ? { cityId: city.id } : {}),
        },
      },
      now,
    );
    bumpAccessVersion(tx);
  }
  return {
    mine: { id: mineRow.id, name: mineRow.name, created: !mine },
    unit: unitRow ? { id: unitRow.id, name: unitRow.name, created: !unit } : null,
    cafe: cafeRow ? { id: cafeRow.id, name: cafeRow.name } : null,
  };
}

/**
 * Creates what the management modal describes: the mine (chosen or new), the unit (chosen or new, optional) and
 * the cafe (optional), in one transaction. Without an all-places scope the flow must end in a new cafe.
 * (`createSellableCafe` in new-cafe.ts also gives the new cafe its services and prices.)
 */
export function createPlace(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  defaults: { timeZone: string },
  now = new Date(),
): CreatedPlace {
  const plan = planPlace(db, scope, parseInput(NewPlaceInput, input), defaults);
  return db.transaction((tx) => writePlace(tx, actor, plan, now));
}

/**
 * A limited person renames a mine or unit only when every cafe in it is theirs: one shared with cafes outside their
 * places is read-only to them (the scope rule, decision 008).
 */
function ensureWhollyInside(db: Db, scope: Scope, kind: "mine" | "unit", id: number): void {
  if (scope.all) return;
  const cafeIds = db.$client
    .query<{ id: number }, [number]>(
      kind === "unit"
        ? "SELECT id FROM cafes WHERE unit_id = ?"
        : "SELECT c.id FROM cafes c JOIN units u ON u.id = c.unit_id WHERE u.mine_id = ?",
    )
    .all(id);
  if (cafeIds.some((c) => !reachesCafe(scope, c.id)))
    throw new Conflict(message(`places.${kind}_shared_outside_scope`));
}

export function updateMine(db: Db, actor: Actor, scope: Scope, id: number, input: unknown, now = new Date()) {
  const mine = requireMine(db, scope, id);
  ensureWhollyInside(db, scope, "mine", id);
  const name = tidyName(parseInput(MineInput, input).name);
  if (renamed(mine.name, name)) ensureMineNameFree(db, name, id);
  return db.transaction((tx) => {
    const updated = tx.update(mines).set({ name }).where(eq(mines.id, id)).returning().get();
    recordAudit(
      tx,
      actor,
      {
        action: "mine.updated",
        subjectType: "mine",
        subjectId: id,
        places: [{ mineId: id }],
        before: { name: mine.name },
        after: { name: updated.name },
      },
      now,
    );
    return updated;
  });
}

export function updateUnit(db: Db, actor: Actor, scope: Scope, id: number, input: unknown, now = new Date()) {
  const unit = requireUnit(db, scope, id);
  ensureWhollyInside(db, scope, "unit", id);
  const name = tidyName(parseInput(UnitInput, input).name);
  if (renamed(unit.name, name)) ensureUnitNameFree(db, unit.mineId, name, id);
  return db.transaction((tx) => {
    const updated = tx.update(units).set({ name }).where(eq(units.id, id)).returning().get();
    recordAudit(
      tx,
      actor,
      {
        action: "unit.updated",
        subjectType: "unit",
        subjectId: id,
        places: [{ unitId: id }],
        before: { name: unit.name },
        after: { name: updated.name },
      },
      now,
    );
    return updated;
  });
}

/**
 * Renames a cafe, changes its issuing business, its time zone (blank: APP_TIMEZONE; left out: unchanged) or its city
 * (null: none; left out: unchanged).
 */
export function updateCafe(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
  defaults: { timeZone: string },
  now = new Date(),
) {
  const cafe = requireCafe(db, scope, id);
  const data = parseInput(CafeInput, input);
  // Keeping the business it has is always allowed; choosing another needs that business within the scope.
  if (data.business_id !== cafe.businessId) checkBusiness(db, scope, data.business_id);
  const timeZone = data.time_zone === undefined ? cafe.timeZone : checkTimeZone(data.time_zone, defaults.timeZone);
  const cityId = data.city_id === undefined ? cafe.cityId : (chosenCity(db, data.city_id)?.id ?? null);
  const name = tidyName(data.name);
  if (renamed(cafe.name, name)) ensureCafeNameFree(db, cafe.unitId, name, id);
  return db.transaction((tx) => {
    const updated = tx
      .update(cafes)
      .set({ name, businessId: data.business_id, timeZone, cityId })
      .where(eq(cafes.id, id))
      .returning()
      .get();
    if (updated.businessId !== cafe.businessId) bumpAccessVersion(tx);
    recordAudit(
      tx,
      actor,
      {
        action: "cafe.updated",
        subjectType: "cafe",
        subjectId: id,
        places: [{ cafeId: id }],
        // The city is recorded once a cafe has one (cafes made before cities have none).
        before: {
          name: cafe.name,
          businessId: cafe.businessId,
          timeZone: cafe.timeZone,
          ...withCity(cafe.cityId, cityId),
        },
        after: { name: updated.name, businessId: updated.businessId, timeZone, ...withCity(cityId, cafe.cityId) },
      },
      now,
    );
    return updated;
  });
}

/** `{ cityId }` for an audit snapshot when the cafe has a city before or after the change, else nothing. */
function withCity(cityId: number | null, other: number | null): { cityId?: number | null } {
  return cityId === null && other === null ? {} : { cityId };
}

/** Deletes a mine without units (its service list goes with it). */
export function deleteMine(db: Db, actor: Actor, scope: Scope, id: number, now = new Date()) {
  const mine = requireMine(db, scope, id);
  const unitCount =
    db
      .select({ n: sql<number>`count(*)` })
      .from(units)
      .where(eq(units.mineId, id))
      .get()?.n ?? 0;
  if (unitCount > 0) throw new Conflict(message("places.mine_in_use", { name: mine.name, units: unitCount }));
  db.transaction((tx) => {
    tx.delete(mines).where(eq(mines.id, id)).run();
    recordAudit(
      tx,
      actor,
      {
        action: "mine.deleted",
        subjectType: "mine",
        subjectId: id,
        places: [{ mineId: id }],
        before: { name: mine.name },
      },
      now,
    );
  });
  return mine;
}

/** Deletes a unit without cafes and without subdealerships working there. */
export function deleteUnit(db: Db, actor: Actor, scope: Scope, id: number, now = new Date()) {
  const unit = requireUnit(db, scope, id);
  const cafeCount =
    db
      .select({ n: sql<number>`count(*)` })
      .from(cafes)
      .where(eq(cafes.unitId, id))
      .get()?.n ?? 0;
  const subdealershipCount =
    db
      .select({ n: sql<number>`count(*)` })
      .from(subdealershipUnits)
      .where(eq(subdealershipUnits.unitId, id))
      .get()?.n ?? 0;
  if (cafeCount + subdealershipCount > 0)
    throw new Conflict(
      message("places.unit_in_use", { name: unit.name, cafes: cafeCount, subdealerships: subdealershipCount }),
    );
  db.transaction((tx) => {
    tx.delete(units).where(eq(units.id, id)).run();
    recordAudit(
      tx,
      actor,
      {
        action: "unit.deleted",
        subjectType: "unit",
        subjectId: id,
        places: [{ unitId: id }],
        before: { name: unit.name, mineId: unit.mineId },
      },
      now,
    );
  });
  return unit;
}

/** Deletes a cafe without areas and properties (its services and prices go with it). */
export function deleteCafe(db: Db, actor: Actor, scope: Scope, id: number, now = new Date()) {
  const cafe = requireCafe(db, scope, id);
  const areaCount =
    db
      .select({ n: sql<number>`count(*)` })
      .from(areas)
      .where(eq(areas.cafeId, id))
      .get()?.n ?? 0;
  const propertyCount =
    db
      .select({ n: sql<number>`count(*)` })
      .from(properties)
      .where(eq(properties.cafeId, id))
      .get()?.n ?? 0;
  if (areaCount + propertyCount > 0)
    throw new Conflict(message("places.cafe_in_use", { name: cafe.name, areas: areaCount, properties: propertyCount }));
  const sold = cafeSalesUsage(db, id);
  if (sold.sales + sold.diners > 0) throw new Conflict(message("places.cafe_has_sales", { name: cafe.name, ...sold }));
  db.transaction((tx) => {
    tx.delete(cafes).where(eq(cafes.id, id)).run();
    bumpAccessVersion(tx);
    // The cafe is gone from every scope: the entry belongs to the business that operated it, whose headquarters see it.
    recordAudit(
      tx,
      actor,
      {
        action: "cafe.deleted",
        subjectType: "cafe",
        subjectId: id,
        places: cafe.businessId !== null ? [{ businessId: cafe.businessId }] : [{ cafeId: id }],
        before: { name: cafe.name, unitId: cafe.unitId, businessId: cafe.businessId, timeZone: cafe.timeZone },
      },
      now,
    );
  });
  return cafe;
}

/** The most rows one export holds. */
export const EXPORT_LIMIT = 50_000;

/** Every mine within the scope matching the search, for an Excel export. */
export function exportMines(db: Db, scope: Scope, search: string | undefined) {
  return listMines(db, scope, search, { page: 1, perPage: EXPORT_LIMIT }).rows;
}
/** Every unit within the scope matching the search, for an Excel export. */
export function exportUnits(db: Db, scope: Scope, search: string | undefined) {
  return listUnits(db, scope, search, { page: 1, perPage: EXPORT_LIMIT }).rows;
}
/** Every cafe within the scope matching the search, for an Excel export. */
export function exportCafes(db: Db, scope: Scope, search: string | undefined) {
  return listCafes(db, scope, search, { page: 1, perPage: EXPORT_LIMIT }).rows;
}
