/**
 * The places areas hang from, as far as access control needs them: the mine → unit → cafe tree and the
 * businesses with their headquarters, limited to the actor's scope, and minimal creation for seeds and the CLI
 * (the places area owns the full editing).
 */
import { and, asc, eq } from "drizzle-orm";
import { businesses, cafes, headquarters, mines, units } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import { inIdList } from "../search";
import { scopeValues, type Scope } from "./scope";
import type { PlaceTree } from "../../shared/access/types";
export type { PlaceTree } from "../../shared/access/types";

const cafesWithParents = preparedQuery((db, all: boolean) =>
  db
    .select({
      mineId: mines.id,
      mineName: mines.name,
      unitId: units.id,
      unitName: units.name,
      cafeId: cafes.id,
      cafeName: cafes.name,
    })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(all ? undefined : inIdList(cafes.id, "cafes"))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .prepare(),
);

const headquartersWithBusinesses = preparedQuery((db, all: boolean) =>
  db
    .select({ businessId: businesses.id, businessName: businesses.name, id: headquarters.id, name: headquarters.name })
    .from(headquarters)
    .innerJoin(businesses, eq(businesses.id, headquarters.businessId))
    .where(all ? undefined : inIdList(headquarters.id, "headquarters"))
    .orderBy(asc(businesses.name), asc(headquarters.name))
    .prepare(),
);

/** The places within the scope, as a tree. */
export function placeTree(db: Db, scope: Scope): PlaceTree {
  const values = scopeValues(scope);
  const mineOf = new Map<number, PlaceTree["mines"][number]>();
  const unitOf = new Map<number, PlaceTree["mines"][number]["units"][number]>();
  for (const r of cafesWithParents(db, scope.all).all(values)) {
    let mine = mineOf.get(r.mineId);
    if (!mine) mineOf.set(r.mineId, (mine = { id: r.mineId, name: r.mineName, units: [] }));
    let unit = unitOf.get(r.unitId);
    if (!unit) {
      unitOf.set(r.unitId, (unit = { id: r.unitId, name: r.unitName, cafes: [] }));
      mine.units.push(unit);
    }
    unit.cafes.push({ id: r.cafeId, name: r.cafeName });
  }
  const businessOf = new Map<number, PlaceTree["businesses"][number]>();
  for (const r of headquartersWithBusinesses(db, scope.all).all(values)) {
    let business = businessOf.get(r.businessId);
    if (!business)
      businessOf.set(r.businessId, (business = { id: r.businessId, name: r.businessName, headquarters: [] }));
    business.headquarters.push({ id: r.id, name: r.name });
  }
  return { mines: [...mineOf.values()], businesses: [...businessOf.values()] };
}

/** Finds or creates a mine, unit and cafe by name (seeds and the CLI). */
export function ensureCafe(
  db: Db,
  mineName: string,
  unitName: string,
  cafeName: string,
  businessId: number | null = null,
): number {
  return db.transaction((tx) => {
    const mine =
      tx.select().from(mines).where(eq(mines.name, mineName)).get() ??
      tx.insert(mines).values({ name: mineName }).returning().get();
    const unit =
      tx
        .select()
        .from(units)
        .where(and(eq(units.mineId, mine.id), eq(units.name, unitName)))
        .get() ?? tx.insert(units).values({ mineId: mine.id, name: unitName }).returning().get();
    const cafe =
      tx
        .select()
        .from(cafes)
        .where(and(eq(cafes.unitId, unit.id), eq(cafes.name, cafeName)))
        .get() ?? tx.insert(cafes).values({ unitId: unit.id, name: cafeName, businessId }).returning().get();
    return cafe.id;
  });
}

/** Finds or creates a business and one of its headquarters by name. */
export function ensureHeadquarters(
  db: Db,
  businessName: string,
  headquartersName: string,
): { businessId: number; headquartersId: number } {
  return db.transaction((tx) => {
    const business =
      tx.select().from(businesses).where(eq(businesses.name, businessName)).get() ??
      tx.insert(businesses).values({ name: businessName }).returning().get();
    const hq =
      tx
        .select()
        .from(headquarters)
        .where(and(eq(headquarters.businessId, business.id), eq(headquarters.name, headquartersName)))
        .get() ?? tx.insert(headquarters).values({ businessId: business.id, name: headquartersName }).returning().get();
    return { businessId: business.id, headquartersId: hq.id };
  });
}

/** Finds a cafe by name ("Cafe", or "Unit/Cafe" when the name repeats); null when missing or ambiguous. */
export function findCafeByName(db: Db, name: string): { id: number } | null {
  const [unitName, cafeName] = name.includes("/") ? name.split("/", 2) : [null, name];
  const rows = db
    .select({ id: cafes.id, unitName: units.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .where(eq(cafes.name, cafeName.trim()))
    .all()
    .filter((r) => unitName === null || r.unitName === unitName.trim());
  return rows.length === 1 ? { id: rows[0].id } : null;
}

export function findHeadquartersByName(db: Db, name: string): { id: number } | null {
  const rows = db.select({ id: headquarters.id }).from(headquarters).where(eq(headquarters.name, name.trim())).all();
  return rows.length === 1 ? rows[0] : null;
}
