/**
 * The dishes workbook import as a job: the preview checks the stored upload and keeps it when there is something to
 * confirm; applying writes exactly the confirmed plan, reporting the check and the writing as progress while the
 * event loop keeps turning; a plan the catalogue no longer matches fails with the new one (the upload kept again);
 * a file with rows to fix fails with them; a file that is no spreadsheet fails with its message; and the staging of
 * a job that is no longer running is deleted by recovery at once.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { dishCategories, dishes, jobs, recipeLines } from "../../../db/schema";
import type { Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { addUser } from "../../../tests/support/people";
import { EVERYTHING } from "../access/scope";
import type { User } from "../accounts/users";
import { createCategory } from "../food/categories";
import { openRun, recoverDishImports } from "../food/dish-import-staging";
import { createIngredient } from "../food/ingredients";
import { DISHES_IMPORT, dishesImportJob, type DishesImportInput, type DishesImportResult } from "./dishes-import";
import { findJob, markFailed, storeUpload, type Job } from "./jobs";
import { JobRunner } from "./runner";
import type { DomainEvent } from "../events";

let db: Db;
let owner: User;
let storage: string;
let events: DomainEvent<"JobUpdated">[];

beforeEach(async () => {
  db = migratedDatabase();
  owner = await addUser(db, "Nora Nutri", "nora@mesa.test");
  storage = mkdtempSync(join(tmpdir(), "mesa-dish-job-"));
  events = [];
  const cereals = createCategory(db, { userId: null, label: "cli" }, { name: "Cereales" });
  for (const name of ["Arroz pilado", "Pollo"])
    createIngredient(db, { userId: null, label: "cli" }, { name, category_id: cereals.id, base_unit: "g", kcal: 300 });
  db.insert(dishCategories).values({ name: "Segundo", unit: "g" }).run();
});

afterEach(() => rmSync(storage, { recursive: true, force: true }));

function workbook(rows: (string | number | null)[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Recetas");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

const HEADER = ["Plato", "Categorías", "Nivel", "Insumo", "Cantidad"];
function rowsOf(count: number): (string | number)[][] {
  const rows: (string | number)[][] = [HEADER];
  for (let d = 0; d < count; d++)
    rows.push([`Plato ${d}`, "Segundo", "Staff", "Arroz pilado", 100], [`Plato ${d}`, "", "Staff", "Pollo", 50]);
  return rows;
}

async function run(input: Omit<DishesImportInput, "path"> & { bytes?: Uint8Array; path?: string }): Promise<Job> {
  const runner = new JobRunner(db, [dishesImportJob], async (event) => {
    events.push(event);
  });
  const path = input.path ?? storeUpload(storage, input.bytes!, "xlsx");
  const job = runner.start({
    kind: DISHES_IMPORT,
    actor: { userId: owner.id, label: owner.email },
    scope: EVERYTHING,
    input: { step: input.step, fileName: input.fileName, plan: input.plan, path },
    upload: path,
  });
  await runner.idle();
  return findJob(db, job.id)!;
}

describe("the dishes import job", () => {
  test("previews, keeping the upload; applying writes the plan, with progress, while the event loop turns", async () => {
    const preview = await run({ step: "preview", fileName: "platos.xlsx", bytes: workbook(rowsOf(1500)) });
    expect(preview.state).toBe("succeeded");
    const { plan } = preview.result as DishesImportResult;
    expect(plan.counts).toMatchObject({ dishesCreated: 1500, recipesCreated: 1500 });
    expect(preview.upload).not.toBeNull();
    expect(existsSync(preview.upload!)).toBe(true);
    expect(db.select().from(dishes).all()).toHaveLength(0);

    // The longest the event loop waits while the job runs.
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    events = [];
    const applied = await run({
      step: "apply",
      fileName: "platos.xlsx",
      path: preview.upload!,
      plan: plan.fingerprint,
    });
    clearInterval(timer);
    expect(applied.state).toBe("succeeded");
    expect((applied.result as DishesImportResult).written).toBe(true);
    expect(db.select().from(dishes).all()).toHaveLength(1500);
    expect(db.select().from(recipeLines).all()).toHaveLength(3000);
    const labels = new Set(events.map((e) => e.progress.label));
    expect(labels).toContain("foodImportDishes.progress_checking");
    expect(labels).toContain("foodImportDishes.progress_saving");
    // Nothing holds the loop for the whole import: it turns between chunks (a generous bound for slow machines).
    expect(longest).toBeLessThan(250);
  });

  test("a changed catalogue fails with the new plan and keeps the upload; rows to fix fail with them", async () => {
    const bytes = workbook(rowsOf(2));
    const preview = await run({ step: "preview", fileName: "platos.xlsx", bytes });
    const { plan } = preview.result as DishesImportResult;
    const now = new Date();
    db.insert(dishes).values({ name: "Plato 1", createdAt: now, updatedAt: now }).run();
    const stale = await run({ step: "apply", fileName: "platos.xlsx", path: preview.upload!, plan: plan.fingerprint });
    expect(stale.state).toBe("failed");
    expect(stale.error).toEqual({ key: "foodImportDishes.changed" });
    expect((stale.result as DishesImportResult).plan.counts).toMatchObject({ dishesCreated: 1, dishesUpdated: 1 });
    expect(stale.upload).not.toBeNull();
    expect(db.select().from(recipeLines).all()).toHaveLength(0);

    const bad = await run({
      step: "preview",
      fileName: "malo.xlsx",
      bytes: workbook([...rowsOf(1), ["Sopa", "Segundo", "Chef", "Papa", 1]]),
    });
    expect(bad.state).toBe("failed");
    expect(bad.error).toEqual({ key: "foodImportDishes.failed" });
    expect((bad.result as DishesImportResult).plan.problems).toHaveLength(2);
    expect(bad.upload).toBeNull();

    const notASheet = await run({
      step: "preview",
      fileName: "platos.xlsx",
      bytes: new TextEncoder().encode("\u0000\u0001hola"),
    });
    expect(notASheet.state).toBe("failed");
    expect(notASheet.result).toBeNull();
  });

  test("the staging of a job that is no longer running is deleted at once", async () => {
    const job = db
      .insert(jobs)
      .values({
        kind: DISHES_IMPORT,
        userId: owner.id,
        actorLabel: owner.email,
        scope: "{}",
        input: "{}",
        state: "running",
        createdAt: new Date(),
      })
      .returning()
      .get();
    openRun(db, { userId: owner.id, label: owner.email }, job.id);
    expect(recoverDishImports(db)).toBe(0);
    markFailed(db, job.id, "jobs.interrupted");
    expect(recoverDishImports(db)).toBe(1);
  });
});
