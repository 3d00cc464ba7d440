/**
 * Which services each place offers, down the tree: a mine offers some services, a unit only services its mine
 * offers, a cafe only services its unit offers. Adding a service the parent lacks is refused (one message per
 * service); removing one from a parent removes it from the children that offer it, but only once the actor has
 * seen the list of those children and confirmed (`confirm: true`), all in one transaction, audited.
 *
 * Scope: a cafe is reachable when it is in the actor's scope; a mine or unit when it contains such a cafe.
 * A super-administrator reaches every place.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { cafes, cafeServices, mines, mineServices, services, units, unitServices } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesAnyCafe, type Scope } from "../access/scope";
import { recordAudit, treePlace, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { parseInput, t } from "../validation";
import { clearPricesBeforeRemoval } from "./prices";
import type { AffectedPlace } from "../../shared/places/types";
export type { AffectedPlace } from "../../shared/places/types";

import type { PlaceKind } from "../../shared/places/types";

interface PlaceRef {
  kind: PlaceKind;
  id: number;
  name: string;
  parent: { kind: "mine" | "unit"; id: number; name: string } | null;
}

function group<K>(rows: { key: K; serviceId: number }[]): Map<K, number[]> {
  const map = new Map<K, number[]>();
  for (const r of rows) map.set(r.key, [...(map.get(r.key) ?? []), r.serviceId]);
  return map;
}

/** The place, if it exists within the scope (outside it looks the same as missing). */
export function requirePlace(db: Db, scope: Scope, kind: string, id: number): PlaceRef {
  if (!Number.isInteger(id) || id < 1) throw new NotFound();
  const inScope = (cafeIds: number[]) => reachesAnyCafe(scope, cafeIds);
  if (kind === "mine") {
    const mine = db.select().from(mines).where(eq(mines.id, id)).get();
    const cafeIds = mine
      ? db
          .select({ id: cafes.id })
          .from(cafes)
          .innerJoin(units, eq(units.id, cafes.unitId))
          .where(eq(units.mineId, id))
          .all()
          .map((c) => c.id)
      : [];
    if (!mine || !inScope(cafeIds)) throw new NotFound();
    return { kind, id, name: mine.name, parent: null };
  }
  if (kind === "unit") {
    const row = db
      .select({ unit: units, mineName: mines.name })
      .from(units)
      .innerJoin(mines, eq(mines.id, units.mineId))
      .where(eq(units.id, id))
      .get();
    const cafeIds = row
      ? db
          .select({ id: cafes.id })
          .from(cafes)
          .where(eq(cafes.unitId, id))
          .all()
          .map((c) => c.id)
      : [];
    if (!row || !inScope(cafeIds)) throw new NotFound();
    return { kind, id, name: row.unit.name, parent: { kind: "mine", id: row.unit.mineId, name: row.mineName } };
  }
  if (kind === "cafe") {
    const row = db
      .select({ cafe: cafes, unitName: units.name })
      .from(cafes)
      .innerJoin(units, eq(units.id, cafes.unitId))
      .where(eq(cafes.id, id))
      .get();
    if (!row || !inScope([id])) throw new NotFound();
    return { kind, id, name: row.cafe.name, parent: { kind: "unit", id: row.cafe.unitId, name: row.unitName } };
  }
  throw new NotFound();
}

function offeredBy(db: Tx, kind: PlaceKind, id: number): number[] {
  if (kind === "mine")
    return db
      .select({ s: mineServices.serviceId })
      .from(mineServices)
      .where(eq(mineServices.mineId, id))
      .all()
      .map((r) => r.s);
  if (kind === "unit")
    return db
      .select({ s: unitServices.serviceId })
      .from(unitServices)
      .where(eq(unitServices.unitId, id))
      .all()
      .map((r) => r.s);
  return db
    .select({ s: cafeServices.serviceId })
    .from(cafeServices)
    .where(eq(cafeServices.cafeId, id))
    .all()
    .map((r) => r.s);
}

/** The children (units and cafes below a mine, cafes below a unit) offering any of `serviceIds`. */
function childrenOffering(db: Db, place: PlaceRef, serviceIds: number[], codes: Map<number, string>): AffectedPlace[] {
  if (serviceIds.length === 0 || place.kind === "cafe") return [];
  const affected: AffectedPlace[] = [];
  if (place.kind === "mine") {
    const rows = db
      .select({ id: units.id, name: units.name, serviceId: unitServices.serviceId })
      .from(unitServices)
      .innerJoin(units, eq(units.id, unitServices.unitId))
      .where(and(eq(units.mineId, place.id), inArray(unitServices.serviceId, serviceIds)))
      .orderBy(asc(units.name))
      .all();
    for (const [id, list] of group(rows.map((r) => ({ key: r.id, serviceId: r.serviceId })))) {
      const name = rows.find((r) => r.id === id)!.name;
      affected.push({
        kind: "unit",
        id,
        name,
        path: `${place.name} › ${name}`,
        services: list.map((s) => codes.get(s)!).sort(),
      });
    }
  }
  const cafeRows = db
    .select({ id: cafes.id, name: cafes.name, unitName: units.name, serviceId: cafeServices.serviceId })
    .from(cafeServices)
    .innerJoin(cafes, eq(cafes.id, cafeServices.cafeId))
    .innerJoin(units, eq(units.id, cafes.unitId))
    .where(
      and(
        place.kind === "mine" ? eq(units.mineId, place.id) : eq(units.id, place.id),
        inArray(cafeServices.serviceId, serviceIds),
      ),
    )
    .orderBy(asc(units.name), asc(cafes.name))
    .all();
  for (const [id, list] of group(cafeRows.map((r) => ({ key: r.id, serviceId: r.serviceId })))) {
    const row = cafeRows.find((r) => r.id === id)!;
    const path =
      place.kind === "mine" ? `${place.name} › ${row.unitName} › ${row.name}` : `${place.name} › ${row.name}`;
    affected.push({ kind: "cafe", id, name: row.name, path, services: list.map((s) => codes.get(s)!).sort() });
  }
  return affected;
}

export const PlaceServicesInput = t.Object({
  service_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 }),
  confirm: t.Optional(t.Boolean()),
});

export type SetPlaceServicesResult =
  | { status: "saved"; place: PlaceRef; added: string[]; removed: string[]; affected: AffectedPlace[] }
  | { status: "needs_confirmation"; place: PlaceRef; removed: string[]; affected: AffectedPlace[] };

/**
 * Sets the services a place offers. Refuses services its parent lacks; when removing services its children
 * offer, changes nothing and returns those children unless `confirm` is true.
 */
export function setPlaceServices(
  db: Db,
  actor: Actor,
  scope: Scope,
  kind: string,
  id: number,
  input: unknown,
  now = new Date(),
): SetPlaceServicesResult {
  const place = requirePlace(db, scope, kind, id);
  const data = parseInput(PlaceServicesInput, input);
  const wanted = [...new Set(data.service_ids)];
  const all = db
    .select({ id: services.id, code: services.code, name: services.name, active: services.active })
    .from(services)
    .all();
  const byId = new Map(all.map((s) => [s.id, s]));
  const codes = new Map(all.map((s) => [s.id, s.code]));
  if (wanted.some((s) => !byId.has(s)))
    throw new ValidationFailed({ service_ids: message("services.unknown_services") });

  const current = offeredBy(db, place.kind, place.id);
  const added = wanted.filter((s) => !current.includes(s));
  const removed = current.filter((s) => !wanted.includes(s));
  const parentOffers = place.parent ? offeredBy(db, place.parent.kind, place.parent.id) : null;
  const errors: Record<string, Message> = {};
  for (const s of added) {
    const service = byId.get(s)!;
    if (!service.active)
      errors[`service_ids.${s}`] = message("services.inactive_service", {
        service: `${service.code} · ${service.name}`,
      });
    else if (parentOffers && !parentOffers.includes(s)) {
      errors[`service_ids.${s}`] = message(`services.parent_lacks_${place.parent!.kind}`, {
        service: `${service.code} · ${service.name}`,
        parent: place.parent!.name,
      });
    }
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);

  const affected = childrenOffering(db, place, removed, codes);
  const removedCodes = removed.map((s) => codes.get(s)!).sort();
  if (!scope.all) {
    // The cascade may only reach places within the actor's scope.
    const outside = affected.filter((a) => {
      try {
        requirePlace(db, scope, a.kind, a.id);
        return false;
      } catch {
        return true;
      }
    });
    if (outside.length)
      throw new Conflict(message("services.children_out_of_scope", { places: outside.map((a) => a.path).join(", ") }));
  }
  if (affected.length && !data.confirm) return { status: "needs_confirmation", place, removed: removedCodes, affected };

  db.transaction((tx) => {
    changeOffer(tx, actor, place.kind, place.id, added, removed, now);
    for (const child of affected) {
      const lost = removed.filter((s) => child.services.includes(codes.get(s)!));
      const childBefore = offeredBy(tx, child.kind, child.id)
        .map((s) => codes.get(s)!)
        .sort();
      changeOffer(tx, actor, child.kind, child.id, [], lost, now);
      recordAudit(
        tx,
        actor,
        {
          action: "place.services.removed_by_parent",
          subjectType: child.kind,
          subjectId: child.id,
          places: [treePlace(child.kind, child.id)],
          before: { services: childBefore },
          after: {
            services: childBefore.filter((c) => !child.services.includes(c)),
            parent: { kind: place.kind, id: place.id },
          },
        },
        now,
      );
    }
    if (added.length || removed.length)
      recordOfferChange(
        tx,
        actor,
        place.kind,
        place.id,
        current.map((s) => codes.get(s)!),
        wanted.map((s) => codes.get(s)!),
        now,
      );
  });
  return { status: "saved", place, added: added.map((s) => codes.get(s)!).sort(), removed: removedCodes, affected };
}

/**
 * Adds and removes services of a place inside the caller's transaction, without checks or audit: the caller has
 * checked the parent offers what is added and dealt with the children of what is removed. A cafe's prices of the
 * services it stops offering end first, so their history ends with "→ no price".
 */
export function changeOffer(
  tx: Tx,
  actor: Actor,
  kind: PlaceKind,
  id: number,
  added: number[],
  removed: number[],
  now = new Date(),
): void {
  if (kind === "mine") {
    if (removed.length)
      tx.delete(mineServices)
        .where(and(eq(mineServices.mineId, id), inArray(mineServices.serviceId, removed)))
        .run();
    for (const s of added) tx.insert(mineServices).values({ mineId: id, serviceId: s }).run();
  } else if (kind === "unit") {
    if (removed.length)
      tx.delete(unitServices)
        .where(and(eq(unitServices.unitId, id), inArray(unitServices.serviceId, removed)))
        .run();
    for (const s of added) tx.insert(unitServices).values({ unitId: id, serviceId: s }).run();
  } else {
    clearPricesBeforeRemoval(tx, actor, id, removed, now);
    if (removed.length)
      tx.delete(cafeServices)
        .where(and(eq(cafeServices.cafeId, id), inArray(cafeServices.serviceId, removed)))
        .run();
    for (const s of added)
      tx.insert(cafeServices).values({ cafeId: id, serviceId: s, priceCents: null, updatedAt: now }).run();
  }
}

/** The audit entry of a place's change of services (`place.services.updated`), with the codes before and after. */
export function recordOfferChange(
  tx: Tx,
  actor: Actor,
  kind: PlaceKind,
  id: number,
  before: string[],
  after: string[],
  now = new Date(),
): void {
  recordAudit(
    tx,
    actor,
    {
      action: "place.services.updated",
      subjectType: kind,
      subjectId: id,
      places: [treePlace(kind, id)],
      before: { services: [...before].sort() },
      after: { services: [...after].sort() },
    },
    now,
  );
}

/** Makes `kind` `id` offer the service (seeds and the CLI): no parent check, nothing removed, no audit. */
export function offerService(db: Tx, kind: PlaceKind, id: number, serviceId: number, now = new Date()): void {
  if (kind === "mine") db.insert(mineServices).values({ mineId: id, serviceId }).onConflictDoNothing().run();
  else if (kind === "unit") db.insert(unitServices).values({ unitId: id, serviceId }).onConflictDoNothing().run();
  else
    db.insert(cafeServices)
      .values({ cafeId: id, serviceId, priceCents: null, updatedAt: now })
      .onConflictDoNothing()
      .run();
}
