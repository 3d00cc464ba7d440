/**
 * Applying the plan: the services, then each mine, unit and cafe with the services it starts offering and its
 * prices, each audited as the pages audit them, and one `places.imported` record with the counts.
 */
import { bumpAccessVersion } from "../../access/authorization";
import { COMPANY_WIDE, recordAudit, treePlace, type Actor, type AuditPlace, type Tx } from "../../audit";
import { cafes, mines, services, units } from "../../../../db/schema";
import { eq } from "drizzle-orm";
import { applyCafePriceChanges, type PriceChange } from "../prices";
import { offerService } from "../service-assignments";
import type { PlacePlan, Planner } from "./planner";
import type { OnProgress } from "./sheets";
import type { ImportCounts } from "./types";

type Audit = (
  action: string,
  subjectType: string,
  subjectId: number,
  places: readonly AuditPlace[],
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
) => void;

/** Creates and updates the plan's services; returns every named service's id by its code. */
function applyServices(tx: Tx, planner: Planner, audit: Audit, step: () => void, now: Date): Map<string, number> {
  const serviceIds = new Map<string, number>();
  for (const s of planner.services.values()) {
    step();
    const snapshot = { code: s.code, name: s.name, type: s.type, description: s.description, active: s.active };
    if (s.id === null) {
      const created = tx
        .insert(services)
        .values({
          code: s.code,
          name: s.name,
          description: s.description,
          type: s.type,
          active: s.active,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: services.id })
        .get();
      serviceIds.set(s.code, created.id);
      audit("service.created", "service", created.id, COMPANY_WIDE, undefined, snapshot);
    } else {
      if (s.changed) {
        tx.update(services)
          .set({ name: s.name, type: s.type, description: s.description, active: s.active, updatedAt: now })
          .where(eq(services.id, s.id))
          .run();
        audit("service.updated", "service", s.id, COMPANY_WIDE, { code: s.code, ...s.before }, snapshot);
      }
      serviceIds.set(s.code, s.id);
    }
  }
  return serviceIds;
}

/**
 * Writes the plan. Each place and service it creates or changes gets the same audit record the pages write,
 * besides one `places.imported` record with the counts.
 */
export function apply(
  tx: Tx,
  actor: Actor,
  planner: Planner,
  counts: ImportCounts,
  now: Date,
  onProgress?: OnProgress,
): void {
  const audit: Audit = (action, subjectType, subjectId, places, before, after) =>
    recordAudit(tx, actor, { action, subjectType, subjectId, places, before, after }, now);
  // The places of the workbook: the summary entry is about all of them.
  const touched: AuditPlace[] = [];
  const offer = (kind: "mine" | "unit" | "cafe", id: number, place: PlacePlan, isNew: boolean) => {
    touched.push(treePlace(kind, id));
    for (const code of place.added) offerService(tx, kind, id, serviceIds.get(code)!, now);
    if (place.added.size === 0 || isNew) return;
    const after = [...place.services].sort();
    audit(
      "place.services.updated",
      kind,
      id,
      [treePlace(kind, id)],
      { services: after.filter((code) => !place.added.has(code)) },
      { services: after },
    );
  };
  // Progress: one step per service, mine, unit and cafe of the plan.
  const unitPlans = [...planner.mines.values()].flatMap((mine) => [...mine.units.values()]);
  const total =
    planner.services.size +
    planner.mines.size +
    unitPlans.length +
    unitPlans.reduce((sum, unit) => sum + unit.cafes.size, 0);
  let saved = 0;
  const step = () => onProgress?.("saving", ++saved, total);
  onProgress?.("saving", 0, total);
  const serviceIds = applyServices(tx, planner, audit, step, now);
  let accessChanged = false;
  for (const mine of planner.mines.values()) {
    let mineId = mine.id;
    if (mineId === null) {
      mineId = tx.insert(mines).values({ name: mine.name }).returning({ id: mines.id }).get().id;
      audit("mine.created", "mine", mineId, [{ mineId }], undefined, {
        name: mine.name,
        services: [...mine.added].sort(),
      });
    }
    offer("mine", mineId, mine, mine.id === null);
    step();
    for (const unit of mine.units.values()) {
      let unitId = unit.id;
      if (unitId === null) {
        unitId = tx.insert(units).values({ mineId, name: unit.name }).returning({ id: units.id }).get().id;
        audit("unit.created", "unit", unitId, [{ unitId }], undefined, {
          mine: mine.name,
          name: unit.name,
          services: [...unit.added].sort(),
        });
      }
      offer("unit", unitId, unit, unit.id === null);
      step();
      for (const cafe of unit.cafes.values()) {
        let cafeId = cafe.id;
        const business = cafe.businessId === null ? null : (planner.businessesById.get(cafe.businessId)?.name ?? null);
        if (cafeId === null) {
          cafeId = tx
            .insert(cafes)
            .values({ unitId, name: cafe.name, businessId: cafe.businessId, timeZone: cafe.timeZone })
            .returning({ id: cafes.id })
            .get().id;
          audit("cafe.created", "cafe", cafeId, [{ cafeId }], undefined, {
            mine: mine.name,
            unit: unit.name,
            name: cafe.name,
            business,
            timeZone: cafe.timeZone,
            services: [...cafe.added].sort(),
          });
          accessChanged = true;
        } else if (cafe.changed) {
          tx.update(cafes)
            .set({ businessId: cafe.businessId, timeZone: cafe.timeZone })
            .where(eq(cafes.id, cafeId))
            .run();
          audit(
            "cafe.updated",
            "cafe",
            cafeId,
            [{ cafeId }],
            { name: cafe.name, ...cafe.before },
            { name: cafe.name, businessId: cafe.businessId, timeZone: cafe.timeZone },
          );
          if (cafe.businessChanged) accessChanged = true;
        }
        offer("cafe", cafeId, cafe, cafe.id === null);
        const changes: PriceChange[] = [...cafe.priceChanges].map(([code, c]) => ({
          serviceId: serviceIds.get(code)!,
          code,
          old: c.old,
          next: c.next,
        }));
        applyCafePriceChanges(tx, actor, cafeId, changes, now);
        step();
      }
    }
  }
  if (accessChanged) bumpAccessVersion(tx);
  // A workbook of services alone changed only company-wide data.
  recordAudit(
    tx,
    actor,
    {
      action: "places.imported",
      subjectType: "places",
      subjectId: null,
      places: touched.length ? touched : COMPANY_WIDE,
      after: counts,
    },
    now,
  );
}
