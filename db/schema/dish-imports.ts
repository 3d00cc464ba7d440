import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jobs } from "./jobs";
import { users } from "./users";

/**
 * Where a dishes workbook import stages what it writes (src/domain/food/dish-import-staging.ts). The import writes
 * its rows here in short chunks, each row already with the id it will have (new dishes and recipes get ids reserved
 * for them), and then one short transaction copies them into `dishes`, `dish_category_links`, `recipes`,
 * `recipe_lines` and `audit_log`. Nothing reads these tables but the import, so what it writes stays invisible until
 * it is whole; a run whose writer stopped (its lease ran out, or its job is no longer running) is deleted by
 * recovery, its rows with it.
 */
export const DISH_IMPORT_RUN_STATES = ["staging", "done"] as const;
export type DishImportRunState = (typeof DISH_IMPORT_RUN_STATES)[number];

export const dishImportRuns = sqliteTable(
  "dish_import_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The background job writing it, or null from the command line. */
    jobId: integer("job_id").references(() => jobs.id, { onDelete: "set null" }),
    /** Who the audit entries name. */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorLabel: text("actor_label").notNull(),
    /** `staging` while rows are written here; `done` once they were copied (its rows are then cleared). */
    state: text("state", { enum: DISH_IMPORT_RUN_STATES }).notNull(),
    /** Renewed by every chunk: a run past it has lost its writer. */
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }).notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [check("dish_import_runs_state_check", sql`${t.state} IN ('staging', 'done')`)],
);

const run = () =>
  integer("run_id")
    .notNull()
    .references(() => dishImportRuns.id, { onDelete: "cascade" });

/** A dish to create (`is_new`) or to change, with the values it will have. */
export const dishImportDishes = sqliteTable(
  "dish_import_dishes",
  {
    runId: run(),
    dishId: integer("dish_id").notNull(),
    isNew: integer("is_new", { mode: "boolean" }).notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    active: integer("active", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.dishId] })],
);

/** The categories of each staged dish (they replace the dish's own). */
export const dishImportLinks = sqliteTable(
  "dish_import_links",
  {
    runId: run(),
    dishId: integer("dish_id").notNull(),
    categoryId: integer("category_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.dishId, t.categoryId] })],
);

/** A recipe to create or to replace whole. */
export const dishImportRecipes = sqliteTable(
  "dish_import_recipes",
  {
    runId: run(),
    recipeId: integer("recipe_id").notNull(),
    isNew: integer("is_new", { mode: "boolean" }).notNull(),
    dishId: integer("dish_id").notNull(),
    levelId: integer("level_id").notNull(),
    yieldGrams: real("yield_grams"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.recipeId] })],
);

/** The lines of each staged recipe, in the order they are written. */
export const dishImportLines = sqliteTable(
  "dish_import_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: run(),
    recipeId: integer("recipe_id").notNull(),
    position: integer("position").notNull(),
    ingredientId: integer("ingredient_id"),
    subDishId: integer("sub_dish_id"),
    quantity: real("quantity").notNull(),
    offerId: integer("offer_id"),
  },
  (t) => [index("dish_import_lines_run_index").on(t.runId)],
);

/** The audit entries of the import, in the order they are written (`dish.created`, `dish.updated`, `recipe.saved`). */
export const dishImportAudit = sqliteTable(
  "dish_import_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: run(),
    action: text("action").notNull(),
    subjectId: integer("subject_id").notNull(),
    before: text("before"),
    after: text("after"),
  },
  (t) => [index("dish_import_audit_run_index").on(t.runId)],
);
