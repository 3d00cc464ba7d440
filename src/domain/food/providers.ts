/**
 * Providers: the companies the buyer buys ingredients from, each with a RUC (checked like every RUC in Mesa: length,
 * taxpayer prefix and check digit), a contact person, a phone and an e-mail. Company-wide data (`logistics.manage`).
 * A name and a RUC belong to one provider only; a provider with offers cannot be deleted (withdraw its offers, or
 * delete them, first).
 */
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { offers, providers } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { rucProblem } from "../organisation/ruc";
import {
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  sortOrder,
  type ListResult,
  type PageRequest,
  type SortRequest,
} from "../search";
import { parseInput, t } from "../validation";
import { tidy } from "./cities";
import type { ProviderOption, ProviderRow } from "../../shared/food/types";
export type { ProviderOption, ProviderRow } from "../../shared/food/types";

export type Provider = typeof providers.$inferSelect;

/** The settings a provider's check needs (RUC_LENGTH). */
export interface RucSettings {
  rucLength: number;
}

const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;

export const ProviderInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 120 }),
  ruc: t.String({ minLength: 1, maxLength: 20 }),
  contact: t.Optional(t.String({ maxLength: 120 })),
  phone: t.Optional(t.String({ maxLength: 40 })),
  email: t.Optional(t.String({ maxLength: 254 })),
});

const offerCount = sql<number>`(SELECT COUNT(*) FROM offers o WHERE o.provider_id = "providers"."id")`;
const cityCount = sql<number>`(SELECT COUNT(DISTINCT o.city_id) FROM offers o WHERE o.provider_id = "providers"."id")`;

/** The columns the providers table sorts by. */
const PROVIDER_SORTS = { name: providers.name, ruc: providers.ruc, offers: offerCount, cities: cityCount };

const countProviders = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(providers)
    .where(searched ? searchMatch([providers.name, providers.ruc, providers.contact]) : undefined)
    .prepare(),
);

const providersPage = preparedQuery((db, searched: boolean, sort: string, direction: string) =>
  db
    .select({
      id: providers.id,
      name: providers.name,
      ruc: providers.ruc,
      contact: providers.contact,
      phone: providers.phone,
      email: providers.email,
      offers: offerCount,
      cities: cityCount,
    })
    .from(providers)
    .where(searched ? searchMatch([providers.name, providers.ruc, providers.contact]) : undefined)
    .orderBy(
      ...sortOrder(PROVIDER_SORTS, { sort, direction: direction === "desc" ? "desc" : "asc" }, [
        asc(providers.name),
        asc(providers.id),
      ]),
    )
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/** The sort asked for, reduced to one of the few shapes the list prepares (an unknown column: the default order). */
export function sortShape(allowed: Record<string, unknown>, request: SortRequest | undefined): [string, string] {
  const sort = request?.sort && Object.hasOwn(allowed, request.sort) ? request.sort : "";
  return [sort, sort && request?.direction === "desc" ? "desc" : "asc"];
}

/** Providers whose name, RUC or contact contains the search, by name (or the column asked for); all when `page` is null. */
export function listProviders(
  db: Db,
  filter: { search?: string },
  page: PageRequest | null,
  sort?: SortRequest,
): ListResult<ProviderRow> {
  const search = searchPattern(filter.search);
  const searched = search !== null;
  return readList(
    page,
    () => countProviders(db, searched).get({ search })?.n ?? 0,
    (window) => providersPage(db, searched, ...sortShape(PROVIDER_SORTS, sort)).all({ search, ...window }),
  );
}

const providerChoices = preparedQuery((db) =>
  db.select({ id: providers.id, name: providers.name }).from(providers).orderBy(asc(providers.name)).prepare(),
);

/** Every provider by name (the provider filter and the offer dialog's choice). */
export function providerOptions(db: Db): ProviderOption[] {
  return providerChoices(db).all();
}

export function requireProvider(db: Db | Tx, id: number): Provider {
  const provider =
    Number.isInteger(id) && id > 0 ? db.select().from(providers).where(eq(providers.id, id)).get() : undefined;
  if (!provider) throw new NotFound();
  return provider;
}

function snapshot(p: Provider) {
  return { name: p.name, ruc: p.ruc, contact: p.contact, phone: p.phone, email: p.email };
}

/** Checks a provider's fields, reporting every problem at once, and returns the values to store. */
function parseProvider(db: Db, input: unknown, settings: RucSettings, exceptId?: number) {
  const data = parseInput(ProviderInput, input);
  const errors: Record<string, Message> = {};
  const name = tidy(data.name);
  const ruc = data.ruc.replace(/\s/g, "");
  const rucError = rucProblem(ruc, settings.rucLength);
  if (rucError) errors.ruc = rucError;
  if (data.email && !EMAIL.test(data.email)) errors.email = message("validation.email");
  const sameName = db
    .select({ id: providers.id })
    .from(providers)
    .where(and(sql`lower(${providers.name}) = lower(${name})`, exceptId ? ne(providers.id, exceptId) : undefined))
    .get();
  if (sameName) errors.name = message("food.providers.name_taken", { name });
  if (!rucError) {
    const sameRuc = db
      .select({ name: providers.name })
      .from(providers)
      .where(and(eq(providers.ruc, ruc), exceptId ? ne(providers.id, exceptId) : undefined))
      .get();
    if (sameRuc) errors.ruc = message("food.providers.ruc_taken", { ruc, name: sameRuc.name });
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return { name, ruc, contact: tidy(data.contact ?? ""), phone: tidy(data.phone ?? ""), email: data.email ?? "" };
}

export function createProvider(
  db: Db,
  actor: Actor,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Provider {
  const values = parseProvider(db, input, settings);
  return db.transaction(
    (tx) => {
      const provider = tx
        .insert(providers)
        .values({ ...values, createdAt: now, updatedAt: now })
        .returning()
        .get();
      recordAudit(
        tx,
        actor,
        {
          action: "provider.created",
          subjectType: "provider",
          subjectId: provider.id,
          places: COMPANY_WIDE,
          after: snapshot(provider),
        },
        now,
      );
      return provider;
    },
    { behavior: "immediate" },
  );
}

export function updateProvider(
  db: Db,
  actor: Actor,
  id: number,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Provider {
  const provider = requireProvider(db, id);
  const values = parseProvider(db, input, settings, id);
  return db.transaction(
    (tx) => {
      const updated = tx
        .update(providers)
        .set({ ...values, updatedAt: now })
        .where(eq(providers.id, id))
        .returning()
        .get();
      recordAudit(
        tx,
        actor,
        {
          action: "provider.updated",
          subjectType: "provider",
          subjectId: id,
          places: COMPANY_WIDE,
          before: snapshot(provider),
          after: snapshot(updated),
        },
        now,
      );
      return updated;
    },
    { behavior: "immediate" },
  );
}

/** Deletes a provider without offers; refused (Conflict, with the count) while it has any. */
export function deleteProvider(db: Db, actor: Actor, id: number, now = new Date()): Provider {
  const provider = requireProvider(db, id);
  const count =
    db
      .select({ n: sql<number>`count(*)` })
      .from(offers)
      .where(eq(offers.providerId, id))
      .get()?.n ?? 0;
  if (count > 0) throw new Conflict(message("food.providers.has_offers", { name: provider.name, count }));
  db.transaction(
    (tx) => {
      tx.delete(providers).where(eq(providers.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "provider.deleted",
          subjectType: "provider",
          subjectId: id,
          places: COMPANY_WIDE,
          before: snapshot(provider),
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return provider;
}
