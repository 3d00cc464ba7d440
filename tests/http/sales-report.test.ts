/**
 * The report dialog's routes through the app: who may (sales.view: the cashier and the cafe manager of their own
 * cafes, not someone who only sells), the preview's totals and options within the person's scope, a filter refused
 * per field, the `sales.report` job from its start to its end with its progress (detail rows written of all of
 * them), the workbook downloaded by its owner only (anyone else, a missing job, a dismissed or expired one: 404),
 * one report at a time per person, and the file kept under STORAGE_PATH/jobs and deleted when it is no longer
 * wanted.
 *
 * The world (tests/support/pos-app.ts): Comedor Norte and Comedor Sur; root (super-administrator), jefa (Norte's
 * cafe manager), cajera (Norte's cashier), ciega (sells at Norte without sales.view).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { jobs } from "../../db/schema";
import { EVERYTHING, type Scope } from "../../src/domain/access/scope";
import type { Actor } from "../../src/domain/audit";
import { findJob, UPLOAD_KEPT_MS } from "../../src/domain/jobs/jobs";
import { SALES_REPORT } from "../../src/domain/jobs/sales-report";
import { dateIn } from "../../src/shared/calendar";
import { salesTotals, type SalesFilter } from "../../src/domain/sales/report";
import { recordSale, voidSale, type SaleSettings } from "../../src/domain/sales/sell";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submit, submitJson } from "../support/requests";

const SETTINGS: SaleSettings = { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 };
const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

let world: PosApp;
let storage: string;
const clients: Record<string, Client> = {};
/** The days of the test's sales: three days before today (Lima) up to yesterday. */
let days: string[] = [];

const dayBefore = (date: string, n: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  storage = mkdtempSync(join(tmpdir(), "mesa-sales-report-"));
  world = await posApp({ STORAGE_PATH: storage });
  const today = dateIn("America/Lima");
  days = [3, 2, 1].map((n) => dayBefore(today, n));
  const root: Actor = { userId: world.people.root.id, label: "root@mesa.test" };
  let key = 0;
  const sell = (input: Record<string, unknown>, date: string) =>
    recordSale(
      world.app.db,
      root,
      EVERYTHING,
      {
        key: `report-http-${++key}`,
        cafe_id: world.w.norte,
        document_number: "40000001",
        service_date: date,
        sale_type: "credit",
        lines: [{ service_id: world.w.alm, quantity: 1 }],
        ...input,
      },
      SETTINGS,
      { backdate: true },
      undefined,
      new Date(`${date}T17:00:00Z`),
    ).sale;
  sell({}, days[0]);
  sell({ lines: [{ service_id: world.w.des, quantity: 1 }] }, days[0]);
  sell({ document_number: "40000002", sale_type: "cash", lines: [{ service_id: world.w.alm, quantity: 2 }] }, days[1]);
  sell({ cafe_id: world.w.sur, document_number: "40000003" }, days[1]);
  const voided = sell({ document_number: "40000002", lines: [{ service_id: world.w.cen, quantity: 1 }] }, days[2]);
  voidSale(world.app.db, root, EVERYTHING, voided.id, { reason: "Error" }, { voidAny: true });
});

async function as(who: keyof PosApp["people"]): Promise<Client> {
  clients[who] ??= await signedIn(world.app, world.people[who]);
  return clients[who];
}

const json = (client: Client, path: string) => client.get(path, { headers: { accept: "application/json" } });

function filter(over: Partial<SalesFilter> = {}): SalesFilter {
  return {
    from: days[0],
    to: days[2],
    cafeIds: [],
    dealershipId: null,
    subdealershipId: null,
    serviceIds: [],
    saleType: null,
    otherUnit: null,
    status: "valid",
    ...over,
  };
}

const norteOnly = (): Scope => ({
  all: false,
  cafeIds: new Set([world.w.norte]),
  headquartersIds: new Set(),
  businessIds: new Set(),
});

/** Starts a report as `who` and waits for its job to end; returns the job's view. */
async function generate(who: keyof PosApp["people"], body: Record<string, unknown>) {
  const started = await submitJson(await as(who), "POST", "/sales/report", body);
  expect(started.status).toBe(202);
  const { job } = await started.json();
  expect(job.state).toBe("queued");
  await world.app.services.jobs.idle();
  const preview = await json(await as(who), `/sales/report/preview?from=${days[0]}&to=${days[2]}`);
  return (await preview.json()).job as Record<string, any>;
}

describe("the report dialog's routes", () => {
  test("only people who may see sales: a seller without sales.view gets 403, a guest is sent to sign in", async () => {
    const ciega = await as("ciega");
    expect((await json(ciega, "/sales/report/preview")).status).toBe(403);
    expect((await submitJson(ciega, "POST", "/sales/report", {})).status).toBe(403);
    expect((await json(ciega, "/sales/report/1/download")).status).toBe(403);
    const guest = await world.app.app.handle(new Request("http://mesa.test/sales/report/preview"));
    expect([302, 303, 401]).toContain(guest.status);
  });

  test("the preview: the totals of the filter within the person's scope, voided sales apart, and what the filters offer", async () => {
    const query = `/sales/report/preview?from=${days[0]}&to=${days[2]}&options=1`;
    const root = await (await json(await as("root"), query)).json();
    expect(root.totals).toEqual(salesTotals(world.app.db, EVERYTHING, filter()));
    expect(root.totals.voidedSales).toBe(1);
    expect(root.filter).toEqual({ from: days[0], to: days[2] });
    expect(root.options.cafes.map((c: { name: string }) => c.name)).toEqual(["Comedor Norte", "Comedor Sur"]);
    expect(root.options.services.length).toBeGreaterThanOrEqual(3);

    // Norte's cafe manager: Norte's sales and cafe only.
    const jefa = await (await json(await as("jefa"), query)).json();
    expect(jefa.totals).toEqual(salesTotals(world.app.db, norteOnly(), filter()));
    expect(jefa.totals.totalCents).toBeLessThan(root.totals.totalCents);
    expect(jefa.options.cafes.map((c: { name: string }) => c.name)).toEqual(["Comedor Norte"]);
    // Asking for Sur's sales, or a cafe that does not exist, is refused as any place outside the scope is.
    for (const cafes of [`${world.w.sur}`, `${world.w.norte},${world.w.sur}`, "999999"])
      expect((await json(await as("jefa"), `${query}&cafe_ids=${cafes}`)).status).toBe(404);
    expect((await json(await as("jefa"), `${query}&service_ids=999999`)).status).toBe(404);
    // Without options the answer leaves them out; without dates it is this month up to today.
    const plain = await (await json(await as("cajera"), "/sales/report/preview")).json();
    expect(plain.options).toBeUndefined();
    expect(plain.filter.to).toBe(dateIn("America/Lima"));
  });

  test("a bad filter is refused per field, in the person's language", async () => {
    const response = await json(await as("root"), `/sales/report/preview?from=${days[2]}&to=${days[0]}&sale_type=gift`);
    expect(response.status).toBe(422);
    const { errors } = await response.json();
    expect(errors).toEqual({
      to: es("sales.filter.range_backwards"),
      sale_type: es("sales.filter.sale_type_invalid"),
    });
    const started = await submitJson(await as("root"), "POST", "/sales/report", { from: "2026-02-30" });
    expect(started.status).toBe(422);
    expect(Object.keys((await started.json()).errors)).toEqual(["from"]);
  });

  test("a report runs as a job with progress; its owner downloads the workbook, which SheetJS reads, and no one else", async () => {
    const heard: { userId: number; state: string; progress: { done: number; total: number; label: string } }[] = [];
    world.app.services.events.subscribe("JobUpdated", (event) => {
      if (event.kind === SALES_REPORT) heard.push(event);
    });
    const job = await generate("jefa", { from: days[0], to: days[2] });
    const totals = salesTotals(world.app.db, norteOnly(), filter());
    expect(job.state).toBe("succeeded");
    expect(job.result.totals).toEqual(totals);
    expect(job.result.fileName).toBe(`mesa-ventas-${days[0]}-${days[2]}.xlsx`);
    expect(job.downloadUrl).toBe(`/sales/report/${job.id}/download`);
    expect(Date.parse(job.expiresAt) - Date.now()).toBeGreaterThan(UPLOAD_KEPT_MS - 60_000);

    // Progress: the detail rows written of all of them.
    const record = findJob(world.app.db, job.id)!;
    expect(record.kind).toBe(SALES_REPORT);
    expect(record.progress).toEqual({ done: totals.lines, total: totals.lines, label: "reports.progress_detail" });
    // Announced to its owner only: queued, running (the totals, then the detail), succeeded.
    expect(new Set(heard.map((e) => e.userId))).toEqual(new Set([world.people.jefa.id]));
    // (Subscribers run one after another: the realtime one first, so the end may be heard a moment later.)
    for (let i = 0; i < 100 && heard[heard.length - 1]?.state !== "succeeded"; i++) await Bun.sleep(20);
    expect(heard[0].state).toBe("queued");
    expect(heard[heard.length - 1].state).toBe("succeeded");
    expect(heard.some((e) => e.state === "running" && e.progress.label === "reports.progress_totals")).toBe(true);

    // The file waits under STORAGE_PATH/jobs, readable by Mesa's user only.
    expect(record.upload!.startsWith(join(storage, "jobs"))).toBe(true);
    expect(statSync(record.upload!).mode & 0o777).toBe(0o600);

    const download = await (await as("jefa")).get(job.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${job.result.fileName}"`);
    const book = XLSX.read(new Uint8Array(await download.arrayBuffer()), { type: "array" });
    expect(book.SheetNames).toEqual(["Reporte", "Resumen", "Diario", "Valorización", "Detalle"]);
    const detail = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Detalle, { header: 1 }).slice(1);
    expect(detail.length).toBe(totals.lines);
    expect(new Set(detail.map((r) => r[2]))).toEqual(new Set(["Comedor Norte"]));
    expect(detail.reduce((n: number, r) => n + Math.round((r[17] as number) * 100), 0)).toBe(totals.totalCents);

    // Someone else's report, like a missing one, is not found.
    expect((await (await as("root")).get(job.downloadUrl)).status).toBe(404);
    expect((await (await as("cajera")).get(job.downloadUrl)).status).toBe(404);
    expect((await (await as("jefa")).get("/sales/report/999999/download")).status).toBe(404);
    expect((await json(await as("cajera"), `/jobs/${job.id}`)).status).toBe(404);
  });

  test("one report at a time; a new one replaces the last one's file; dismissing deletes it; an expired one is gone", async () => {
    const cajera = await as("cajera");
    const first = await generate("cajera", { from: days[0], to: days[2] });
    const firstFile = findJob(world.app.db, first.id)!.upload!;
    expect(existsSync(firstFile)).toBe(true);

    // While a report runs, another is refused on the form.
    const running = await submitJson(cajera, "POST", "/sales/report", { from: days[0], to: days[2] });
    expect(running.status).toBe(202);
    const busy = await submitJson(cajera, "POST", "/sales/report", { from: days[0], to: days[2] });
    expect(busy.status).toBe(422);
    expect((await busy.json()).errors).toEqual({ form: es("reports.busy") });
    await world.app.services.jobs.idle();
    // The new report took the place of the first: its file is gone, and so is its download.
    expect(existsSync(firstFile)).toBe(false);
    expect((await cajera.get(`/sales/report/${first.id}/download`)).status).toBe(404);

    const second = (await (await json(cajera, "/sales/report/preview")).json()).job;
    const secondFile = findJob(world.app.db, second.id)!.upload!;
    expect(second.state).toBe("succeeded");
    expect((await cajera.get(second.downloadUrl)).status).toBe(200);

    // Past the time a finished job keeps its file, the download is gone and the dialog says so.
    world.app.db
      .update(jobs)
      .set({ finishedAt: new Date(Date.now() - UPLOAD_KEPT_MS - 1000) })
      .where(eq(jobs.id, second.id))
      .run();
    expect((await cajera.get(`/sales/report/${second.id}/download`)).status).toBe(404);
    const expired = (await (await json(cajera, "/sales/report/preview")).json()).job;
    expect(expired.downloadUrl).toBeNull();
    expect(expired.error).toBe(es("reports.expired"));

    // Dismissing ("New report") deletes the file and hides the job.
    expect([302, 303]).toContain((await submit(cajera, "POST", `/jobs/${second.id}/dismiss`)).status);
    expect(existsSync(secondFile)).toBe(false);
    expect((await (await json(cajera, "/sales/report/preview")).json()).job).toBeNull();
  });

  test("a report naming a cafe outside the person's scope is not started: its Report sheet would name it", async () => {
    const jefa = await as("jefa");
    const jobsBefore = world.app.db.select().from(jobs).all().length;
    for (const cafe_ids of [[world.w.sur], [world.w.norte, world.w.sur], [999999]]) {
      const refused = await submitJson(jefa, "POST", "/sales/report", { from: days[0], to: days[2], cafe_ids });
      expect(refused.status).toBe(404);
    }
    expect(world.app.db.select().from(jobs).all().length).toBe(jobsBefore);
    // Root reaches Sur: its report names it.
    const job = await generate("root", { from: days[0], to: days[2], cafe_ids: [world.w.sur] });
    const book = XLSX.read(new Uint8Array(await (await (await as("root")).get(job.downloadUrl)).arrayBuffer()));
    const cafes = XLSX.utils
      .sheet_to_json<unknown[]>(book.Sheets.Reporte, { header: 1 })
      .find((r) => r[0] === "Comedores");
    expect(cafes?.[1]).toBe("Comedor Sur");
  });

  test("the page protocol's form post is sent back to the page", async () => {
    const response = await submit(
      await as("root"),
      "POST",
      "/sales/report",
      { from: days[0], to: days[2] },
      "/dinners",
    );
    expect([302, 303]).toContain(response.status);
    await world.app.services.jobs.idle();
  });
});
