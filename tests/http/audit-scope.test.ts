/**
 * The audit trail follows the viewer's scope (PRODUCT.md, "Scope rule"): entries about place-bound data show only
 * when every place they are about lies in the viewer's scope; entries about company-wide data only to the
 * super-administrator and to holders of `audit.view` in a headquarters area. Totals count what is shown.
 *
 * The world: business X (headquarters "Sede X", cafes A and A2) and business Y (headquarters "Sede Y", cafe B).
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, cafes } from "../../db/schema";
import { bootstrapAccess } from "../../db/seeds/access";
import type { Db } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { changeRolePermissions, findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import type { User } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { updateUnit } from "../../src/domain/places/places";
import { setCafePrices } from "../../src/domain/places/prices";
import { offerService } from "../../src/domain/places/service-assignments";
import { createService } from "../../src/domain/places/services";
import { BASE, Client, createTestApp, type TestApp } from "../support/app";
import type { Document } from "../../src/shared/documents";
import { addUser, dni, makeRole } from "../support/people";
import { signedIn } from "../support/requests";

interface World {
  app: TestApp;
  db: Db;
  places: { hqX: number; hqY: number; cafeA: number; cafeA2: number; cafeB: number; unitA: number; unitB: number };
  areas: { sedeX: number; oficinaA: number; cajaB: number };
  people: { root: User; auditorA: User; auditorHQ: User; staffA: User; staffB: User; both: User };
  service: number;
}

async function buildWorld(): Promise<World> {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const auditor = makeRole(db, "auditor", ["audit.view"]);
  const staff = makeRole(db, "cashier", []);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeA2 = ensureCafe(db, "Mina Norte", "Unidad A2", "Comedor A2", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const unitOf = (cafeId: number) => db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
  const area = (name: string, place: { cafe_id?: number; headquarters_id?: number }, roleIds: number[]) =>
    createArea(db, CLI_ACTOR, EVERYTHING, { name, ...place, role_ids: roleIds }).id;
  const sedeX = area("Administración X", { headquarters_id: x.headquartersId }, [superRole, auditor]);
  const oficinaA = area("Oficina A", { cafe_id: cafeA }, [auditor, staff]);
  const cajaB = area("Caja B", { cafe_id: cafeB }, [staff]);
  const person = async (name: string, email: string, holds: [number, number][], document: Document | null = null) => {
    const user = await addUser(db, name, email, document);
    for (const [areaId, roleId] of holds) assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId, roleId });
    return user;
  };
  const people = {
    root: await person("Raíz Super", "root@mesa.test", [[sedeX, superRole]]),
    auditorA: await person("Ana Auditora", "auditor.a@mesa.test", [[oficinaA, auditor]]),
    auditorHQ: await person("Hugo Auditor", "auditor.hq@mesa.test", [[sedeX, auditor]]),
    staffA: await person("Sara Caja", "staff.a@mesa.test", [[oficinaA, staff]], dni("10000001")),
    staffB: await person("Beto Caja", "staff.b@mesa.test", [[cajaB, staff]], dni("20000002")),
    both: await person(
      "Doris Doble",
      "both@mesa.test",
      [
        [oficinaA, staff],
        [cajaB, staff],
      ],
      dni("30000003"),
    ),
  };
  // A service every cafe offers, so each can be priced.
  const service = createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
  for (const cafeId of [cafeA, cafeA2, cafeB]) {
    offerService(db, "mine", mineOf(db, cafeId), service);
    offerService(db, "unit", unitOf(cafeId), service);
    offerService(db, "cafe", cafeId, service);
  }
  return {
    app,
    db,
    places: {
      hqX: x.headquartersId,
      hqY: y.headquartersId,
      cafeA,
      cafeA2,
      cafeB,
      unitA: unitOf(cafeA),
      unitB: unitOf(cafeB),
    },
    areas: { sedeX, oficinaA, cajaB },
    people,
    service,
  };
}

function mineOf(db: Db, cafeId: number): number {
  return db.$client
    .query<{ mine_id: number }, [number]>(
      "SELECT u.mine_id FROM cafes c JOIN units u ON u.id = c.unit_id WHERE c.id = ?",
    )
    .get(cafeId)!.mine_id;
}

/** The audit page's entries as the viewer sees them. */
async function auditPage(
  client: Client,
  query = "",
): Promise<{
  total: number;
  lastPage: number;
  data: { id: number; action: string; subjectType: string; subjectId: number | null }[];
}> {
  const { response, page } = await client.visit(`/audit${query}`);
  expect(response.status).toBe(200);
  return page.props.entries;
}

/** Ids of the audit rows with this action (and subject, when given). */
function entryIds(db: Db, action: string, subjectId?: number): number[] {
  return db
    .select({ id: auditLog.id, subjectId: auditLog.subjectId })
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .all()
    .filter((r) => subjectId === undefined || r.subjectId === subjectId)
    .map((r) => r.id);
}

/** Ids of the audit rows that match, oldest first. */
function entriesWhere(
  db: Db,
  match: (row: { action: string; subjectType: string; subjectId: number | null; after: any }) => boolean,
): number[] {
  return db
    .select()
    .from(auditLog)
    .orderBy(auditLog.id)
    .all()
    .filter((r) =>
      match({
        action: r.action,
        subjectType: r.subjectType,
        subjectId: r.subjectId,
        after: r.after ? JSON.parse(r.after) : null,
      }),
    )
    .map((r) => r.id);
}

/** Place-bound and company-wide changes everywhere: prices, units and roles by the command line, people by root on the pages. */
async function makeChanges(w: World): Promise<void> {
  const price = (cafeId: number, amount: string) =>
    setCafePrices(w.db, CLI_ACTOR, EVERYTHING, cafeId, { prices: [{ service_id: w.service, price: amount }] });
  price(w.places.cafeA, "12.50");
  price(w.places.cafeA2, "11.00");
  price(w.places.cafeB, "13.00");
  updateUnit(w.db, CLI_ACTOR, EVERYTHING, w.places.unitA, { name: "Unidad A Norte" });
  updateUnit(w.db, CLI_ACTOR, EVERYTHING, w.places.unitB, { name: "Unidad B Sur" });
  const root = await signedIn(w, w.people.root);
  const send = async (method: string, path: string, json: unknown, from: string) => {
    const response = await root.request(path, { method, inertia: true, json, headers: { referer: BASE + from } });
    expect(response.headers.get("location")).toBe(from);
  };
  // Another person's document number and e-mail: one works only at cafe A, the other also at cafe B.
  await send(
    "PUT",
    `/users/${w.people.staffA.id}`,
    { name: "Sara Caja", email: "sara@mesa.test", document_number: "10000009" },
    "/users",
  );
  await send(
    "PUT",
    `/users/${w.people.both.id}`,
    { name: "Doris Doble", email: "doris@mesa.test", document_number: "30000009" },
    "/users",
  );
  await send(
    "POST",
    "/blacklist",
    { document_number: "20000002", name: "Beto Caja", reason: "Ventas sin ticket" },
    "/blacklist",
  );
  await send(
    "POST",
    "/blacklist",
    { document_number: "99999999", name: "Persona Externa", reason: "Sin cuenta" },
    "/blacklist",
  );
  changeRolePermissions(w.db, CLI_ACTOR, "cashier", ["users.view"], "grant");
  // Every change went through (a refused form would also go back to its page).
  for (const [action, count] of [
    ["cafe.prices.updated", 3],
    ["unit.updated", 2],
    ["user.updated", 2],
    ["blacklist.added", 2],
    ["role.granted", 1],
  ] as const) {
    expect(entriesWhere(w.db, (e) => e.action === action)).toHaveLength(count);
  }
}

describe("the audit trail follows the viewer's scope", () => {
  test("a one-cafe holder of audit.view sees their cafe's entries only: no other cafe, no person who works elsewhere too, nothing company-wide", async () => {
    const w = await buildWorld();
    await makeChanges(w);
    const entries = await auditPage(await signedIn(w, w.people.auditorA));
    const shown = new Set(entries.data.map((e) => e.id));

    // Cafe A's price change, its unit's rename, and the edit of someone who works only at cafe A.
    expect(shown.has(entryIds(w.db, "cafe.prices.updated", w.places.cafeA)[0])).toBe(true);
    expect(shown.has(entryIds(w.db, "unit.updated", w.places.unitA)[0])).toBe(true);
    expect(shown.has(entryIds(w.db, "user.updated", w.people.staffA.id)[0])).toBe(true);
    // Not another cafe's prices (of the same business, or another), nor another unit.
    expect(shown.has(entryIds(w.db, "cafe.prices.updated", w.places.cafeA2)[0])).toBe(false);
    expect(shown.has(entryIds(w.db, "cafe.prices.updated", w.places.cafeB)[0])).toBe(false);
    expect(shown.has(entryIds(w.db, "unit.updated", w.places.unitB)[0])).toBe(false);
    // Not a person who also holds a role at cafe B (their new e-mail and document number), nor cafe B's people.
    expect(shown.has(entryIds(w.db, "user.updated", w.people.both.id)[0])).toBe(false);
    expect(entries.data.some((e) => e.subjectType === "user" && e.subjectId === w.people.staffB.id)).toBe(false);
    expect(entries.data.some((e) => e.action === "blacklist.added")).toBe(false);
    // Nothing company-wide: role changes, the services catalogue, the permission catalogue.
    for (const action of ["role.granted", "service.created", "permissions.synced"])
      expect(entries.data.some((e) => e.action === action)).toBe(false);

    // Every shown entry is about cafe A (or its unit, or its people), and the total counts exactly those.
    expect(entries.total).toBe(entries.data.length);
    expect(entries.data.map((e) => e.action).sort()).toEqual(
      [
        "area.created", // Oficina A
        "user.role_assigned", // Ana and Sara at cafe A (Doris also works at cafe B: her entries stay out)
        "user.role_assigned",
        "cafe.prices.updated",
        "unit.updated",
        "user.updated",
      ].sort(),
    );
    // The actor is found by the name shown, not by the e-mail address behind it.
    expect((await auditPage(await signedIn(w, w.people.auditorA), "?search=root%40mesa.test")).total).toBe(0);
    expect((await auditPage(await signedIn(w, w.people.auditorA), "?search=Ra%C3%ADz")).total).toBeGreaterThan(0);
    // A search stays within the scope.
    const searched = await auditPage(await signedIn(w, w.people.auditorA), "?search=updated");
    expect(searched.data.map((e) => e.action).sort()).toEqual(["cafe.prices.updated", "unit.updated", "user.updated"]);
    expect(searched.total).toBe(3);
  });

  test("a search by the words the page shows (action, actor, subject's name) stays within the viewer's scope", async () => {
    const w = await buildWorld();
    await makeChanges(w);
    const viewer = await signedIn(w, w.people.auditorA);
    const visible = new Set((await auditPage(viewer)).data.map((e) => e.id));
    const search = async (words: string) => auditPage(viewer, `?search=${encodeURIComponent(words)}`);
    for (const words of ["Precios cambiados", "Línea de comandos", "Comedor", "Unidad", "Beto Caja", "Doris", "Raíz"]) {
      const found = await search(words);
      expect(found.total).toBe(found.data.length);
      for (const entry of found.data) expect(visible.has(entry.id)).toBe(true);
    }
    expect((await search("Precios cambiados")).data.map((e) => e.subjectId)).toEqual([w.places.cafeA]);
    // Another cafe's and another person's entries exist, and stay out of sight whatever their names.
    expect((await search("Comedor B")).total).toBe(0);
    expect((await search("Beto Caja")).total).toBe(0);
    expect((await search("Doris")).total).toBe(0);
    const root = await signedIn(w, w.people.root);
    expect((await auditPage(root, `?search=${encodeURIComponent("Comedor B")}`)).total).toBeGreaterThan(0);
    expect((await auditPage(root, "?search=Doris")).total).toBeGreaterThan(0);
  });

  test("entries about a person leave a one-cafe viewer's sight once the person also works elsewhere, even entries recorded at the cafe", async () => {
    const w = await buildWorld();
    await makeChanges(w);
    const sara = entryIds(w.db, "user.updated", w.people.staffA.id)[0];
    expect((await auditPage(await signedIn(w, w.people.auditorA))).data.some((e) => e.id === sara)).toBe(true);
    // Sara is now also an auditor at headquarters X: her e-mail and document in cafe A's entries are no longer cafe A's to read.
    assignRole(w.db, CLI_ACTOR, EVERYTHING, {
      userId: w.people.staffA.id,
      areaId: w.areas.sedeX,
      roleId: findRoleByName(w.db, "auditor")!.id,
    });
    const after = await auditPage(await signedIn(w, w.people.auditorA));
    expect(after.data.some((e) => e.subjectType === "user" && e.subjectId === w.people.staffA.id)).toBe(false);
    expect(after.total).toBe(after.data.length);
    // Headquarters X reaches both places: it still reads them.
    expect((await auditPage(await signedIn(w, w.people.auditorHQ))).data.some((e) => e.id === sara)).toBe(true);
  });

  test("a holder of audit.view in a headquarters area sees company-wide entries and the cafes of their business, not another business", async () => {
    const w = await buildWorld();
    await makeChanges(w);
    const entries = await auditPage(await signedIn(w, w.people.auditorHQ));
    const shown = new Set(entries.data.map((e) => e.id));

    for (const action of ["role.granted", "service.created", "permissions.synced"])
      expect(entries.data.some((e) => e.action === action)).toBe(true);
    // A blacklist entry without an account is company-wide; one linked to cafe B's cashier belongs to cafe B.
    expect(entries.data.filter((e) => e.action === "blacklist.added")).toHaveLength(1);
    expect(shown.has(entryIds(w.db, "cafe.prices.updated", w.places.cafeA)[0])).toBe(true);
    expect(shown.has(entryIds(w.db, "cafe.prices.updated", w.places.cafeA2)[0])).toBe(true);
    expect(shown.has(entryIds(w.db, "unit.updated", w.places.unitA)[0])).toBe(true);
    expect(shown.has(entryIds(w.db, "user.updated", w.people.staffA.id)[0])).toBe(true);
    // Business Y's cafe, unit, area and people stay out, and so does the person who also works there.
    const businessY = entriesWhere(
      w.db,
      (e) =>
        (e.action === "cafe.prices.updated" && e.subjectId === w.places.cafeB) ||
        (e.action === "unit.updated" && e.subjectId === w.places.unitB) ||
        (e.action === "area.created" && e.subjectId === w.areas.cajaB) ||
        (e.action === "user.role_assigned" && e.after.areaId === w.areas.cajaB) ||
        // Every entry about the person who also works at business Y's cafe, wherever it was recorded.
        (e.subjectType === "user" && e.subjectId === w.people.both.id) ||
        (e.action === "blacklist.added" && e.after.userId === w.people.staffB.id),
    );
    expect(businessY).toHaveLength(8);
    const all = entriesWhere(w.db, () => true);
    expect(all.length).toBeLessThanOrEqual(25);
    expect([...shown].sort((a, b) => a - b)).toEqual(all.filter((id) => !businessY.includes(id)));
    expect(entries.total).toBe(all.length - businessY.length);

    // The super-administrator sees everything.
    const root = await auditPage(await signedIn(w, w.people.root));
    expect(root.total).toBe(all.length);
  });

  test("entries written before places were recorded are company-wide, and pages and totals count only what is shown", async () => {
    const w = await buildWorld();
    // An old row: no places.
    w.db
      .insert(auditLog)
      .values({
        actorId: null,
        actorLabel: "cli",
        action: "user.updated",
        subjectType: "user",
        subjectId: w.people.staffA.id,
        before: "{}",
        after: "{}",
        createdAt: new Date(),
      })
      .run();
    // Thirty price changes at cafe B, then one at cafe A.
    for (let n = 1; n <= 30; n++)
      setCafePrices(w.db, CLI_ACTOR, EVERYTHING, w.places.cafeB, {
        prices: [{ service_id: w.service, price: `${n}.00` }],
      });
    setCafePrices(w.db, CLI_ACTOR, EVERYTHING, w.places.cafeA, { prices: [{ service_id: w.service, price: "9.90" }] });

    const cafeViewer = await signedIn(w, w.people.auditorA);
    const first = await auditPage(cafeViewer);
    expect(first.data.some((e) => e.action === "user.updated")).toBe(false);
    expect(first.data.filter((e) => e.action === "cafe.prices.updated").map((e) => e.subjectId)).toEqual([
      w.places.cafeA,
    ]);
    expect(first.total).toBe(first.data.length);
    expect(first.lastPage).toBe(1);
    // A page past the end shows the last page again: nothing more to see there.
    expect((await auditPage(cafeViewer, "?page=2")).data).toEqual(first.data);

    const hqViewer = await auditPage(await signedIn(w, w.people.auditorHQ), "?search=user.updated");
    expect(hqViewer.data.map((e) => e.subjectId)).toEqual([w.people.staffA.id]);
    expect(hqViewer.total).toBe(1);
  });
});
