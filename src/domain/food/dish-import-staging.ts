/**
 * How a dishes workbook import writes without being seen half-way (db/schema/dish-imports.ts, decision 017). A run
 * reserves the ids its new dishes and recipes will have, writes every row it plans into the staging tables in short
 * transactions (`writeInChunks`, pausing between them so other requests are served), and then publishes them in one
 * short transaction: a handful of INSERT … SELECT and UPDATE … FROM statements that copy the staged rows into
 * `dishes`, `dish_category_links`, `recipes`, `recipe_lines` and `audit_log`, after a check (the caller's) that the
 * catalogue is still the one the plan was made from. Until that transaction commits nothing of the import is in the
 * tables the pages, the costing and the menus read; after it, all of it is.
 *
 * A run holds a lease that each chunk renews. `recoverDishImports` deletes the runs whose writer stopped (lease run
 * out, or their job no longer running: at start-up every job left running is marked failed first) and the runs
 * already published, their staged rows with them; it runs at start-up and before every import.
 */
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { dishImportRuns, jobs } from "../../../db/schema";
import { immediateTransaction, type Db } from "../../db";
import type { Actor } from "../audit";
import { writeInChunks, type ChunkPacing } from "../imports/engine";

/** How long a run stays its writer's without a chunk renewing it. */
export const RUN_LEASE_MS = 2 * 60 * 1000;
/**
 * The pace of staging in the server's process: chunks of about 20 ms, with a pause that lets requests and sales in
 * between (the command line uses the same: its chunks hold the same database).
 */
export const STAGING_PACING: ChunkPacing = { chunkMs: 20, pauseMs: 4 };
/** How many staged rows one cleaning statement deletes (after publishing, or of an abandoned run). */
const CLEAR_BATCH = 2000;

/** A dish as it will be: new (with its reserved id) or changed. */
export interface StagedDish {
  kind: "dish";
  dishId: number;
  isNew: boolean;
  name: string;
  description: string;
  active: boolean;
  categoryIds: number[];
}

/** A recipe as it will be, its lines replacing any it had. */
export interface StagedRecipe {
  kind: "recipe";
  recipeId: number;
  isNew: boolean;
  dishId: number;
  levelId: number;
  yieldGrams: number | null;
  lines: { ingredientId: number | null; subDishId: number | null; quantity: number; offerId: number | null }[];
}

/** An audit entry the import writes (company-wide, about a dish). */
export interface StagedAudit {
  kind: "audit";
  action: "dish.created" | "dish.updated" | "recipe.saved";
  subjectId: number;
  before?: unknown;
  after: unknown;
}

export type StagedRow = StagedDish | StagedRecipe | StagedAudit;

/** Starts a run for `actor` (and the job writing it, if any); returns its id. */
export function openRun(db: Db, actor: Actor, jobId: number | null, now = new Date()): number {
  return db
    .insert(dishImportRuns)
    .values({
      jobId,
      actorId: actor.userId,
      actorLabel: actor.label,
      state: "staging",
      leaseUntil: new Date(now.getTime() + RUN_LEASE_MS),
      startedAt: now,
    })
    .returning({ id: dishImportRuns.id })
    .get().id;
}

/**
 * Reserves `count` ids of an AUTOINCREMENT table for rows written later: the table's sequence moves past them, so
 * no other insert takes them meanwhile. Returns the first (ids of a run that never publishes stay unused).
 */
export function reserveIds(db: Db, table: "dishes" | "recipes", count: number): number {
  const client = db.$client;
  return immediateTransaction(client, () => {
    const seq = client.query<{ seq: number }, [string]>("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table);
    const max = client.query<{ max: number }, []>(`SELECT COALESCE(MAX(id), 0) AS max FROM ${table}`).get()!.max;
    const first = Math.max(seq?.seq ?? 0, max) + 1;
    if (count === 0) return first;
    if (seq) client.query("UPDATE sqlite_sequence SET seq = ? WHERE name = ?").run(first + count - 1, table);
    else client.query("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(table, first + count - 1);
    return first;
  });
}

/**
 * Writes the rows into the run's staging tables in short transactions, each renewing the run's lease. `progress`
 * hears how many rows are staged after each chunk. Throws when the run is no longer its writer's (recovery took it).
 */
export async function stageRows(
  db: Db,
  runId: number,
  rows: readonly StagedRow[],
  pacing: ChunkPacing,
  progress?: (done: number, total: number) => void,
): Promise<number> {
  const client = db.$client;
  const dish = client.prepare(
    "INSERT INTO dish_import_dishes (run_id, dish_id, is_new, name, description, active) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const link = client.prepare("INSERT INTO dish_import_links (run_id, dish_id, category_id) VALUES (?, ?, ?)");
  const recipe = client.prepare(
    "INSERT INTO dish_import_recipes (run_id, recipe_id, is_new, dish_id, level_id, yield_grams) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const line = client.prepare(
    `INSERT INTO dish_import_lines (run_id, recipe_id, position, ingredient_id, sub_dish_id, quantity, offer_id)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const audit = client.prepare(
    "INSERT INTO dish_import_audit (run_id, action, subject_id, before, after) VALUES (?, ?, ?, ?, ?)",
  );
  const renew = client.prepare("UPDATE dish_import_runs SET lease_until = ? WHERE id = ? AND state = 'staging'");
  return writeInChunks(
    rows,
    pacing,
    (chunk) =>
      immediateTransaction(client, () => {
        if (renew.run(Date.now() + RUN_LEASE_MS, runId).changes !== 1)
          throw new Error(`dish import run ${runId} was abandoned`);
        for (const row of chunk) {
          if (row.kind === "dish") {
            dish.run(runId, row.dishId, row.isNew ? 1 : 0, row.name, row.description, row.active ? 1 : 0);
            for (const categoryId of row.categoryIds) link.run(runId, row.dishId, categoryId);
          } else if (row.kind === "recipe") {
            recipe.run(runId, row.recipeId, row.isNew ? 1 : 0, row.dishId, row.levelId, row.yieldGrams);
            row.lines.forEach((l, position) =>
              line.run(runId, row.recipeId, position, l.ingredientId, l.subDishId, l.quantity, l.offerId),
            );
          } else {
            const before = row.before === undefined ? null : JSON.stringify(row.before);
            audit.run(runId, row.action, row.subjectId, before, JSON.stringify(row.after));
          }
        }
      }),
    progress,
  );
}

/** The statements that publish a run, in order (each takes the run's id; the timestamps take `now`). */
const PUBLISH = [
  // New dishes, with the ids reserved for them.
  `INSERT INTO dishes (id, name, description, active, created_at, updated_at)
   SELECT dish_id, name, description, active, :now, :now FROM dish_import_dishes
   WHERE run_id = :run AND is_new = 1 ORDER BY dish_id`,
  `UPDATE dishes SET name = s.name, description = s.description, active = s.active, updated_at = :now
   FROM dish_import_dishes s WHERE s.run_id = :run AND s.is_new = 0 AND s.dish_id = dishes.id`,
  `DELETE FROM dish_category_links WHERE dish_id IN (SELECT dish_id FROM dish_import_dishes WHERE run_id = :run)`,
  `INSERT INTO dish_category_links (dish_id, category_id)
   SELECT dish_id, category_id FROM dish_import_links WHERE run_id = :run`,
  `INSERT INTO recipes (id, dish_id, level_id, yield_grams, updated_at)
   SELECT recipe_id, dish_id, level_id, yield_grams, :now FROM dish_import_recipes
   WHERE run_id = :run AND is_new = 1 ORDER BY recipe_id`,
  `UPDATE recipes SET yield_grams = s.yield_grams, updated_at = :now
   FROM dish_import_recipes s WHERE s.run_id = :run AND s.is_new = 0 AND s.recipe_id = recipes.id`,
  `DELETE FROM recipe_lines WHERE recipe_id IN (SELECT recipe_id FROM dish_import_recipes WHERE run_id = :run AND is_new = 0)`,
  `INSERT INTO recipe_lines (recipe_id, position, ingredient_id, sub_dish_id, quantity, offer_id)
   SELECT recipe_id, position, ingredient_id, sub_dish_id, quantity, offer_id FROM dish_import_lines
   WHERE run_id = :run ORDER BY id`,
  // Saving a recipe is a change of its dish.
  `UPDATE dishes SET updated_at = :now WHERE id IN (SELECT dish_id FROM dish_import_recipes WHERE run_id = :run)`,
  `INSERT INTO audit_log (actor_id, actor_label, action, subject_type, subject_id, before, after, created_at)
   SELECT r.actor_id, r.actor_label, a.action, 'dish', a.subject_id, a.before, a.after, :now
   FROM dish_import_audit a JOIN dish_import_runs r ON r.id = a.run_id WHERE a.run_id = :run ORDER BY a.id`,
  `UPDATE dish_import_runs SET state = 'done' WHERE id = :run`,
];

/**
 * Publishes the run in one short transaction, when `stillCurrent` (run inside it) says the catalogue is the one the
 * plan was made from; returns whether it did. Throws when the run was abandoned (recovery deleted it).
 */
export function publishRun(db: Db, runId: number, stillCurrent: () => boolean, now = new Date()): boolean {
  const client = db.$client;
  return immediateTransaction(client, () => {
    const run = client.query<{ state: string }, [number]>("SELECT state FROM dish_import_runs WHERE id = ?").get(runId);
    if (run?.state !== "staging") throw new Error(`dish import run ${runId} was abandoned`);
    if (!stillCurrent()) return false;
    for (const statement of PUBLISH) client.query(statement).run({ run: runId, now: now.getTime() });
    return true;
  });
}

/** Deletes a run and its staged rows, a batch at a time (each batch a short transaction, with a pause between). */
export async function clearRun(db: Db, runId: number, pauseMs = STAGING_PACING.pauseMs): Promise<void> {
  const client = db.$client;
  for (const table of ["dish_import_lines", "dish_import_audit", "dish_import_links", "dish_import_recipes"]) {
    for (;;) {
      const deleted = immediateTransaction(
        client,
        () =>
          client
            .query(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE run_id = ? LIMIT ?)`)
            .run(runId, CLEAR_BATCH).changes,
      );
      if (deleted < CLEAR_BATCH) break;
      await Bun.sleep(pauseMs);
    }
  }
  // The dishes are few; the run's own row takes them with it.
  immediateTransaction(client, () => client.query("DELETE FROM dish_import_runs WHERE id = ?").run(runId));
}

/**
 * Deletes the runs nobody will publish: those already published, those whose lease ran out, and those of a job that
 * is no longer running. Their rows go with them (in one statement each: recovery runs when nothing else imports
 * dishes, at start-up, or before an import). Returns how many runs it deleted.
 */
export function recoverDishImports(db: Db, now = new Date()): number {
  const stale = db
    .select({ id: dishImportRuns.id })
    .from(dishImportRuns)
    .leftJoin(jobs, eq(jobs.id, dishImportRuns.jobId))
    .where(
      or(
        eq(dishImportRuns.state, "done"),
        lt(dishImportRuns.leaseUntil, now),
        and(sql`${dishImportRuns.jobId} IS NOT NULL`, sql`(${jobs.state} IS NULL OR ${jobs.state} <> 'running')`),
      ),
    )
    .all()
    .map((r) => r.id);
  if (stale.length === 0) return 0;
  db.transaction((tx) => tx.delete(dishImportRuns).where(inArray(dishImportRuns.id, stale)).run(), {
    behavior: "immediate",
  });
  return stale.length;
}
