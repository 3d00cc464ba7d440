/**
 * Businesses: the caterer's legal entities, each identified by its RUC, with its headquarters, the services it
 * offers and the cafes it operates (the cafes whose tickets it issues). A business is visible to a
 * super-administrator and to the people of its headquarters areas; creating and deleting one needs an
 * all-places scope. A business cannot be deleted while it has headquarters or operates cafes.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { businesses, businessServices, cafes, headquarters, mines, services, units } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { businessSales } from "../sales/usage";
import { reachesBusiness, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
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
import { rucProblem } from "./ruc";
import type { BusinessOption, BusinessRow } from "../../shared/organisation/types";
export type { BusinessOption, BusinessRow, OperatedCafe } from "../../shared/organisation/types";

export type Business = typeof businesses.$inferSelect;

export interface BusinessFilter {
  search?: string;
}

const headquartersCount = sql<number>`(SELECT COUNT(*) FROM headquarters x WHERE x.business_id = businesses.id)`;
const cafesCount = sql<number>`(SELECT COUNT(*) FROM cafes x WHERE x.business_id = businesses.id)`;

/** The prepared list's condition: within the ids bound to `businesses` (unless `all`), matching SEARCH (when searched). */
function listCondition(all: boolean, searched: boolean): SQL | undefined {
  return and(
    all ? undefined : inIdList(businesses.id, "businesses"),
    searched ? searchMatch([businesses.name, businesses.ruc]) : undefined,
  );
}

const countBusinesses = preparedQuery((db, all: boolean, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(businesses)
    .where(listCondition(all, searched))
    .prepare(),
);

/** The columns the businesses table sorts by on the server. */
const BUSINESS_SORTS = {
  name: businesses.name,
  ruc: businesses.ruc,
  headquarters: headquartersCount,
  cafes: cafesCount,
};

const businessesPage = preparedQuery((db, all: boolean, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
  db
    .select({ business: businesses, headquarters: headquartersCount, cafes: cafesCount })
    .from(businesses)
    .where(listCondition(all, searched))
    .orderBy(...orderOf(BUSINESS_SORTS, [sort, direction], [asc(businesses.name), asc(businesses.id)]))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

const servicesOfBusinesses = preparedQuery((db) =>
  db
    .select({ businessId: businessServices.businessId, serviceId: businessServices.serviceId })
    .from(businessServices)
    .where(inIdList(businessServices.businessId, "ids"))
    .prepare(),
);

const cafesOfBusinesses = preparedQuery((db) =>
  db
    .select({ businessId: cafes.businessId, id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(inIdList(cafes.businessId, "ids"))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .prepare(),
);

/** Rows grouped by a key, in their order. */
function groupedBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** Businesses within the scope matching the search (name or RUC), by name (or the allowed column asked for); every one when `page` is left out (exports). */
export function listBusinesses(
  db: Db,
  scope: Scope,
  filter: BusinessFilter,
  page?: PageRequest,
  sort?: SortRequest,
): ListResult<BusinessRow> {
  const search = searchPattern(filter.search);
  const shape = [scope.all, search !== null] as const;
  const values = { businesses: scope.all ? null : idList(scope.businessIds), search };
  const found = readList(
    page,
    () => countBusinesses(db, ...shape).get(values)?.n ?? 0,
    (window) => businessesPage(db, ...shape, ...listSort(BUSINESS_SORTS, sort)).all({ ...values, ...window }),
  );
  const ids = idList(found.rows.map((r) => r.business.id));
  const servicesOf = groupedBy(found.rows.length ? servicesOfBusinesses(db).all({ ids }) : [], (s) => s.businessId);
  const cafesOf = groupedBy(found.rows.length ? cafesOfBusinesses(db).all({ ids }) : [], (c) => c.businessId);
  return {
    total: found.total,
    page: found.page,
    rows: found.rows.map(({ business: b, headquarters, cafes: cafeCount }) => ({
      id: b.id,
      name: b.name,
      ruc: b.ruc ?? "",
      fiscalAddress: b.fiscalAddress,
      legalAddress: b.legalAddress,
      email: b.email,
      phone: b.phone,
      headquarters,
      cafes: cafeCount,
      serviceIds: (servicesOf.get(b.id) ?? []).map((s) => s.serviceId),
      operatedCafes: (cafesOf.get(b.id) ?? []).map(({ id, name, unit, mine }) => ({ id, name, unit, mine })),
    })),
  };
}

const businessChoices = preparedQuery((db, all: boolean) =>
  db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(all ? undefined : inIdList(businesses.id, "businesses"))
    .orderBy(asc(businesses.name))
    .prepare(),
);

/** The businesses within the scope, by name (choices for a headquarters). */
export function businessOptions(db: Db, scope: Scope): BusinessOption[] {
  return businessChoices(db, scope.all).all({ businesses: scope.all ? null : idList(scope.businessIds) });
}

/** The business, when it exists and lies within the scope; NotFound otherwise. */
export function requireBusiness(db: Db, scope: Scope, id: number): Business {
  const business = db.select().from(businesses).where(eq(businesses.id, id)).get();
  if (!business || !reachesBusiness(scope, business.id)) throw new NotFound();
  return business;
}

export const BusinessInput = t.Object({
  name: field.text(2, 120),
  ruc: t.String({ minLength: 1, maxLength: 20 }),
  fiscal_address: field.text(3, 255),
  legal_address: field.text(3, 255),
  email: field.email(),
  phone: field.optionalText(30),
});

/** Checks the form, the RUC included, reporting every bad field at once. */
function parseBusiness(input: unknown, rucLength: number) {
  const errors: Record<string, Message> = {};
  let data: ReturnType<typeof parseInput<typeof BusinessInput>> | null = null;
  try {
    data = parseInput(BusinessInput, input);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    Object.assign(errors, error.errors);
  }
  const raw = input && typeof input === "object" ? (input as Record<string, unknown>).ruc : undefined;
  const ruc = typeof raw === "string" ? raw.trim() : "";
  if (!errors.ruc && ruc) {
    const problem = rucProblem(ruc, rucLength);
    if (problem) errors.ruc = problem;
  }
  if (Object.keys(errors).length || !data) throw new ValidationFailed(errors);
  return data;
}

function ensureUnique(db: Db, data: { name: string; ruc: string }, exceptId?: number): void {
  const errors: Record<string, Message> = {};
  const byName = db
    .select({ id: businesses.id })
    .from(businesses)
    .where(sql`lower(${businesses.name}) = lower(${data.name})`)
    .get();
  if (byName && byName.id !== exceptId) errors.name = message("businesses.name_taken", { name: data.name });
  const byRuc = db.select({ id: businesses.id }).from(businesses).where(eq(businesses.ruc, data.ruc)).get();
  if (byRuc && byRuc.id !== exceptId) errors.ruc = message("businesses.ruc_taken", { ruc: data.ruc });
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
}

function snapshot(b: Business) {
  return {
    name: b.name,
    ruc: b.ruc,
    fiscalAddress: b.fiscalAddress,
    legalAddress: b.legalAddress,
    email: b.email,
    phone: b.phone,
  };
}

/** Creates a business; only with an all-places scope. */
export function createBusiness(db: Db, actor: Actor, scope: Scope, input: unknown, rucLength: number): Business {
  const data = parseBusiness(input, rucLength);
  if (!scope.all) throw new Forbidden();
  ensureUnique(db, data);
  return db.transaction((tx) => {
    const business = tx
      .insert(businesses)
      .values({
        name: data.name,
        ruc: data.ruc,
        fiscalAddress: data.fiscal_address,
        legalAddress: data.legal_address,
        email: data.email,
        phone: data.phone ?? "",
      })
      .returning()
      .get();
    recordAudit(tx, actor, {
      action: "business.created",
      subjectType: "business",
      subjectId: business.id,
      places: [{ businessId: business.id }],
      after: snapshot(business),
    });
    return business;
  });
}

/** Edits a business within the scope. */
export function updateBusiness(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
  rucLength: number,
): Business {
  const data = parseBusiness(input, rucLength);
  const business = requireBusiness(db, scope, id);
  ensureUnique(db, data, id);
  return db.transaction((tx) => {
    const updated = tx
      .update(businesses)
      .set({
        name: data.name,
        ruc: data.ruc,
        fiscalAddress: data.fiscal_address,
        legalAddress: data.legal_address,
        email: data.email,
        phone: data.phone ?? "",
      })
      .where(eq(businesses.id, id))
      .returning()
      .get();
    recordAudit(tx, actor, {
      action: "business.updated",
      subjectType: "business",
      subjectId: id,
      places: [{ businessId: id }],
      before: snapshot(business),
      after: snapshot(updated),
    });
    return updated;
  });
}

/** How many headquarters the business has and how many cafes it operates. */
export function businessUsage(db: Db, id: number): { headquarters: number; cafes: number } {
  return {
    headquarters:
      db
        .select({ n: sql<number>`count(*)` })
        .from(headquarters)
        .where(eq(headquarters.businessId, id))
        .get()?.n ?? 0,
    cafes:
      db
        .select({ n: sql<number>`count(*)` })
        .from(cafes)
        .where(eq(cafes.businessId, id))
        .get()?.n ?? 0,
  };
}

/**
 * Deletes a business that has no headquarters and operates no cafe (Conflict otherwise, naming both counts);
 * only with an all-places scope.
 */
export function deleteBusiness(db: Db, actor: Actor, scope: Scope, id: number): Business {
  const business = requireBusiness(db, scope, id);
  const usage = businessUsage(db, id);
  if (usage.headquarters + usage.cafes > 0)
    throw new Conflict(message("businesses.in_use", { name: business.name, ...usage }));
  const sold = businessSales(db, id);
  if (sold > 0) throw new Conflict(message("businesses.has_sales", { name: business.name, sales: sold }));
  if (!scope.all) throw new Forbidden();
  db.transaction((tx) => {
    tx.delete(businesses).where(eq(businesses.id, id)).run();
    recordAudit(tx, actor, {
      action: "business.deleted",
      subjectType: "business",
      subjectId: id,
      places: [{ businessId: id }],
      before: snapshot(business),
    });
  });
  return business;
}

export const BusinessServicesInput = t.Object({
  service_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 }),
});

/** The codes of the services the business offers, sorted. */
function serviceCodes(db: Tx, businessId: number): string[] {
  return db
    .select({ code: services.code })
    .from(businessServices)
    .innerJoin(services, eq(services.id, businessServices.serviceId))
    .where(eq(businessServices.businessId, businessId))
    .orderBy(asc(services.code))
    .all()
    .map((r) => r.code);
}

/** Replaces the services a business offers; returns how many it offers now. */
export function setBusinessServices(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
): { business: Business; count: number } {
  const data = parseInput(BusinessServicesInput, input);
  const business = requireBusiness(db, scope, id);
  const wanted = [...new Set(data.service_ids)];
  const known = wanted.length
    ? db.select({ id: services.id }).from(services).where(inArray(services.id, wanted)).all()
    : [];
  if (known.length !== wanted.length)
    throw new ValidationFailed({ service_ids: message("businesses.unknown_services") });
  const before = serviceCodes(db, id);
  db.transaction((tx) => {
    tx.delete(businessServices).where(eq(businessServices.businessId, id)).run();
    for (const serviceId of wanted) tx.insert(businessServices).values({ businessId: id, serviceId }).run();
    recordAudit(tx, actor, {
      action: "business.services.updated",
      subjectType: "business",
      subjectId: id,
      places: [{ businessId: id }],
      before: { services: before },
      after: { services: serviceCodes(tx, id) },
    });
  });
  return { business, count: wanted.length };
}
