/**
 * Background jobs through the app: a job is its starter's alone (reading it, dismissing it and the page that shows
 * it answer 404 or nothing to anyone else), it keeps the actor and scope of who started it, and its progress goes to
 * its owner's private channel. The import itself through a job is in places-import.test.ts.
 *
 * The world: business "Catering X S.A.C." runs Mina Norte → Unidad A → Comedor A, which offers DES; a places manager
 * at its headquarters (their scope: the business and its cafe) and a second places manager.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import { auditLog, cafes, jobs, mines, servicePriceHistory } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { accessProfile } from "../../src/domain/access/authorization";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { EVERYTHING, scopeOf } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { EventBus } from "../../src/domain/events";
import { findJob } from "../../src/domain/jobs/jobs";
import { offerService } from "../../src/domain/places/service-assignments";
import { createService } from "../../src/domain/places/services";
import { buildWorkbook } from "../../src/domain/spreadsheets/write";
import type { Broadcaster } from "../../src/realtime/broadcaster";
import type { BroadcastEvent } from "../../src/shared/realtime-events";
import { subscribeRealtime } from "../../src/realtime/subscribers";
import { BASE, Client, createTestApp } from "../support/app";
import { addUser, makeRole } from "../support/people";
import { signedIn, visitPage } from "../support/requests";

const es = (key: TranslationKey, params?: TranslationParams) => translate("es", key, params);

async function buildWorld() {
  const app = createTestApp({ env: { STORAGE_PATH: mkdtempSync(join(tmpdir(), "mesa-jobs-storage-")) } });
  const db = app.db;
  bootstrapAccess(db);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafe = db.select().from(cafes).where(eq(cafes.id, cafeA)).get()!;
  const des = createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast" }).id;
  offerService(db, "mine", db.select().from(mines).where(eq(mines.name, "Mina Norte")).get()!.id, des);
  offerService(db, "unit", cafe.unitId, des);
  offerService(db, "cafe", cafeA, des);
  const placesRole = makeRole(db, "places manager", ["places.view", "places.manage", "prices.manage"]);
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: x.headquartersId,
    role_ids: [placesRole],
  }).id;
  const owner = await addUser(db, "Olga Dueña", "olga@mesa.test");
  const other = await addUser(db, "Omar Otro", "omar@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: owner.id, areaId: sede, roleId: placesRole });
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: other.id, areaId: sede, roleId: placesRole });
  return { app, db, cafeA, owner, other };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** A workbook that sets Comedor A's DES price. */
function priceWorkbook(price: string): Uint8Array<ArrayBuffer> {
  const rows = [["Mina Norte", "Unidad A", "Comedor A", "DES", price]];
  return buildWorkbook([
    {
      name: "Precios",
      columns: ["Mina", "Unidad", "Comedor", "Servicio", "Precio"].map((header, i) => ({
        header,
        value: (row: string[]) => row[i],
      })),
      rows,
    },
  ]);
}

/** Uploads on the Management page, waits for the job to end, and returns the job's id. */
async function importAs(w: World, client: Client, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const form = new FormData();
  form.append("file", new File([bytes], "precios.xlsx"));
  const response = await client.request("/management/import", {
    method: "POST",
    inertia: true,
    body: form,
    headers: { referer: `${BASE}/management` },
  });
  expect(response.status).toBe(302);
  await w.app.services.jobs.idle();
  return w.db.select({ id: jobs.id }).from(jobs).all().at(-1)!.id;
}

describe("a job belongs to who started it", () => {
  test("its owner reads it as JSON; another user, even with the same permissions, gets 404; a guest is sent to sign in", async () => {
    const w = await buildWorld();
    const owner = await signedIn(w, w.owner);
    const id = await importAs(w, owner, priceWorkbook("abc"));

    const mine = await owner.get(`/jobs/${id}`, { headers: { accept: "application/json" } });
    expect(mine.status).toBe(200);
    const job = await mine.json();
    expect(job).toMatchObject({ id, kind: "places.import", state: "failed", error: es("import.failed") });
    expect(job.progress).toEqual({
      done: 1,
      total: 1,
      label: "import.progress_checking",
      text: es("import.progress_checking"),
    });
    expect(job.result.preview.problems).toHaveLength(1);

    const other = await signedIn(w, w.other);
    expect((await other.get(`/jobs/${id}`, { headers: { accept: "application/json" } })).status).toBe(404);
    expect((await other.get(`/jobs/${id + 1}`, { headers: { accept: "application/json" } })).status).toBe(404);
    expect((await new Client(w.app).get(`/jobs/${id}`)).headers.get("location")).toBe("/login");
  });

  test("another user can neither dismiss it nor see it on their Management page", async () => {
    const w = await buildWorld();
    const owner = await signedIn(w, w.owner);
    const id = await importAs(w, owner, priceWorkbook("14.00"));
    const other = await signedIn(w, w.other);
    expect((await visitPage(other, "/management")).props.importJob).toBeNull();

    const refused = await other.request(`/jobs/${id}/dismiss`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/management` },
    });
    expect(refused.status).toBe(404);
    expect(findJob(w.db, id)!.dismissedAt).toBeNull();
    expect((await visitPage(owner, "/management")).props.importJob).toMatchObject({ id, state: "succeeded" });
  });

  test("it keeps the actor and the scope of who started it: the import is theirs in the audit and the price history", async () => {
    const w = await buildWorld();
    const owner = await signedIn(w, w.owner);
    const previewed = await importAs(w, owner, priceWorkbook("15.50"));
    // Confirmed, the import is written by a second job of theirs.
    const confirmed = await owner.request(`/management/import/${previewed}/confirm`, {
      method: "POST",
      inertia: true,
      headers: { referer: `${BASE}/management` },
    });
    expect(confirmed.status).toBe(302);
    await w.app.services.jobs.idle();
    const id = w.db.select({ id: jobs.id }).from(jobs).all().at(-1)!.id;
    for (const [step, job] of [
      ["preview", findJob(w.db, previewed)!],
      ["apply", findJob(w.db, id)!],
    ] as const) {
      expect(job.actor).toEqual({ userId: w.owner.id, label: w.owner.email });
      expect(job.scope).toEqual(scopeOf(accessProfile(w.db, w.owner.id)));
      expect(job.scope.all).toBe(false);
      expect(job.state).toBe("succeeded");
      expect(job.input).toMatchObject({
        step,
        fileName: "precios.xlsx",
        abilities: { places: true, services: false, prices: true },
      });
    }
    const audit = w.db.select().from(auditLog).where(eq(auditLog.action, "places.imported")).get()!;
    expect([audit.actorId, audit.actorLabel]).toEqual([w.owner.id, w.owner.email]);
    expect(
      w.db
        .select()
        .from(servicePriceHistory)
        .all()
        .map((h) => [h.cafeId, h.newPriceCents, h.changedBy]),
    ).toEqual([[w.cafeA, 1550, w.owner.id]]);
  });
});

describe("realtime", () => {
  test("JobUpdated goes to the owner's private channel, to every tab of theirs including the one that started it", async () => {
    const sent: { event: BroadcastEvent; except: string | null | undefined }[] = [];
    const broadcaster = {
      send: async (event: BroadcastEvent, except?: string | null) => void sent.push({ event, except }),
    } as unknown as Broadcaster;
    const bus = new EventBus();
    subscribeRealtime(bus, broadcaster);
    const progress = { done: 2, total: 5, label: "import.progress_checking" as const };
    await bus.deliver(
      { name: "JobUpdated", jobId: 9, userId: 7, kind: "places.import", state: "running", progress },
      { socketId: "123.456" },
    );
    expect(sent).toEqual([
      {
        event: {
          name: "JobUpdated",
          channels: ["private-App.Models.User.7"],
          data: { id: 9, kind: "places.import", state: "running", progress },
        },
        except: undefined,
      },
    ]);
  });
});
