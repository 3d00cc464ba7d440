/**
 * Dealerships (concesionarias): the client companies whose workers eat at the cafes. They are company-wide records:
 * whoever may see dealerships sees all of them. A RUC belongs to one dealership or subdealership only (checked
 * across both tables); a dealership cannot be deleted while it has subdealerships. Subdealerships, the contractors
 * working for a dealership in some units, and the dealership → subdealership tree live in subdealerships.ts.
 */
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { dealerships, subdealerships } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { dealershipSales } from "../sales/usage";
import { COMPANY_WIDE, recordAudit, type Actor } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import {
  foldText,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type PageRequest,
} from "../search";
import { parseInput, t } from "../validation";
import { rucProblem } from "./ruc";
import type { DealershipOption, DealershipRow } from "../../shared/organisation/types";
export type { DealershipOption, DealershipRow } from "../../shared/organisation/types";

export type Dealership = typeof dealerships.$inferSelect;

/** The settings the RUC check needs (RUC_LENGTH). */
export interface RucSettings {
  rucLength: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields a dealership and a subdealership share. */
export const CompanyFields = {
  name: t.String({ minLength: 2, maxLength: 120 }),
  ruc: t.String({ minLength: 1, maxLength: 20 }),
  fiscal_address: t.Optional(t.String({ maxLength: 255 })),
  legal_address: t.Optional(t.String({ maxLength: 255 })),
  phone: t.Optional(t.String({ maxLength: 40 })),
  email: t.Optional(t.String({ maxLength: 254 })),
};

export const DealershipInput = t.Object(CompanyFields);

/** The RUC and e-mail rules beyond the schema: a well-formed RUC with its check digit, an e-mail that looks like one. */
export function checkCompanyFields(data: { ruc: string; email?: string }, settings: RucSettings): void {
  const errors: Record<string, Message> = {};
  const ruc = rucProblem(data.ruc, settings.rucLength);
  if (ruc) errors.ruc = ruc;
  if (data.email && !EMAIL.test(data.email)) errors.email = message("validation.email");
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
}

/** Refuses a RUC some other dealership or subdealership already has, naming who has it. */
export function ensureRucFree(
  db: Db,
  ruc: string,
  except: { kind: "dealership" | "subdealership"; id: number } | null = null,
): void {
  const dealership = db
    .select({ id: dealerships.id, name: dealerships.name })
    .from(dealerships)
    .where(and(eq(dealerships.ruc, ruc), except?.kind === "dealership" ? ne(dealerships.id, except.id) : undefined))
    .get();
  if (dealership)
    throw new ValidationFailed({ ruc: message("dealerships.ruc_taken_by_dealership", { ruc, name: dealership.name }) });
  const subdealership = db
    .select({ id: subdealerships.id, name: subdealerships.name })
    .from(subdealerships)
    .where(
      and(eq(subdealerships.ruc, ruc), except?.kind === "subdealership" ? ne(subdealerships.id, except.id) : undefined),
    )
    .get();
  if (subdealership)
    throw new ValidationFailed({
      ruc: message("dealerships.ruc_taken_by_subdealership", { ruc, name: subdealership.name }),
    });
}

/** The number of subdealerships of the dealership row (qualified: drizzle leaves single-table columns bare). */
export const subdealershipCount = sql<number>`(SELECT COUNT(*) FROM subdealerships s WHERE s.dealership_id = "dealerships"."id")`;

export function dealershipRowOf(d: Dealership, count: number): DealershipRow {
  return {
    id: d.id,
    name: d.name,
    ruc: d.ruc,
    fiscalAddress: d.fiscalAddress,
    legalAddress: d.legalAddress,
    phone: d.phone,
    email: d.email,
    subdealershipCount: count,
  };
}

const countDealerships = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(dealerships)
    .where(searched ? searchMatch([dealerships.name, dealerships.ruc]) : undefined)
    .prepare(),
);

const dealershipsPage = preparedQuery((db, searched: boolean) =>
  db
    .select({ dealership: dealerships, count: subdealershipCount })
    .from(dealerships)
    .where(searched ? searchMatch([dealerships.name, dealerships.ruc]) : undefined)
    .orderBy(asc(dealerships.name))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/** Dealerships whose name or RUC contains the search, by name; every one when `page` is null (exports). */
export function listDealerships(
  db: Db,
  filter: { search?: string },
  page: PageRequest | null,
): ListResult<DealershipRow> {
  const search = searchPattern(filter.search);
  const searched = search !== null;
  return readList(
    page,
    () => countDealerships(db, searched).get({ search })?.n ?? 0,
    (window) =>
      dealershipsPage(db, searched)
        .all({ search, ...window })
        .map((r) => dealershipRowOf(r.dealership, r.count)),
  );
}

const dealershipChoices = preparedQuery((db) =>
  db.select({ id: dealerships.id, name: dealerships.name }).from(dealerships).orderBy(asc(dealerships.name)).prepare(),
);

/** Every dealership, by name (the choice in the subdealership dialog). */
export function dealershipOptions(db: Db): DealershipOption[] {
  return dealershipChoices(db).all();
}

export function requireDealership(db: Db, id: number): Dealership {
  const dealership =
    Number.isInteger(id) && id > 0 ? db.select().from(dealerships).where(eq(dealerships.id, id)).get() : undefined;
  if (!dealership) throw new NotFound();
  return dealership;
}

export function findDealershipByRuc(db: Db, ruc: string): Dealership | undefined {
  return db.select().from(dealerships).where(eq(dealerships.ruc, ruc)).get();
}

function ensureNameFree(db: Db, name: string, exceptId?: number): void {
  const existing = db
    .select({ id: dealerships.id })
    .from(dealerships)
    .where(and(sql`lower(${dealerships.name}) = lower(${name})`, exceptId ? ne(dealerships.id, exceptId) : undefined))
    .get();
  if (existing) throw new ValidationFailed({ name: message("dealerships.name_taken", { name }) });
}

function snapshot(d: Dealership) {
  return {
    name: d.name,
    ruc: d.ruc,
    fiscalAddress: d.fiscalAddress,
    legalAddress: d.legalAddress,
    phone: d.phone,
    email: d.email,
  };
}

function parseDealership(db: Db, input: unknown, settings: RucSettings, exceptId?: number) {
  const data = parseInput(DealershipInput, input);
  checkCompanyFields(data, settings);
  ensureNameFree(db, data.name, exceptId);
  ensureRucFree(db, data.ruc, exceptId ? { kind: "dealership", id: exceptId } : null);
  return {
    name: data.name,
    ruc: data.ruc,
    fiscalAddress: data.fiscal_address ?? "",
    legalAddress: data.legal_address ?? "",
    phone: data.phone ?? "",
    email: data.email ?? "",
  };
}

export function createDealership(
  db: Db,
  actor: Actor,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Dealership {
  const values = parseDealership(db, input, settings);
  return db.transaction((tx) => {
    const dealership = tx
      .insert(dealerships)
      .values({ ...values, nameFolded: foldText(values.name), createdAt: now, updatedAt: now })
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "dealership.created",
        subjectType: "dealership",
        subjectId: dealership.id,
        places: COMPANY_WIDE,
        after: snapshot(dealership),
      },
      now,
    );
    return dealership;
  });
}

export function updateDealership(
  db: Db,
  actor: Actor,
  id: number,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Dealership {
  const dealership = requireDealership(db, id);
  const values = parseDealership(db, input, settings, id);
  return db.transaction((tx) => {
    const updated = tx
      .update(dealerships)
      .set({ ...values, nameFolded: foldText(values.name), updatedAt: now })
      .where(eq(dealerships.id, id))
      .returning()
      .get();
    recordAudit(
      tx,
      actor,
      {
        action: "dealership.updated",
        subjectType: "dealership",
        subjectId: id,
        places: COMPANY_WIDE,
        before: snapshot(dealership),
        after: snapshot(updated),
      },
      now,
    );
    return updated;
  });
}

/** Deletes a dealership without subdealerships; refused (Conflict, with the count) while it has any. */
export function deleteDealership(db: Db, actor: Actor, id: number): Dealership {
  const dealership = requireDealership(db, id);
  const count =
    db
      .select({ n: sql<number>`count(*)` })
      .from(subdealerships)
      .where(eq(subdealerships.dealershipId, id))
      .get()?.n ?? 0;
  if (count > 0) throw new Conflict(message("dealerships.has_subdealerships", { name: dealership.name, count }));
  const sold = dealershipSales(db, id);
  if (sold > 0) throw new Conflict(message("dealerships.has_sales", { name: dealership.name, sales: sold }));
  db.transaction((tx) => {
    tx.delete(dealerships).where(eq(dealerships.id, id)).run();
    recordAudit(tx, actor, {
      action: "dealership.deleted",
      subjectType: "dealership",
      subjectId: id,
      places: COMPANY_WIDE,
      before: snapshot(dealership),
    });
  });
  return dealership;
}
