/**
 * Properties: the business's assets (kitchen equipment, furniture, vehicles...), each with a unique code, kept at
 * a headquarters or a cafe, with a status and optional acquisition date and value. A property is within the
 * scope when its location is. Its printable label carries a QR code that opens the property's page.
 */
import { and, asc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  businesses,
  cafes,
  headquarters,
  mines,
  properties,
  PROPERTY_STATUSES,
  units,
  type PropertyStatus,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { reachesCafe, reachesHeadquarters, type Scope } from "../access/scope";
import { cafeOrHeadquarters, recordAudit, unionOfPlaces, type Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { centsToSoles, parseSoles } from "../../shared/money";
import {
  boundText,
  foldText,
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
import type { LocationOptions, PropertyLocation, PropertyRow } from "../../shared/organisation/types";
import { dateIn, isCalendarDate } from "../../shared/calendar";
export type { LocationOptions, PropertyLocation, PropertyRow } from "../../shared/organisation/types";

export { PROPERTY_STATUSES, type PropertyStatus };

export type Property = typeof properties.$inferSelect;

export interface PropertyFilter {
  search?: string;
  status?: PropertyStatus;
}

const hqBusiness = alias(businesses, "hq_business");
const cafeBusiness = alias(businesses, "cafe_business");

/**
 * The prepared list's condition: kept at one of the headquarters or cafes bound to `headquarters` and `cafes`
 * (unless `all`), matching SEARCH (when searched), with the status bound to `status` (when filtered).
 */
function listCondition(all: boolean, searched: boolean, byStatus: boolean): SQL | undefined {
  return and(
    all ? undefined : or(inIdList(properties.headquartersId, "headquarters"), inIdList(properties.cafeId, "cafes")),
    searched ? searchMatch([properties.code, properties.name, properties.serial, properties.category]) : undefined,
    byStatus ? eq(properties.status, boundText("status")) : undefined,
  );
}

function selectRows(db: Db) {
  return db
    .select({
      property: properties,
      hqName: headquarters.name,
      hqBusiness: hqBusiness.name,
      cafeName: cafes.name,
      unitName: units.name,
      mineName: mines.name,
      cafeBusiness: cafeBusiness.name,
    })
    .from(properties)
    .leftJoin(headquarters, eq(headquarters.id, properties.headquartersId))
    .leftJoin(hqBusiness, eq(hqBusiness.id, headquarters.businessId))
    .leftJoin(cafes, eq(cafes.id, properties.cafeId))
    .leftJoin(units, eq(units.id, cafes.unitId))
    .leftJoin(mines, eq(mines.id, units.mineId))
    .leftJoin(cafeBusiness, eq(cafeBusiness.id, cafes.businessId))
    .$dynamic();
}

type JoinedRow = ReturnType<ReturnType<typeof selectRows>["all"]>[number];

function toRow(r: JoinedRow): PropertyRow {
  const p = r.property;
  const location: PropertyLocation =
    p.headquartersId !== null
      ? {
          kind: "headquarters",
          id: p.headquartersId,
          value: `hq:${p.headquartersId}`,
          name: r.hqName ?? "",
          detail: r.hqBusiness ?? "",
        }
      : {
          kind: "cafe",
          id: p.cafeId!,
          value: `cafe:${p.cafeId}`,
          name: r.cafeName ?? "",
          detail: `${r.unitName ?? ""} / ${r.mineName ?? ""}`,
        };
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    category: p.category,
    serial: p.serial,
    status: p.status,
    location,
    businessName: (p.headquartersId !== null ? r.hqBusiness : r.cafeBusiness) ?? "",
    acquiredOn: p.acquiredOn,
    acquisitionValueCents: p.acquisitionValueCents,
    notes: p.notes,
    updatedAt: p.updatedAt.toISOString(),
  };
}

const countProperties = preparedQuery((db, all: boolean, searched: boolean, byStatus: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(properties)
    .where(listCondition(all, searched, byStatus))
    .prepare(),
);

/** The columns the properties table sorts by on the server. */
const PROPERTY_SORTS = {
  code: properties.code,
  name: properties.name,
  category: properties.category,
  status: properties.status,
  acquisition_value: properties.acquisitionValueCents,
};

const propertiesPage = preparedQuery(
  (db, all: boolean, searched: boolean, byStatus: boolean, sort: ListSort[0], direction: ListSort[1]) =>
    selectRows(db)
      .where(listCondition(all, searched, byStatus))
      .orderBy(...orderOf(PROPERTY_SORTS, [sort, direction], [asc(properties.code), asc(properties.id)]))
      .limit(LIMIT)
      .offset(OFFSET)
      .prepare(),
);

/** Properties within the scope, searched (code, name, serial, category) and filtered by status, by code (or the allowed column asked for); all when `page` is left out. */
export function listProperties(
  db: Db,
  scope: Scope,
  filter: PropertyFilter,
  page?: PageRequest,
  sort?: SortRequest,
): ListResult<PropertyRow> {
  const search = searchPattern(filter.search);
  const shape = [scope.all, search !== null, filter.status !== undefined] as const;
  const values = {
    headquarters: scope.all ? null : idList(scope.headquartersIds),
    cafes: scope.all ? null : idList(scope.cafeIds),
    search,
    status: filter.status ?? null,
  };
  return readList(
    page,
    () => countProperties(db, ...shape).get(values)?.n ?? 0,
    (window) =>
      propertiesPage(db, ...shape, ...listSort(PROPERTY_SORTS, sort))
        .all({ ...values, ...window })
        .map(toRow),
  );
}

/** One property within the scope, as its page shows it; NotFound when missing or out of scope. */
export function findProperty(db: Db, scope: Scope, id: number): PropertyRow {
  const row = selectRows(db).where(eq(properties.id, id)).get();
  if (!row || !locationReachable(scope, row.property)) throw new NotFound();
  return toRow(row);
}

function locationReachable(scope: Scope, p: { headquartersId: number | null; cafeId: number | null }): boolean {
  return p.headquartersId !== null
    ? reachesHeadquarters(scope, p.headquartersId)
    : p.cafeId !== null && reachesCafe(scope, p.cafeId);
}

const categoriesInUse = preparedQuery((db) =>
  db.selectDistinct({ category: properties.category }).from(properties).orderBy(asc(properties.category)).prepare(),
);

/** The categories in use, for the category suggestions. */
export function propertyCategories(db: Db): string[] {
  return categoriesInUse(db)
    .all()
    .map((r) => r.category);
}

const headquartersChoices = preparedQuery((db, all: boolean) =>
  db
    .select({ id: headquarters.id, name: headquarters.name, business: businesses.name })
    .from(headquarters)
    .innerJoin(businesses, eq(businesses.id, headquarters.businessId))
    .where(all ? undefined : inIdList(headquarters.id, "headquarters"))
    .orderBy(asc(businesses.name), asc(headquarters.name))
    .prepare(),
);

const cafeChoices = preparedQuery((db, all: boolean) =>
  db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(all ? undefined : inIdList(cafes.id, "cafes"))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .prepare(),
);

/** The headquarters and cafes within the scope a property may be kept at. */
export function locationOptions(db: Db, scope: Scope): LocationOptions {
  const hqs = headquartersChoices(db, scope.all).all({
    headquarters: scope.all ? null : idList(scope.headquartersIds),
  });
  const cafeRows = cafeChoices(db, scope.all).all({ cafes: scope.all ? null : idList(scope.cafeIds) });
  return {
    headquarters: hqs.map((h) => ({ value: `hq:${h.id}`, label: `${h.name} · ${h.business}` })),
    cafes: cafeRows.map((c) => ({ value: `cafe:${c.id}`, label: `${c.name} · ${c.unit} / ${c.mine}` })),
  };
}

export const PropertyInput = t.Object({
  code: t.String({
    minLength: 1,
    maxLength: 20,
    pattern: "^[A-Z0-9][A-Z0-9_-]*$",
    messageKey: "properties.code_format",
  }),
  name: field.text(2, 120),
  category: field.text(2, 60),
  serial: field.optionalText(60),
  location: t.String({
    minLength: 1,
    maxLength: 30,
    pattern: "^(hq|cafe):[0-9]+$",
    messageKey: "validation.invalid_choice",
  }),
  status: t.Union(PROPERTY_STATUSES.map((s) => t.Literal(s))),
  acquired_on: field.optionalText(10),
  acquisition_value: field.optionalText(20),
  notes: field.optionalText(1000),
});

interface PropertyData {
  code: string;
  name: string;
  category: string;
  serial: string;
  headquartersId: number | null;
  cafeId: number | null;
  status: PropertyStatus;
  acquiredOn: string | null;
  acquisitionValueCents: number | null;
  notes: string;
}

/** Checks the form: fields, the location (within the scope), the date (not in the future) and the value in soles. */
function parseProperty(db: Db, scope: Scope, input: unknown, timeZone: string, now: Date): PropertyData {
  const source = input && typeof input === "object" ? { ...(input as Record<string, unknown>) } : {};
  // Codes are kept in capitals: "hor-01" and "HOR-01" are the same code.
  if (typeof source.code === "string") source.code = source.code.trim().toUpperCase();
  const errors: Record<string, Message> = {};
  let data: ReturnType<typeof parseInput<typeof PropertyInput>> | null = null;
  try {
    data = parseInput(PropertyInput, source);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  const text = (key: string) => (typeof source[key] === "string" ? (source[key] as string).trim() : "");

  let headquartersId: number | null = null;
  let cafeId: number | null = null;
  const location = /^(hq|cafe):(\d+)$/.exec(text("location"));
  if (!errors.location && location) {
    const id = Number(location[2]);
    if (location[1] === "hq") {
      const exists = db.select({ id: headquarters.id }).from(headquarters).where(eq(headquarters.id, id)).get();
      if (exists && reachesHeadquarters(scope, id)) headquartersId = id;
    } else {
      const exists = db.select({ id: cafes.id }).from(cafes).where(eq(cafes.id, id)).get();
      if (exists && reachesCafe(scope, id)) cafeId = id;
    }
    if (headquartersId === null && cafeId === null) errors.location = message("validation.invalid_choice");
  }

  const acquiredOn = text("acquired_on");
  if (!errors.acquired_on && acquiredOn) {
    if (!isCalendarDate(acquiredOn)) errors.acquired_on = message("properties.date_invalid");
    else if (acquiredOn > dateIn(timeZone, now)) errors.acquired_on = message("properties.date_future");
  }
  const value = text("acquisition_value");
  const cents = value ? parseSoles(value) : null;
  if (!errors.acquisition_value && value && cents === null)
    errors.acquisition_value = message("properties.value_invalid");

  if (Object.keys(errors).length || !data) throw new ValidationFailed(errors);
  return {
    code: data.code,
    name: data.name,
    category: data.category,
    serial: data.serial ?? "",
    headquartersId,
    cafeId,
    status: data.status,
    acquiredOn: acquiredOn || null,
    acquisitionValueCents: cents,
    notes: data.notes ?? "",
  };
}

function ensureCodeFree(db: Db, code: string, exceptId?: number): void {
  const existing = db.select({ id: properties.id }).from(properties).where(eq(properties.code, code)).get();
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ code: message("properties.code_taken", { code }) });
}

/** The folded copies written with a property's name and category (db/schema/folded.ts). */
function foldedCopies(data: { name: string; category: string }) {
  return { nameFolded: foldText(data.name), categoryFolded: foldText(data.category) };
}

function snapshot(p: Property) {
  return {
    code: p.code,
    name: p.name,
    category: p.category,
    serial: p.serial,
    headquartersId: p.headquartersId,
    cafeId: p.cafeId,
    status: p.status,
    acquiredOn: p.acquiredOn,
    acquisitionValue: p.acquisitionValueCents === null ? null : centsToSoles(p.acquisitionValueCents),
    notes: p.notes,
  };
}

/** The property row, when its location lies within the scope; NotFound otherwise. */
export function requireProperty(db: Db, scope: Scope, id: number): Property {
  const property = db.select().from(properties).where(eq(properties.id, id)).get();
  if (!property || !locationReachable(scope, property)) throw new NotFound();
  return property;
}

/** Registers a property kept at a place within the scope. */
export function createProperty(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  timeZone: string,
  now = new Date(),
): Property {
  const data = parseProperty(db, scope, input, timeZone, now);
  ensureCodeFree(db, data.code);
  return db.transaction((tx) => {
    const property = tx
      .insert(properties)
      .values({ ...data, ...foldedCopies(data), createdAt: now, updatedAt: now })
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "property.created",
        subjectType: "property",
        subjectId: property.id,
        places: [cafeOrHeadquarters(property)],
        after: snapshot(property),
      },
      now,
    );
    return property;
  });
}

/** Edits a property within the scope (it may move to another place within the scope). */
export function updateProperty(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
  timeZone: string,
  now = new Date(),
): Property {
  const data = parseProperty(db, scope, input, timeZone, now);
  const property = requireProperty(db, scope, id);
  ensureCodeFree(db, data.code, id);
  return db.transaction((tx) => {
    const updated = tx
      .update(properties)
      .set({ ...data, ...foldedCopies(data), updatedAt: now })
      .where(eq(properties.id, id))
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "property.updated",
        subjectType: "property",
        subjectId: id,
        places: unionOfPlaces([cafeOrHeadquarters(property)], [cafeOrHeadquarters(updated)]),
        before: snapshot(property),
        after: snapshot(updated),
      },
      now,
    );
    return updated;
  });
}

export function deleteProperty(db: Db, actor: Actor, scope: Scope, id: number): Property {
  const property = requireProperty(db, scope, id);
  db.transaction((tx) => {
    tx.delete(properties).where(eq(properties.id, id)).run();
    recordAudit(tx, actor, {
      action: "property.deleted",
      subjectType: "property",
      subjectId: id,
      places: [cafeOrHeadquarters(property)],
      before: snapshot(property),
    });
  });
  return property;
}
