/**
 * The meal schedule of a cafe (place-bound data under the scope rule): per day, per meal service with a structure
 * (`structuresOfCafe`), a slot per category of that structure holding the dishes offered in it. Every dish is costed
 * with the recipe of the cafe's default level (`cafes.default_level_id`, else the first level by sort order) at the
 * offers of the cafe's city (`costRecipes`), never stored: a price change shows at once.
 *
 * Figures and bounds:
 * - a dish: its recipe's cost per serving (cents, net of IGV) and kcal; flagged `no_recipe` (no recipe for the
 *   level), `unpriced` (some line has no offer in the city: the cost shown is that of the priced lines, a floor) or
 *   `no_city` (the cafe has no city, so nothing can be priced);
 * - a slot: the figures of its dearest dish (several dishes in a slot are a choice, and the plate must fit whichever
 *   a diner takes), against the structure item's lower and upper bounds;
 * - a meal: the sum of its slots, against the sums of the bounds.
 * A figure is `above` its upper bound as soon as what is known exceeds it; `below` or `within` only once every slot
 * is filled and every dish fully priced (until then `null`: not known yet).
 *
 * Saving names the day's version (0 for a day never saved): a stale version is refused with the day as it is now and
 * who changed it, so two people editing the same week never overwrite each other silently. Copying lays a day, a
 * week or a cycle of weeks over later dates, overwriting their drafts; a published day is overwritten only when the
 * caller says so. Each change is audited as the cafe's and announced (`MenuDayChanged`) after commit.
 */
import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { cafes, dishCategoryLinks, dishes, levels, menuDays, menuSlots, recipes, users } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { NO_EVENTS, type Publisher } from "../events";
import { costRecipes, type CostedRecipe } from "../food/recipe-cost";
import { isCalendarDate } from "../../shared/calendar";
import { searchCondition } from "../search";
import { parseInput, t } from "../validation";
import { addDays, daysBetween } from "../../shared/calendar";
import { DEFAULT_IGV_RATE, structuresOfCafe, type ServiceStructure } from "./structures";
import type {
  BoundState,
  DishOption,
  DishProblem,
  Schedule,
  ScheduleCafe,
  ScheduleDay,
  ScheduleDish,
  ScheduleMeal,
  ScheduleSlot,
} from "../../shared/menu/types";
export type {
  BoundState,
  DishOption,
  DishProblem,
  Schedule,
  ScheduleCafe,
  ScheduleDay,
  ScheduleDish,
  ScheduleMeal,
  ScheduleSlot,
} from "../../shared/menu/types";

/** The longest range the schedule reads at once, in days. */
export const MAX_RANGE_DAYS = 62;
/** The most dishes offered in one slot. */
export const MAX_DISHES_PER_SLOT = 4;
/** The most dishes a dish search answers. */
export const DISH_SEARCH_LIMIT = 20;
/** The most target days one copy may write. */
export const MAX_COPY_DAYS = 186;

export interface ScheduleOptions {
  /** The IGV rate offers are netted with, basis points (the IGV_RATE setting). */
  igvRate?: number;
}

// ——— Dates ———

export { addDays, daysBetween, mondayOf } from "../../shared/calendar";

/** Checks a range: real dates, in order, at most `max` days; the errors name `fromField` and `toField`. */
function checkRange(from: string, to: string, max: number, fromField = "from", toField = "to"): void {
  const errors: Record<string, Message> = {};
  if (!isCalendarDate(from)) errors[fromField] = message("menuSchedule.errors.date");
  if (!isCalendarDate(to)) errors[toField] = message("menuSchedule.errors.date");
  if (!errors[fromField] && !errors[toField]) {
    const length = daysBetween(from, to) + 1;
    if (length < 1) errors[toField] = message("menuSchedule.errors.range_order");
    else if (length > max) errors[toField] = message("menuSchedule.errors.range_length", { max });
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
}

// ——— Reading ———

function requireCafe(db: Db | Tx, scope: Scope, cafeId: number): ScheduleCafe {
  const row =
    Number.isInteger(cafeId) && cafeId > 0
      ? db
          .select({ id: cafes.id, name: cafes.name, cityId: cafes.cityId, levelId: cafes.defaultLevelId })
          .from(cafes)
          .where(eq(cafes.id, cafeId))
          .get()
      : undefined;
  if (!row || !reachesCafe(scope, cafeId)) throw new NotFound();
  const level =
    (row.levelId !== null
      ? db.select({ id: levels.id, name: levels.name }).from(levels).where(eq(levels.id, row.levelId)).get()
      : undefined) ??
    db.select({ id: levels.id, name: levels.name }).from(levels).orderBy(asc(levels.sortOrder), asc(levels.id)).get();
  return { id: row.id, name: row.name, cityId: row.cityId, levelId: level?.id ?? null, levelName: level?.name ?? null };
}

/** The meal services of the cafe that have a structure with at least one category, in the structures' order. */
function layoutOf(db: Db, cafeId: number, options: ScheduleOptions): ServiceStructure[] {
  return structuresOfCafe(db, cafeId, { igvRate: options.igvRate ?? DEFAULT_IGV_RATE }).filter(
    (s) => s.structureId !== null && s.items.length > 0,
  );
}

interface SlotRow {
  dayId: number;
  serviceId: number;
  categoryId: number;
  position: number;
  dishId: number;
}

interface DishFigures {
  name: string;
  active: boolean;
  costCents: number | null;
  kcal: number | null;
  problem: DishProblem | null;
}

/** Names and figures of the dishes, for the cafe's level and city: one costing for all of them. */
function figuresOfDishes(db: Db, cafe: ScheduleCafe, dishIds: readonly number[], options: ScheduleOptions) {
  const figures = new Map<number, DishFigures>();
  const ids = [...new Set(dishIds)];
  if (ids.length === 0) return figures;
  const named = db
    .select({ id: dishes.id, name: dishes.name, active: dishes.active })
    .from(dishes)
    .where(inArray(dishes.id, ids))
    .all();
  const recipeOf = new Map<number, number>();
  if (cafe.levelId !== null)
    for (const r of db
      .select({ id: recipes.id, dishId: recipes.dishId })
      .from(recipes)
      .where(and(inArray(recipes.dishId, ids), eq(recipes.levelId, cafe.levelId)))
      .all())
      recipeOf.set(r.dishId, r.id);
  const costed: Map<number, CostedRecipe> =
    cafe.cityId === null
      ? new Map()
      : costRecipes(db, [...recipeOf.values()], { cityId: cafe.cityId, igvRate: options.igvRate });
  for (const dish of named) {
    const recipeId = recipeOf.get(dish.id);
    const recipe = recipeId === undefined ? undefined : costed.get(recipeId);
    let entry: DishFigures;
    if (recipeId === undefined) entry = { ...dish, costCents: null, kcal: null, problem: "no_recipe" };
    else if (cafe.cityId === null || !recipe) entry = { ...dish, costCents: null, kcal: null, problem: "no_city" };
    else
      entry = {
        ...dish,
        costCents: recipe.totals.costCents,
        kcal: Math.round(recipe.totals.kcal),
        problem: recipe.totals.complete ? null : "unpriced",
      };
    figures.set(dish.id, entry);
  }
  return figures;
}

/** Where a cost stands against its bounds; `complete`: nothing is missing from it (see the module's doc). */
export function boundOf(costCents: number | null, min: number, max: number, complete: boolean): BoundState | null {
  if (costCents === null) return null;
  if (costCents > max) return "above";
  if (!complete) return null;
  return costCents < min ? "below" : "within";
}

function dayState(version: number, publishedVersion: number | null, filled: boolean): ScheduleDay["state"] {
  if (publishedVersion !== null) return publishedVersion === version ? "published" : "changed";
  return version === 0 || !filled ? "empty" : "draft";
}

/** Builds the days of a range from the layout, the day rows, their slots and the dishes' figures. */
function buildDays(
  from: string,
  to: string,
  layout: ServiceStructure[],
  dayRows: (typeof menuDays.$inferSelect)[],
  slotRows: SlotRow[],
  figures: Map<number, DishFigures>,
): ScheduleDay[] {
  const rowByDate = new Map(dayRows.map((d) => [d.date, d]));
  const slotsByDay = new Map<number, SlotRow[]>();
  for (const s of slotRows) {
    const list = slotsByDay.get(s.dayId) ?? [];
    list.push(s);
    slotsByDay.set(s.dayId, list);
  }
  const days: ScheduleDay[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const row = rowByDate.get(date);
    const saved = row ? (slotsByDay.get(row.id) ?? []) : [];
    let shown = 0;
    const meals = layout.map((structure): ScheduleMeal => {
      const slots = structure.items.map((item): ScheduleSlot => {
        const inSlot = saved
          .filter((s) => s.serviceId === structure.service.id && s.categoryId === item.categoryId)
          .sort((a, b) => a.position - b.position);
        shown += inSlot.length;
        const dishList = inSlot.flatMap((s): ScheduleDish[] => {
          const f = figures.get(s.dishId);
          if (!f) return [];
          return [
            {
              id: s.dishId,
              name: f.name,
              active: f.active,
              costCents: f.costCents,
              kcal: f.kcal,
              problem: f.problem,
              bound: boundOf(f.costCents, item.minCostCents, item.maxCostCents, f.problem === null),
            },
          ];
        });
        const costed = dishList.filter((d) => d.costCents !== null);
        const dearest = costed.reduce<ScheduleDish | null>(
          (top, d) => (top === null || d.costCents! > top.costCents! ? d : top),
          null,
        );
        const complete = dishList.length > 0 && dishList.every((d) => d.problem === null);
        const costCents = dearest?.costCents ?? null;
        return {
          categoryId: item.categoryId,
          categoryName: item.categoryName,
          unit: item.unit,
          servingAmount: item.servingAmount,
          minCostCents: item.minCostCents,
          maxCostCents: item.maxCostCents,
          dishes: dishList,
          costCents,
          kcal: dearest?.kcal ?? null,
          complete,
          bound: boundOf(costCents, item.minCostCents, item.maxCostCents, complete),
        };
      });
      const costCents = slots.reduce((sum, s) => sum + (s.costCents ?? 0), 0);
      const complete = slots.every((s) => s.complete);
      const minCostCents = slots.reduce((sum, s) => sum + s.minCostCents, 0);
      const maxCostCents = slots.reduce((sum, s) => sum + s.maxCostCents, 0);
      return {
        serviceId: structure.service.id,
        serviceName: structure.service.name,
        serviceType: structure.service.type,
        slots,
        minCostCents,
        maxCostCents,
        costCents,
        kcal: slots.reduce((sum, s) => sum + (s.kcal ?? 0), 0),
        complete,
        bound: boundOf(costCents, minCostCents, maxCostCents, complete),
      };
    });
    const version = row?.version ?? 0;
    days.push({
      date,
      version,
      updatedAt: row ? row.updatedAt.toISOString() : null,
      updatedByName: row?.updatedByName ?? "",
      publishedVersion: row?.publishedVersion ?? null,
      publishedAt: row?.publishedAt ? row.publishedAt.toISOString() : null,
      state: dayState(version, row?.publishedVersion ?? null, saved.length > 0),
      meals,
      hiddenDishes: saved.length - shown,
    });
  }
  return days;
}

/**
 * The cafe's schedule from `from` to `to` (at most MAX_RANGE_DAYS days, both included): every day, saved or not,
 * with its meals, slots, dishes and figures. A cafe outside the scope is NotFound.
 */
export function scheduleRange(
  db: Db,
  scope: Scope,
  cafeId: number,
  from: string,
  to: string,
  options: ScheduleOptions = {},
): Schedule {
  checkRange(from, to, MAX_RANGE_DAYS);
  const cafe = requireCafe(db, scope, cafeId);
  const layout = layoutOf(db, cafeId, options);
  const dayRows = db
    .select()
    .from(menuDays)
    .where(and(eq(menuDays.cafeId, cafeId), gte(menuDays.date, from), lte(menuDays.date, to)))
    .all();
  const slotRows: SlotRow[] = dayRows.length
    ? db
        .select({
          dayId: menuSlots.dayId,
          serviceId: menuSlots.serviceId,
          categoryId: menuSlots.dishCategoryId,
          position: menuSlots.position,
          dishId: menuSlots.dishId,
        })
        .from(menuSlots)
        .where(
          inArray(
            menuSlots.dayId,
            dayRows.map((d) => d.id),
          ),
        )
        .all()
    : [];
  const figures = figuresOfDishes(
    db,
    cafe,
    slotRows.map((s) => s.dishId),
    options,
  );
  return {
    cafe,
    from,
    to,
    services: layout.map((s) => ({ id: s.service.id, name: s.service.name, type: s.service.type })),
    days: buildDays(from, to, layout, dayRows, slotRows, figures),
  };
}

/** One day of the schedule (what a live page reloads, and what a stale save answers with). */
export function scheduleDay(db: Db, scope: Scope, cafeId: number, date: string, options: ScheduleOptions = {}) {
  return scheduleRange(db, scope, cafeId, date, date, options).days[0];
}

// ——— Searching dishes ———

/**
 * Active dishes of a category whose name contains `q` (accents and case ignored), by name, at most
 * DISH_SEARCH_LIMIT; with a cafe (within the scope), each with its figures for the cafe's level and city.
 */
export function searchDishes(
  db: Db,
  scope: Scope,
  query: { categoryId: number; q?: string; cafeId?: number | null },
  options: ScheduleOptions = {},
): DishOption[] {
  const cafe = query.cafeId ? requireCafe(db, scope, query.cafeId) : null;
  const rows = db
    .select({ id: dishes.id, name: dishes.name })
    .from(dishes)
    .innerJoin(
      dishCategoryLinks,
      and(eq(dishCategoryLinks.dishId, dishes.id), eq(dishCategoryLinks.categoryId, query.categoryId)),
    )
    .where(and(eq(dishes.active, true), searchCondition(query.q, [dishes.name])))
    .orderBy(asc(sql`lower(${dishes.name})`), asc(dishes.id))
    .limit(DISH_SEARCH_LIMIT)
    .all();
  if (!cafe) return rows.map((r) => ({ ...r, costCents: null, kcal: null, problem: null }));
  const figures = figuresOfDishes(
    db,
    cafe,
    rows.map((r) => r.id),
    options,
  );
  return rows.map((r) => {
    const f = figures.get(r.id)!;
    return { id: r.id, name: r.name, costCents: f.costCents, kcal: f.kcal, problem: f.problem };
  });
}

// ——— Saving a day ———

/** A day's draft as the page sends it: its version and, per slot, the dishes in order. */
export const DayInput = t.Object({
  version: t.Integer({ minimum: 0 }),
  slots: t.Array(
    t.Object({
      service_id: t.Integer({ minimum: 1 }),
      category_id: t.Integer({ minimum: 1 }),
      dish_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_DISHES_PER_SLOT }),
    }),
    { maxItems: 200 },
  ),
});

/** The save named a version that is no longer the day's: `current` is the day as it is now. */
export class StaleDay extends Conflict {
  constructor(readonly current: ScheduleDay) {
    super(
      message("menuSchedule.stale", {
        name: current.updatedByName || "—",
        version: current.version,
      }),
    );
  }
}

interface PlannedSlot {
  serviceId: number;
  categoryId: number;
  position: number;
  dishId: number;
}

/** Checks a day's slots against the cafe's structures and the dishes; every problem at once. */
function planSlots(db: Db, layout: ServiceStructure[], slots: (typeof DayInput.static)["slots"]): PlannedSlot[] {
  const errors: Record<string, Message> = {};
  const planned: PlannedSlot[] = [];
  const seen = new Set<string>();
  const dishIds = [...new Set(slots.flatMap((s) => s.dish_ids))];
  const found = new Map(
    (dishIds.length
      ? db
          .select({ id: dishes.id, name: dishes.name, active: dishes.active })
          .from(dishes)
          .where(inArray(dishes.id, dishIds))
          .all()
      : []
    ).map((d) => [d.id, d]),
  );
  const links = new Set(
    (dishIds.length
      ? db
          .select({ dishId: dishCategoryLinks.dishId, categoryId: dishCategoryLinks.categoryId })
          .from(dishCategoryLinks)
          .where(inArray(dishCategoryLinks.dishId, dishIds))
          .all()
      : []
    ).map((l) => `${l.dishId}:${l.categoryId}`),
  );
  slots.forEach((slot, index) => {
    const structure = layout.find((s) => s.service.id === slot.service_id);
    const item = structure?.items.find((i) => i.categoryId === slot.category_id);
    if (!structure || !item) {
      errors[`slots.${index}`] = message("menuSchedule.errors.no_such_slot");
      return;
    }
    const key = `${slot.service_id}:${slot.category_id}`;
    if (seen.has(key)) {
      errors[`slots.${index}`] = message("menuSchedule.errors.slot_twice");
      return;
    }
    seen.add(key);
    const inSlot = new Set<number>();
    slot.dish_ids.forEach((dishId, d) => {
      const dish = found.get(dishId);
      const field = `slots.${index}.dish_ids.${d}`;
      if (!dish) errors[field] = message("menuSchedule.errors.no_such_dish");
      else if (!dish.active) errors[field] = message("menuSchedule.errors.inactive", { dish: dish.name });
      else if (!links.has(`${dishId}:${slot.category_id}`))
        errors[field] = message("menuSchedule.errors.wrong_category", {
          dish: dish.name,
          category: item.categoryName,
        });
      else if (inSlot.has(dishId)) errors[field] = message("menuSchedule.errors.dish_twice", { dish: dish.name });
      else {
        inSlot.add(dishId);
        planned.push({ serviceId: slot.service_id, categoryId: slot.category_id, position: inSlot.size - 1, dishId });
      }
    });
  });
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return planned;
}

/** The name a change is signed with: the person's, or the actor's label (the command line). */
function nameOf(db: Db | Tx, actor: Actor): string {
  if (actor.userId === null) return actor.label;
  return db.select({ name: users.name }).from(users).where(eq(users.id, actor.userId)).get()?.name ?? actor.label;
}

/** A slot list as the audit keeps it, in a stable order: "service:category:dish" by position. */
function slotKeys(rows: readonly { serviceId: number; categoryId: number; position: number; dishId: number }[]) {
  return [...rows]
    .sort((a, b) => a.serviceId - b.serviceId || a.categoryId - b.categoryId || a.position - b.position)
    .map((r) => `${r.serviceId}:${r.categoryId}:${r.dishId}`);
}

/** The audit's words for slots: "Almuerzo · Segundo: Lomo saltado", for the services and categories of the layout. */
function slotWords(db: Db | Tx, layout: ServiceStructure[], rows: readonly PlannedSlot[]): string[] {
  const ids = [...new Set(rows.map((r) => r.dishId))];
  const names = new Map(
    (ids.length
      ? db.select({ id: dishes.id, name: dishes.name }).from(dishes).where(inArray(dishes.id, ids)).all()
      : []
    ).map((d) => [d.id, d.name]),
  );
  return [...rows]
    .sort((a, b) => a.serviceId - b.serviceId || a.categoryId - b.categoryId || a.position - b.position)
    .map((r) => {
      const structure = layout.find((s) => s.service.id === r.serviceId);
      const item = structure?.items.find((i) => i.categoryId === r.categoryId);
      return `${structure?.service.name ?? r.serviceId} · ${item?.categoryName ?? r.categoryId}: ${names.get(r.dishId) ?? r.dishId}`;
    });
}

function readSlots(tx: Db | Tx, dayId: number): PlannedSlot[] {
  return tx
    .select({
      serviceId: menuSlots.serviceId,
      categoryId: menuSlots.dishCategoryId,
      position: menuSlots.position,
      dishId: menuSlots.dishId,
    })
    .from(menuSlots)
    .where(eq(menuSlots.dayId, dayId))
    .all();
}

/**
 * Writes a day's slots inside the caller's transaction: the slots of the layout's services and categories are
 * replaced (dishes kept in slots the structures no longer show stay), the version grows by one. Returns the new
 * version, or null when nothing changed.
 */
function writeDay(
  tx: Tx,
  cafeId: number,
  date: string,
  layout: ServiceStructure[],
  planned: PlannedSlot[],
  who: { actor: Actor; name: string },
  now: Date,
): { version: number; before: PlannedSlot[] } | null {
  const row = tx
    .select()
    .from(menuDays)
    .where(and(eq(menuDays.cafeId, cafeId), eq(menuDays.date, date)))
    .get();
  const shown = new Set(layout.flatMap((s) => s.items.map((i) => `${s.service.id}:${i.categoryId}`)));
  const before = row ? readSlots(tx, row.id) : [];
  const kept = before.filter((s) => !shown.has(`${s.serviceId}:${s.categoryId}`));
  const after = [...kept, ...planned];
  if (JSON.stringify(slotKeys(before)) === JSON.stringify(slotKeys(after))) return null;
  const version = (row?.version ?? 0) + 1;
  const dayId = row
    ? tx
        .update(menuDays)
        .set({ version, updatedAt: now, updatedBy: who.actor.userId, updatedByName: who.name })
        .where(eq(menuDays.id, row.id))
        .returning({ id: menuDays.id })
        .get().id
    : tx
        .insert(menuDays)
        .values({ cafeId, date, version, updatedAt: now, updatedBy: who.actor.userId, updatedByName: who.name })
        .returning({ id: menuDays.id })
        .get().id;
  tx.delete(menuSlots).where(eq(menuSlots.dayId, dayId)).run();
  if (after.length)
    tx.insert(menuSlots)
      .values(
        after.map((s) => ({
          dayId,
          serviceId: s.serviceId,
          dishCategoryId: s.categoryId,
          position: s.position,
          dishId: s.dishId,
        })),
      )
      .run();
  return { version, before: before.filter((s) => shown.has(`${s.serviceId}:${s.categoryId}`)) };
}

/**
 * Saves a day's draft: the slots sent replace the day's (a slot left out is emptied). `version` must be the day's
 * current one (0 for a day never saved), else StaleDay with the day as it is now. Each dish must be active and of
 * its slot's category, each slot one of the cafe's structures. Audited; MenuDayChanged after commit. Returns the day.
 */
export function saveDay(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  date: string,
  input: unknown,
  options: ScheduleOptions & { events?: Publisher; now?: Date } = {},
): ScheduleDay {
  const { events = NO_EVENTS, now = new Date() } = options;
  requireCafe(db, scope, cafeId);
  if (!isCalendarDate(date)) throw new NotFound();
  const value = parseInput(DayInput, input);
  const layout = layoutOf(db, cafeId, options);
  const planned = planSlots(db, layout, value.slots);
  const name = nameOf(db, actor);
  const outcome = db.transaction(
    (tx) => {
      const current =
        tx
          .select({ version: menuDays.version })
          .from(menuDays)
          .where(and(eq(menuDays.cafeId, cafeId), eq(menuDays.date, date)))
          .get()?.version ?? 0;
      if (current !== value.version) return "stale" as const;
      const written = writeDay(tx, cafeId, date, layout, planned, { actor, name }, now);
      if (!written) return null;
      recordAudit(
        tx,
        actor,
        {
          action: "menu_day.updated",
          subjectType: "menu_day",
          subjectId: null,
          places: [{ cafeId }],
          before: { date, version: written.version - 1, slots: slotWords(tx, layout, written.before) },
          after: { date, version: written.version, slots: slotWords(tx, layout, planned) },
        },
        now,
      );
      return written.version;
    },
    { behavior: "immediate" },
  );
  const day = scheduleDay(db, scope, cafeId, date, options);
  if (outcome === "stale") throw new StaleDay(day);
  if (outcome !== null) events.publish({ name: "MenuDayChanged", cafeId, date, version: outcome, updatedByName: name });
  return day;
}

// ——— Copying days ———

/**
 * A copy: the days `from`..`to` (a day, a week, a cycle of weeks; at most MAX_RANGE_DAYS) laid over the dates
 * from `target` on, `times` times one after another (a 2-week cycle copied 3 times fills 6 weeks). `target` comes
 * after `to`. Published days among the targets are overwritten only with `overwrite_published`.
 */
export const CopyInput = t.Object({
  from: t.String({ maxLength: 10 }),
  to: t.String({ maxLength: 10 }),
  target: t.String({ maxLength: 10 }),
  times: t.Optional(t.Integer({ minimum: 1, maximum: 26 })),
  overwrite_published: t.Optional(t.Boolean()),
});

export interface CopyResult {
  /** Target days whose draft changed. */
  changed: number;
  /** Target days that already held the same dishes. */
  unchanged: number;
  /** Of the changed days, those that were published (overwritten because the caller said so). */
  publishedOverwritten: number;
  /** The first and last target dates. */
  firstDate: string;
  lastDate: string;
}

/** The copy would overwrite published days: their dates (the caller asks the person, then sends overwrite_published). */
export class PublishedTargets extends Conflict {
  constructor(readonly dates: string[]) {
    super(message("menuSchedule.copy.published_targets", { count: dates.length, first: dates[0] }));
  }
}

/**
 * Copies days of the cafe's schedule to later dates (see CopyInput): each target day's draft becomes its source
 * day's (an empty source day empties it), for the services and categories the structures have now; inactive dishes
 * are left out. One audit entry for the copy; MenuDayChanged for every target day that changed.
 */
export function copyDays(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: unknown,
  options: ScheduleOptions & { events?: Publisher; now?: Date } = {},
): CopyResult {
  const { events = NO_EVENTS, now = new Date() } = options;
  requireCafe(db, scope, cafeId);
  const value = parseInput(CopyInput, input);
  checkRange(value.from, value.to, MAX_RANGE_DAYS);
  if (!isCalendarDate(value.target)) throw new ValidationFailed({ target: message("menuSchedule.errors.date") });
  if (value.target <= value.to) throw new ValidationFailed({ target: message("menuSchedule.copy.target_after") });
  const length = daysBetween(value.from, value.to) + 1;
  const times = value.times ?? 1;
  if (length * times > MAX_COPY_DAYS)
    throw new ValidationFailed({ times: message("menuSchedule.copy.too_many", { max: MAX_COPY_DAYS }) });
  const lastDate = addDays(value.target, length * times - 1);
  const layout = layoutOf(db, cafeId, options);
  const shown = new Set(layout.flatMap((s) => s.items.map((i) => `${s.service.id}:${i.categoryId}`)));
  const name = nameOf(db, actor);
  const changedDays: { date: string; version: number }[] = [];
  const result = db.transaction(
    (tx): CopyResult | { published: string[] } => {
      const sourceDays = tx
        .select({ id: menuDays.id, date: menuDays.date })
        .from(menuDays)
        .where(and(eq(menuDays.cafeId, cafeId), gte(menuDays.date, value.from), lte(menuDays.date, value.to)))
        .all();
      const activeIds = new Set(
        tx
          .select({ id: dishes.id })
          .from(dishes)
          .where(eq(dishes.active, true))
          .all()
          .map((d) => d.id),
      );
      const sourceSlots = new Map<string, PlannedSlot[]>();
      for (const day of sourceDays)
        sourceSlots.set(
          day.date,
          readSlots(tx, day.id).filter((s) => shown.has(`${s.serviceId}:${s.categoryId}`) && activeIds.has(s.dishId)),
        );
      const published = tx
        .select({ date: menuDays.date })
        .from(menuDays)
        .where(
          and(
            eq(menuDays.cafeId, cafeId),
            gte(menuDays.date, value.target),
            lte(menuDays.date, lastDate),
            sql`${menuDays.publishedVersion} IS NOT NULL`,
          ),
        )
        .orderBy(asc(menuDays.date))
        .all()
        .map((d) => d.date);
      if (published.length && !value.overwrite_published) return { published };
      let unchanged = 0;
      for (let i = 0; i < length * times; i++) {
        const date = addDays(value.target, i);
        const source = sourceSlots.get(addDays(value.from, i % length)) ?? [];
        // Positions again from 0 within each slot, as the inactive dishes left out may leave gaps.
        const counts = new Map<string, number>();
        const planned = [...source]
          .sort((a, b) => a.position - b.position)
          .map((s) => {
            const key = `${s.serviceId}:${s.categoryId}`;
            const position = counts.get(key) ?? 0;
            counts.set(key, position + 1);
            return { ...s, position };
          });
        const written = writeDay(tx, cafeId, date, layout, planned, { actor, name }, now);
        if (written) changedDays.push({ date, version: written.version });
        else unchanged++;
      }
      const publishedOverwritten = changedDays.filter((d) => published.includes(d.date)).length;
      recordAudit(
        tx,
        actor,
        {
          action: "menu_day.copied",
          subjectType: "menu_day",
          subjectId: null,
          places: [{ cafeId }],
          after: {
            from: value.from,
            to: value.to,
            target: value.target,
            times,
            days: changedDays.length,
            publishedDays: publishedOverwritten,
          },
        },
        now,
      );
      return { changed: changedDays.length, unchanged, publishedOverwritten, firstDate: value.target, lastDate };
    },
    { behavior: "immediate" },
  );
  if ("published" in result) throw new PublishedTargets(result.published);
  for (const day of changedDays)
    events.publish({ name: "MenuDayChanged", cafeId, date: day.date, version: day.version, updatedByName: name });
  return result;
}
