/**
 * Menu structures, a cafe's data (the scope rule applies): for each meal service a cafe offers, the ordered dish
 * categories its plate is made of, each with a reference serving in the category's unit, its share of the plate by
 * weight and the lower and upper cost of a serving (cents, net of IGV). A structure's food cost is the sum of its
 * items' bounds; it is read against the service's price at the cafe net of IGV, in soles and as a percentage, and
 * the upper bounds' excess over that price is said at once. The meal schedule lays out its slots from
 * `structuresOfCafe`.
 */
import { and, asc, eq, inArray, ne, or } from "drizzle-orm";
import {
  cafes,
  cafeServices,
  dishCategories,
  menuStructureItems,
  menuStructures,
  mines,
  services,
  units,
  type ServiceType,
} from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { centsToSoles, parseSoles } from "../../shared/money";
import { parseInput, t } from "../validation";
import { structureTotals } from "../../shared/menu/structure-totals";
import type { MenuCafe, ServiceStructure, StructureItem } from "../../shared/menu/types";
export type { MenuCafe, ServiceStructure, StructureItem } from "../../shared/menu/types";

export { netOfIgv, structureTotals, type StructureTotals } from "../../shared/menu/structure-totals";

/** The IGV rate used when a caller names none: the IGV_RATE setting's default, in basis points (1800 = 18 %). */
export const DEFAULT_IGV_RATE = 1800;

/** The most categories a structure holds. */
export const MAX_STRUCTURE_ITEMS = 30;

/** The largest reference serving accepted, in grams or millilitres. */
export const MAX_SERVING_AMOUNT = 10_000;

/** The cafes of a scope, for the menu pages' cafe picker, as Mine › Unit › Cafe. */
export function menuCafes(db: Db, scope: Scope): MenuCafe[] {
  const rows = db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(scope.all ? undefined : inArray(cafes.id, [...scope.cafeIds]))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .all();
  return rows.map((r) => ({ id: r.id, name: r.name, path: `${r.mine} › ${r.unit} › ${r.name}` }));
}

/** The cafe, when it exists and lies in the scope; otherwise NotFound (a cafe outside the scope looks absent). */
export function requireMenuCafe(db: Db | Tx, scope: Scope, cafeId: number): MenuCafe {
  const row = db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(eq(cafes.id, cafeId))
    .get();
  if (!row || !reachesCafe(scope, cafeId)) throw new NotFound();
  return { id: row.id, name: row.name, path: `${row.mine} › ${row.unit} › ${row.name}` };
}

interface ServiceRow {
  id: number;
  code: string;
  name: string;
  type: ServiceType;
  active: boolean;
  priceCents: number | null;
}

/** The meal services a cafe offers (disposables are not meals), and any other service it still has a structure for. */
function menuServices(db: Db | Tx, cafeId: number): ServiceRow[] {
  const offered = db
    .select({
      id: services.id,
      code: services.code,
      name: services.name,
      type: services.type,
      active: services.active,
      priceCents: cafeServices.priceCents,
    })
    .from(cafeServices)
    .innerJoin(services, eq(services.id, cafeServices.serviceId))
    .where(and(eq(cafeServices.cafeId, cafeId), ne(services.type, "disposables")))
    .all();
  const known = new Set(offered.map((s) => s.id));
  const structured = db
    .select({
      id: services.id,
      code: services.code,
      name: services.name,
      type: services.type,
      active: services.active,
    })
    .from(menuStructures)
    .innerJoin(services, eq(services.id, menuStructures.serviceId))
    .where(eq(menuStructures.cafeId, cafeId))
    .all()
    .filter((s) => !known.has(s.id))
    .map((s) => ({ ...s, priceCents: null }));
  return [...offered, ...structured].sort((a, b) => a.code.localeCompare(b.code));
}

function itemsOf(db: Db | Tx, structureIds: number[]): Map<number, StructureItem[]> {
  const byStructure = new Map<number, StructureItem[]>();
  if (structureIds.length === 0) return byStructure;
  const rows = db
    .select({
      structureId: menuStructureItems.structureId,
      position: menuStructureItems.position,
      categoryId: menuStructureItems.dishCategoryId,
      categoryName: dishCategories.name,
      unit: dishCategories.unit,
      servingAmount: menuStructureItems.servingAmount,
      sharePercent: menuStructureItems.sharePercent,
      minCostCents: menuStructureItems.minCostCents,
      maxCostCents: menuStructureItems.maxCostCents,
    })
    .from(menuStructureItems)
    .innerJoin(dishCategories, eq(dishCategories.id, menuStructureItems.dishCategoryId))
    .where(inArray(menuStructureItems.structureId, structureIds))
    .orderBy(asc(menuStructureItems.structureId), asc(menuStructureItems.position))
    .all();
  for (const { structureId, ...item } of rows) {
    const list = byStructure.get(structureId) ?? [];
    list.push(item);
    byStructure.set(structureId, list);
  }
  return byStructure;
}

function readStructures(db: Db | Tx, cafeId: number, igvRate: number, serviceId?: number): ServiceStructure[] {
  const list = menuServices(db, cafeId).filter((s) => serviceId === undefined || s.id === serviceId);
  const heads = db
    .select({ id: menuStructures.id, serviceId: menuStructures.serviceId, updatedAt: menuStructures.updatedAt })
    .from(menuStructures)
    .where(
      and(
        eq(menuStructures.cafeId, cafeId),
        serviceId === undefined ? undefined : eq(menuStructures.serviceId, serviceId),
      ),
    )
    .all();
  const headByService = new Map(heads.map((h) => [h.serviceId, h]));
  const items = itemsOf(
    db,
    heads.map((h) => h.id),
  );
  return list.map((s) => {
    const head = headByService.get(s.id);
    const structureItems = head ? (items.get(head.id) ?? []) : [];
    const { priceCents, ...service } = s;
    return {
      cafeId,
      service,
      structureId: head?.id ?? null,
      updatedAt: head ? head.updatedAt.toISOString() : null,
      items: structureItems,
      totals: structureTotals(structureItems, priceCents, igvRate),
    };
  });
}

/**
 * Per meal service of the cafe (by code): its structure's items in order (none yet: an empty list), the service's
 * price with and without IGV and the structure's totals against it. The caller checks the cafe lies in the scope.
 */
export function structuresOfCafe(db: Db, cafeId: number, opts: { igvRate?: number } = {}): ServiceStructure[] {
  return readStructures(db, cafeId, opts.igvRate ?? DEFAULT_IGV_RATE);
}

/** One service's structure at a cafe (an empty one while none is saved); null when the cafe has no such meal service. */
export function getStructure(
  db: Db,
  cafeId: number,
  serviceId: number,
  opts: { igvRate?: number } = {},
): ServiceStructure | null {
  return readStructures(db, cafeId, opts.igvRate ?? DEFAULT_IGV_RATE, serviceId)[0] ?? null;
}

/** Money is typed in soles ("2.50"); a number is read as soles too. */
const Soles = t.Union([t.String({ maxLength: 20 }), t.Number()]);

export const StructureInput = t.Object({
  items: t.Array(
    t.Object({
      category_id: t.Integer({ minimum: 1 }),
      serving_amount: t.Number({ exclusiveMinimum: 0, maximum: MAX_SERVING_AMOUNT }),
      share_percent: t.Number({ minimum: 0, maximum: 100 }),
      min_cost: Soles,
      max_cost: Soles,
    }),
    { maxItems: MAX_STRUCTURE_ITEMS },
  ),
});

function solesToCents(value: string | number): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    return parseSoles(value.toFixed(2));
  }
  return parseSoles(value);
}

/** What the audit keeps of a structure: each category in order, as one line ("Sopa · 250 ml · 20 % · 1.00–2.00"). */
function snapshot(items: readonly StructureItem[]): string[] {
  return items.map(
    (i) =>
      `${i.categoryName} · ${i.servingAmount} ${i.unit} · ${i.sharePercent} % · ${centsToSoles(i.minCostCents)}–${centsToSoles(i.maxCostCents)}`,
  );
}

/** Checks input against the rules: known and unique categories, shares summing to at most 100, min ≤ max. */
function checkItems(db: Db | Tx, input: unknown): StructureItem[] {
  const data = parseInput(StructureInput, input);
  const errors: Record<string, Message> = {};
  const ids = [...new Set(data.items.map((i) => i.category_id))];
  const categories = new Map(
    (ids.length
      ? db
          .select({ id: dishCategories.id, name: dishCategories.name, unit: dishCategories.unit })
          .from(dishCategories)
          .where(inArray(dishCategories.id, ids))
          .all()
      : []
    ).map((c) => [c.id, c]),
  );
  if (data.items.length === 0) errors.items = message("menu.structures.errors.empty");
  const seen = new Set<number>();
  const items: StructureItem[] = [];
  data.items.forEach((input, index) => {
    const key = `items.${index}`;
    const category = categories.get(input.category_id);
    if (!category) errors[`${key}.category_id`] = message("menu.structures.errors.category_missing");
    else if (seen.has(category.id))
      errors[`${key}.category_id`] = message("menu.structures.errors.category_repeated", { name: category.name });
    seen.add(input.category_id);
    const min = solesToCents(input.min_cost);
    const max = solesToCents(input.max_cost);
    if (min === null) errors[`${key}.min_cost`] = message("menu.structures.errors.cost_invalid");
    if (max === null) errors[`${key}.max_cost`] = message("menu.structures.errors.cost_invalid");
    if (min !== null && max !== null && min > max)
      errors[`${key}.max_cost`] = message("menu.structures.errors.min_above_max");
    items.push({
      position: index,
      categoryId: input.category_id,
      categoryName: category?.name ?? "",
      unit: category?.unit ?? "g",
      servingAmount: input.serving_amount,
      sharePercent: Math.round(input.share_percent * 100) / 100,
      minCostCents: min ?? 0,
      maxCostCents: max ?? 0,
    });
  });
  const shares = items.reduce((sum, i) => sum + i.sharePercent, 0);
  if (shares > 100 + 1e-9)
    errors.share_total = message("menu.structures.errors.shares_over", { total: Math.round(shares * 100) / 100 });
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return items;
}

function requireMenuService(db: Db | Tx, cafeId: number, serviceId: number): ServiceRow {
  const service = menuServices(db, cafeId).find((s) => s.id === serviceId);
  if (!service) throw new NotFound();
  return service;
}

function writeItems(tx: Tx, cafeId: number, serviceId: number, items: readonly StructureItem[], now: Date): number {
  const existing = tx
    .select({ id: menuStructures.id })
    .from(menuStructures)
    .where(and(eq(menuStructures.cafeId, cafeId), eq(menuStructures.serviceId, serviceId)))
    .get();
  const structureId =
    existing?.id ??
    tx.insert(menuStructures).values({ cafeId, serviceId, updatedAt: now }).returning({ id: menuStructures.id }).get()
      .id;
  if (existing) tx.update(menuStructures).set({ updatedAt: now }).where(eq(menuStructures.id, structureId)).run();
  tx.delete(menuStructureItems).where(eq(menuStructureItems.structureId, structureId)).run();
  if (items.length)
    tx.insert(menuStructureItems)
      .values(
        items.map((i, position) => ({
          structureId,
          position,
          dishCategoryId: i.categoryId,
          servingAmount: i.servingAmount,
          sharePercent: i.sharePercent,
          minCostCents: i.minCostCents,
          maxCostCents: i.maxCostCents,
        })),
      )
      .run();
  return structureId;
}

/**
 * Replaces a service's structure at a cafe with the items given (in order). The cafe must lie in the actor's scope
 * and offer the service. Errors are keyed `items.<index>.<field>`, `items` (none given) and `share_total`.
 * Audited as the cafe's data.
 */
export function saveStructure(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  serviceId: number,
  input: unknown,
  opts: { igvRate?: number; now?: Date } = {},
): ServiceStructure {
  requireMenuCafe(db, scope, cafeId);
  requireMenuService(db, cafeId, serviceId);
  const items = checkItems(db, input);
  const now = opts.now ?? new Date();
  const igvRate = opts.igvRate ?? DEFAULT_IGV_RATE;
  return db.transaction(
    (tx) => {
      const before = readStructures(tx, cafeId, igvRate, serviceId)[0];
      writeItems(tx, cafeId, serviceId, items, now);
      recordAudit(
        tx,
        actor,
        {
          action: "menu_structure.updated",
          subjectType: "cafe",
          subjectId: cafeId,
          places: [{ cafeId }],
          before: before?.structureId ? { serviceId, items: snapshot(before.items) } : null,
          after: { serviceId, items: snapshot(items) },
        },
        now,
      );
      return readStructures(tx, cafeId, igvRate, serviceId)[0];
    },
    { behavior: "immediate" },
  );
}

/** Removes a service's structure at a cafe (its schedule slots stay). NotFound when there is none in the scope. */
export function deleteStructure(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  serviceId: number,
  opts: { now?: Date } = {},
): { service: { id: number; code: string; name: string } } {
  requireMenuCafe(db, scope, cafeId);
  const now = opts.now ?? new Date();
  return db.transaction(
    (tx) => {
      const before = readStructures(tx, cafeId, DEFAULT_IGV_RATE, serviceId)[0];
      if (!before) throw new NotFound();
      if (before.structureId === null) throw new Conflict(message("menu.structures.errors.nothing_to_delete"));
      tx.delete(menuStructures).where(eq(menuStructures.id, before.structureId)).run();
      recordAudit(
        tx,
        actor,
        {
          action: "menu_structure.deleted",
          subjectType: "cafe",
          subjectId: cafeId,
          places: [{ cafeId }],
          before: { serviceId, items: snapshot(before.items) },
        },
        now,
      );
      return { service: { id: before.service.id, code: before.service.code, name: before.service.name } };
    },
    { behavior: "immediate" },
  );
}

export const CopyStructureInput = t.Object({
  cafe_ids: t.Array(t.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
});

/**
 * Copies a service's structure at a cafe to other cafes of the actor's scope, replacing theirs. Every target must lie
 * in the scope and offer the service (all or nothing: errors keyed `cafe_ids`). Each target is audited as its own
 * data. Returns how many cafes received it.
 */
export function copyStructure(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  serviceId: number,
  input: unknown,
  opts: { now?: Date } = {},
): { copied: number } {
  const from = requireMenuCafe(db, scope, cafeId);
  const data = parseInput(CopyStructureInput, input);
  const source = readStructures(db, cafeId, DEFAULT_IGV_RATE, serviceId)[0];
  if (!source) throw new NotFound();
  if (source.structureId === null) throw new Conflict(message("menu.structures.errors.nothing_to_copy"));
  const targets = [...new Set(data.cafe_ids)].filter((id) => id !== cafeId);
  const outside = targets.filter((id) => !reachesCafe(scope, id));
  if (outside.length) throw new NotFound();
  const offering = new Set(
    targets.length
      ? db
          .select({ cafeId: cafeServices.cafeId })
          .from(cafeServices)
          .where(and(inArray(cafeServices.cafeId, targets), eq(cafeServices.serviceId, serviceId)))
          .all()
          .map((r) => r.cafeId)
      : [],
  );
  const existing = new Set(
    targets.length
      ? db
          .select({ cafeId: cafes.id })
          .from(cafes)
          .where(inArray(cafes.id, targets))
          .all()
          .map((r) => r.cafeId)
      : [],
  );
  const missing = targets.filter((id) => !existing.has(id));
  if (missing.length) throw new NotFound();
  const notOffering = targets.filter((id) => !offering.has(id));
  if (targets.length === 0 || notOffering.length)
    throw new ValidationFailed({
      cafe_ids: message(
        targets.length === 0 ? "menu.structures.errors.copy_none" : "menu.structures.errors.copy_not_offered",
        { count: notOffering.length, service: source.service.name },
      ),
    });
  const now = opts.now ?? new Date();
  db.transaction(
    (tx) => {
      for (const target of targets) {
        const before = readStructures(tx, target, DEFAULT_IGV_RATE, serviceId)[0];
        writeItems(tx, target, serviceId, source.items, now);
        recordAudit(
          tx,
          actor,
          {
            action: "menu_structure.updated",
            subjectType: "cafe",
            subjectId: target,
            places: [{ cafeId: target }],
            before: before?.structureId ? { serviceId, items: snapshot(before.items) } : null,
            after: { serviceId, items: snapshot(source.items), copiedFrom: from.path },
          },
          now,
        );
      }
    },
    { behavior: "immediate" },
  );
  return { copied: targets.length };
}

/**
 * Where a cafe's structure of a service can be copied: the other cafes of `cafes` (the viewer's, from menuCafes) that
 * offer the service, in their order.
 */
export function copyTargets(db: Db, cafes: MenuCafe[], cafeId: number, serviceId: number): MenuCafe[] {
  const others = cafes.filter((c) => c.id !== cafeId);
  if (others.length === 0) return [];
  const offering = new Set(
    db
      .select({ cafeId: cafeServices.cafeId })
      .from(cafeServices)
      .where(
        and(
          eq(cafeServices.serviceId, serviceId),
          inArray(
            cafeServices.cafeId,
            others.map((c) => c.id),
          ),
        ),
      )
      .all()
      .map((r) => r.cafeId),
  );
  return others.filter((c) => offering.has(c.id));
}

/** The dish categories a structure can use, in the menu table's order. */
export function structureCategoryOptions(db: Db): { id: number; name: string; unit: "g" | "ml" }[] {
  return db
    .select({ id: dishCategories.id, name: dishCategories.name, unit: dishCategories.unit })
    .from(dishCategories)
    .orderBy(asc(dishCategories.sortOrder), asc(dishCategories.name))
    .all();
}

/** Whether any structure uses one of the categories (a category in use cannot be deleted). */
export function categoriesInStructures(db: Db | Tx, categoryIds: readonly number[]): boolean {
  if (categoryIds.length === 0) return false;
  return (
    db
      .select({ id: menuStructureItems.id })
      .from(menuStructureItems)
      .where(or(...categoryIds.map((id) => eq(menuStructureItems.dishCategoryId, id))))
      .limit(1)
      .get() !== undefined
  );
}
