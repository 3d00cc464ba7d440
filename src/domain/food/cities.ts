/**
 * Cities: where cafes and headquarters are and where providers deliver, so an offer is chosen per city and a
 * headquarters acts as the logistics centre of its city. Company-wide data (no place): the buyer keeps them
 * (`logistics.manage`). A name is unique whatever its case; a city in use by a place or an offer cannot be deleted.
 */
import { asc, eq, sql } from "drizzle-orm";
import { cafes, cities, headquarters, offers } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { parseInput, t } from "../validation";
import type { CityOption, CityRow } from "../../shared/food/types";
export type { CityOption, CityRow } from "../../shared/food/types";

export type City = typeof cities.$inferSelect;

export const CityInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 80 }),
  region: t.Optional(t.String({ maxLength: 80 })),
});

/** A name as stored: trimmed, runs of spaces made one. */
export const tidy = (text: string) => text.replace(/\s+/g, " ").trim();

const allCities = preparedQuery((db) =>
  db
    .select({
      id: cities.id,
      name: cities.name,
      region: cities.region,
      cafes: sql<number>`(SELECT COUNT(*) FROM cafes c WHERE c.city_id = "cities"."id")`,
      headquarters: sql<number>`(SELECT COUNT(*) FROM headquarters h WHERE h.city_id = "cities"."id")`,
      offers: sql<number>`(SELECT COUNT(*) FROM offers o WHERE o.city_id = "cities"."id")`,
    })
    .from(cities)
    .orderBy(asc(cities.name))
    .prepare(),
);

/** Every city by name, with what is there (the cities dialog). A company has a few dozen at most. */
export function listCities(db: Db): CityRow[] {
  return allCities(db).all();
}

const cityChoices = preparedQuery((db) =>
  db
    .select({ id: cities.id, name: cities.name, region: cities.region })
    .from(cities)
    .orderBy(asc(cities.name))
    .prepare(),
);

/** Every city, by name: the choices of a city picker. */
export function cityOptions(db: Db): CityOption[] {
  return cityChoices(db).all();
}

export function requireCity(db: Db | Tx, id: number): City {
  const city = Number.isInteger(id) && id > 0 ? db.select().from(cities).where(eq(cities.id, id)).get() : undefined;
  if (!city) throw new NotFound();
  return city;
}

/** The city a form chose (`field` names it in the message when it does not exist), or null when none was chosen. */
export function chosenCity(db: Db | Tx, id: number | null | undefined, field = "city_id"): City | null {
  if (id === null || id === undefined) return null;
  const city = db.select().from(cities).where(eq(cities.id, id)).get();
  if (!city) throw new ValidationFailed({ [field]: message("food.cities.unknown") });
  return city;
}

/** The city named `name` (case and accents as typed, spacing ignored), or undefined. */
export function findCityByName(db: Db | Tx, name: string): City | undefined {
  return db
    .select()
    .from(cities)
    .where(sql`lower(${cities.name}) = lower(${tidy(name)})`)
    .get();
}

function ensureNameFree(db: Db, name: string, exceptId?: number): void {
  const existing = findCityByName(db, name);
  if (existing && existing.id !== exceptId)
    throw new ValidationFailed({ name: message("food.cities.taken", { name }) });
}

function parseCity(db: Db, input: unknown, exceptId?: number) {
  const data = parseInput(CityInput, input);
  const name = tidy(data.name);
  ensureNameFree(db, name, exceptId);
  return { name, region: tidy(data.region ?? "") };
}

export function createCity(db: Db, actor: Actor, input: unknown, now = new Date()): City {
  const values = parseCity(db, input);
  return db.transaction(
    (tx) => {
      const city = tx.insert(cities).values(values).returning().get();
      recordAudit(
        tx,
        actor,
        { action: "city.created", subjectType: "city", subjectId: city.id, places: COMPANY_WIDE, after: values },
        now,
      );
      return city;
    },
    { behavior: "immediate" },
  );
}

export function updateCity(db: Db, actor: Actor, id: number, input: unknown, now = new Date()): City {
  const city = requireCity(db, id);
  const values = parseCity(db, input, id);
  return db.transaction(
    (tx) => {
      const updated = tx.update(cities).set(values).where(eq(cities.id, id)).returning().get();
      recordAudit(
        tx,
        actor,
        {
          action: "city.updated",
          subjectType: "city",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: city.name, region: city.region },
          after: values,
        },
        now,
      );
      return updated;
    },
    { behavior: "immediate" },
  );
}

/** Deletes a city nothing is in; refused (Conflict, saying what is there) while a cafe, headquarters or offer is. */
export function deleteCity(db: Db, actor: Actor, id: number, now = new Date()): City {
  const city = requireCity(db, id);
  const count = (table: typeof cafes | typeof headquarters | typeof offers) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(table)
      .where(eq(table.cityId, id))
      .get()?.n ?? 0;
  const used = { cafes: count(cafes), headquarters: count(headquarters), offers: count(offers) };
  if (used.cafes + used.headquarters + used.offers > 0)
    throw new Conflict(message("food.cities.in_use", { name: city.name, ...used }));
  db.transaction(
    (tx) => {
      tx.delete(cities).where(eq(cities.id, id)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "city.deleted",
          subjectType: "city",
          subjectId: id,
          places: COMPANY_WIDE,
          before: { name: city.name, region: city.region },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return city;
}
