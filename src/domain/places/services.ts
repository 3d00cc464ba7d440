/**
 * Services: what a cafe sells (breakfast, lunch, dinner, snack, disposables), each with a unique code. A service
 * is offered down the place tree (see service-assignments.ts) and priced per cafe (see prices.ts). A service
 * cannot be deleted while some place offers it, nor once it has had a price anywhere: deactivate it instead.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import {
  businessServices,
  cafeServices,
  mineServices,
  SERVICE_TYPES,
  servicePriceHistory,
  services,
  unitServices,
  type ServiceType,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { serviceSales } from "../sales/usage";
import { COMPANY_WIDE, recordAudit, type Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import {
  boundNumber,
  boundText,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type PageRequest,
  type SortRequest,
} from "../search";
import { listSort, orderOf, type ListSort } from "./list-sort";
import { parseInput, t } from "../validation";
import type { ServiceOption, ServiceRow } from "../../shared/places/types";
export type { ServiceOption, ServiceRow } from "../../shared/places/types";

export { SERVICE_TYPES, type ServiceType };

export type Service = typeof services.$inferSelect;

export interface ServiceFilter {
  search?: string;
  type?: ServiceType;
  active?: boolean;
}

const placesCount = sql<number>`((SELECT COUNT(*) FROM mine_services x WHERE x.service_id = services.id) + (SELECT COUNT(*) FROM unit_services x WHERE x.service_id = services.id) + (SELECT COUNT(*) FROM cafe_services x WHERE x.service_id = services.id))`;

/** The prepared list's condition: SEARCH in code or name, the type bound to `type`, the flag bound to `active`. */
function filterCondition(searched: boolean, byType: boolean, byActive: boolean) {
  return and(
    searched ? searchMatch([services.code, services.name]) : undefined,
    byType ? eq(services.type, boundText("type") as unknown as ServiceType) : undefined,
    byActive ? eq(services.active, boundNumber("active") as unknown as boolean) : undefined,
  );
}

/** The columns the Services table sorts by on the server. */
const SERVICE_SORTS = {
  code: services.code,
  name: services.name,
  type: services.type,
  status: services.active,
  places: placesCount,
};

const countServices = preparedQuery((db, searched: boolean, byType: boolean, byActive: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(services)
    .where(filterCondition(searched, byType, byActive))
    .prepare(),
);

const servicesPage = preparedQuery(
  (db, searched: boolean, byType: boolean, byActive: boolean, sort: ListSort[0], direction: ListSort[1]) =>
    db
      .select({ service: services, places: placesCount })
      .from(services)
      .where(filterCondition(searched, byType, byActive))
      .orderBy(...orderOf(SERVICE_SORTS, [sort, direction], [asc(services.code)]))
      .limit(LIMIT)
      .offset(OFFSET)
      .prepare(),
);

/** Services filtered and paginated, by code (or the allowed column asked for); every one when `page` is null. */
export function listServices(
  db: Db,
  filter: ServiceFilter,
  page: PageRequest | null,
  sort?: SortRequest,
): ListResult<ServiceRow> {
  const search = searchPattern(filter.search);
  const shape = [search !== null, filter.type !== undefined, filter.active !== undefined] as const;
  const values = {
    search,
    type: filter.type ?? null,
    active: filter.active === undefined ? null : Number(filter.active),
  };
  const found = readList(
    page,
    () => countServices(db, ...shape).get(values)?.n ?? 0,
    (window) => servicesPage(db, ...shape, ...listSort(SERVICE_SORTS, sort)).all({ ...values, ...window }),
  );
  return {
    total: found.total,
    page: found.page,
    rows: found.rows.map(({ service: s, places }) => ({
      id: s.id,
      code: s.code,
      name: s.name,
      description: s.description,
      type: s.type,
      active: s.active,
      places,
      updatedAt: s.updatedAt.toISOString(),
    })),
  };
}

/** The first active service by code, as a workbook row names it (the places template's example row), if any. */
export function firstActiveService(
  db: Db,
): { code: string; name: string; type: ServiceType; description: string } | undefined {
  return db
    .select({ code: services.code, name: services.name, type: services.type, description: services.description })
    .from(services)
    .where(eq(services.active, true))
    .orderBy(asc(services.code))
    .get();
}

/** Every service, by code (choices in the dialogs). */
export function serviceOptions(db: Db): ServiceOption[] {
  return db
    .select({ id: services.id, code: services.code, name: services.name, type: services.type, active: services.active })
    .from(services)
    .orderBy(asc(services.code))
    .all();
}

export function requireService(db: Db, id: number): Service {
  const service = db.select().from(services).where(eq(services.id, id)).get();
  if (!service) throw new NotFound();
  return service;
}

export function findServiceByCode(db: Db, code: string): Service | undefined {
  return db.select().from(services).where(eq(services.code, code.trim().toUpperCase())).get();
}

export const ServiceInput = t.Object({
  code: t.String({ minLength: 1, maxLength: 12, pattern: "^[A-Z0-9][A-Z0-9_-]*$", messageKey: "services.code_format" }),
  name: t.String({ minLength: 2, maxLength: 80 }),
  description: t.Optional(t.String({ maxLength: 500 })),
  type: t.Union(SERVICE_TYPES.map((type) => t.Literal(type))),
  active: t.Optional(t.Boolean()),
});

function parseService(input: unknown) {
  const source = input && typeof input === "object" ? { ...(input as Record<string, unknown>) } : {};
  // Codes are kept in capitals: "des" and "DES" are the same code.
  if (typeof source.code === "string") source.code = source.code.trim().toUpperCase();
  return parseInput(ServiceInput, source);
}

function ensureCodeFree(db: Db, code: string, exceptId?: number): void {
  const existing = db.select({ id: services.id }).from(services).where(eq(services.code, code)).get();
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ code: message("services.code_taken", { code }) });
}

function snapshot(s: Service) {
  return { code: s.code, name: s.name, description: s.description, type: s.type, active: s.active };
}

export function createService(db: Db, actor: Actor, input: unknown, now = new Date()): Service {
  const data = parseService(input);
  ensureCodeFree(db, data.code);
  return db.transaction((tx) => {
    const service = tx
      .insert(services)
      .values({
        code: data.code,
        name: data.name,
        description: data.description ?? "",
        type: data.type,
        active: data.active ?? true,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "service.created",
        subjectType: "service",
        subjectId: service.id,
        places: COMPANY_WIDE,
        after: snapshot(service),
      },
      now,
    );
    return service;
  });
}

export function updateService(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): Service {
  const service = requireService(db, id);
  const data = parseService(input);
  ensureCodeFree(db, data.code, id);
  return db.transaction((tx) => {
    const updated = tx
      .update(services)
      .set({
        code: data.code,
        name: data.name,
        description: data.description ?? service.description,
        type: data.type,
        active: data.active ?? service.active,
        updatedAt: now,
      })
      .where(eq(services.id, id))
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "service.updated",
        subjectType: "service",
        subjectId: id,
        places: COMPANY_WIDE,
        before: snapshot(service),
        after: snapshot(updated),
      },
      now,
    );
    return updated;
  });
}

/** How many mines, units, cafes and businesses offer the service. */
export function serviceUsage(db: Db, id: number): { mines: number; units: number; cafes: number; businesses: number } {
  const count = (table: typeof mineServices | typeof unitServices | typeof cafeServices | typeof businessServices) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(table)
      .where(eq(table.serviceId, id))
      .get()?.n ?? 0;
  return {
    mines: count(mineServices),
    units: count(unitServices),
    cafes: count(cafeServices),
    businesses: count(businessServices),
  };
}

/** Deletes a service nothing offers; refused (Conflict) while any mine, unit, cafe or business does. */
export function deleteService(db: Db, actor: Actor, id: number): Service {
  const service = requireService(db, id);
  const usage = serviceUsage(db, id);
  if (usage.mines + usage.units + usage.cafes + usage.businesses > 0)
    throw new Conflict(message("services.in_use", { code: service.code, ...usage }));
  // A service that ever had a price stays, so the price history (and the sales it explains) keeps its subject.
  const pricedCafes =
    db
      .select({ n: sql<number>`count(distinct ${servicePriceHistory.cafeId})` })
      .from(servicePriceHistory)
      .where(eq(servicePriceHistory.serviceId, id))
      .get()?.n ?? 0;
  if (pricedCafes > 0)
    throw new Conflict(message("services.has_price_history", { code: service.code, cafes: pricedCafes }));
  const sold = serviceSales(db, id);
  if (sold > 0) throw new Conflict(message("services.has_sales", { code: service.code, sales: sold }));
  db.transaction((tx) => {
    tx.delete(services).where(eq(services.id, id)).run();
    recordAudit(tx, actor, {
      action: "service.deleted",
      subjectType: "service",
      subjectId: id,
      places: COMPANY_WIDE,
      before: snapshot(service),
    });
  });
  return service;
}
