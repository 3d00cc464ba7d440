import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, headquarters, properties, roles, users } from "../../../db/schema";
import { bootstrapAccess } from "../../../db/seeds/access";
import { type Db } from "../../db";
import { migratedDatabase } from "../../../tests/support/database";
import { createArea } from "../access/areas";
import { assignRole } from "../access/assignments";
import { accessProfile, currentAccessVersion } from "../access/authorization";
import { ensureCafe, ensureHeadquarters } from "../access/places";
import { EVERYTHING, scopeOf } from "../access/scope";
import { CLI_ACTOR } from "../audit";
import { Conflict, NotFound } from "../errors";
import { errorsOf } from "../../../tests/support/errors";
import { createHeadquarters, deleteHeadquarters, listHeadquarters, updateHeadquarters } from "./headquarters";

function world() {
  const db = migratedDatabase();
  bootstrapAccess(db);
  const mesa = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Lima");
  const arequipa = ensureHeadquarters(db, "Mesa Catering S.A.C.", "Sede Arequipa");
  const andes = ensureHeadquarters(db, "Andes Catering S.A.C.", "Sede Cusco");
  const cafe = ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal", mesa.businessId);
  return { db, mesa, arequipa, andes, cafe };
}

/** A user holding a plain role in a new area at the given place; returns their scope as the server computes it. */
function userAt(db: Db, email: string, place: { cafe_id: number } | { headquarters_id: number }) {
  const role = db
    .insert(roles)
    .values({ name: `rol ${email}` })
    .returning()
    .get();
  const area = createArea(db, CLI_ACTOR, EVERYTHING, { name: `Área ${email}`, ...place, role_ids: [role.id] });
  const now = new Date();
  const user = db
    .insert(users)
    .values({ name: email, email, passwordHash: "x", emailVerifiedAt: now, createdAt: now, updatedAt: now })
    .returning()
    .get();
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: user.id, areaId: area.id, roleId: role.id });
  return () => scopeOf(accessProfile(db, user.id));
}

describe("headquarters", () => {
  test("a user whose area is at Sede Lima sees every headquarters of that business; a cafe-only user sees none", () => {
    const { db, mesa, cafe } = world();
    const limaUser = userAt(db, "lima@mesa.test", { headquarters_id: mesa.headquartersId });
    expect(listHeadquarters(db, limaUser(), {}).rows.map((h) => `${h.businessName} / ${h.name}`)).toEqual([
      "Mesa Catering S.A.C. / Sede Arequipa",
      "Mesa Catering S.A.C. / Sede Lima",
    ]);
    const cafeUser = userAt(db, "caja@mesa.test", { cafe_id: cafe });
    expect(cafeUser().cafeIds.has(cafe)).toBe(true);
    expect(listHeadquarters(db, cafeUser(), {}).rows).toEqual([]);
    expect(listHeadquarters(db, EVERYTHING, { search: "andes" }).rows.map((h) => h.name)).toEqual(["Sede Cusco"]);
  });

  test("creating, deleting or moving a headquarters refreshes scopes: the new headquarters is in its business's people's scope at once", () => {
    const { db, mesa, andes } = world();
    const limaUser = userAt(db, "lima@mesa.test", { headquarters_id: mesa.headquartersId });
    expect(limaUser().headquartersIds.size).toBe(2);
    const version = currentAccessVersion(db);
    const moquegua = createHeadquarters(db, CLI_ACTOR, limaUser(), {
      business_id: mesa.businessId,
      name: "Sede Moquegua",
      address: "Calle Ayacucho 500, Moquegua",
    });
    expect(currentAccessVersion(db)).toBe(version + 1);
    expect(limaUser().headquartersIds.has(moquegua.id)).toBe(true);
    // Renaming keeps the version; moving to another business changes it.
    updateHeadquarters(db, CLI_ACTOR, EVERYTHING, moquegua.id, {
      business_id: mesa.businessId,
      name: "Sede Ilo",
      address: "Jr. Moquegua 12, Ilo",
    });
    expect(currentAccessVersion(db)).toBe(version + 1);
    updateHeadquarters(db, CLI_ACTOR, EVERYTHING, moquegua.id, {
      business_id: andes.businessId,
      name: "Sede Ilo",
      address: "Jr. Moquegua 12, Ilo",
    });
    expect(currentAccessVersion(db)).toBe(version + 2);
    expect(limaUser().headquartersIds.has(moquegua.id)).toBe(false);
    deleteHeadquarters(db, CLI_ACTOR, EVERYTHING, moquegua.id);
    expect(currentAccessVersion(db)).toBe(version + 3);
    const audit = db.select().from(auditLog).where(eq(auditLog.subjectType, "headquarters")).orderBy(auditLog.id).all();
    expect(audit.map((a) => a.action)).toEqual([
      "headquarters.created",
      "headquarters.updated",
      "headquarters.updated",
      "headquarters.deleted",
    ]);
  });

  test("the business must be within the scope, the name unique within the business", () => {
    const { db, mesa, andes } = world();
    const limaUser = userAt(db, "lima@mesa.test", { headquarters_id: mesa.headquartersId });
    expect(
      errorsOf(() =>
        createHeadquarters(db, CLI_ACTOR, limaUser(), {
          business_id: andes.businessId,
          name: "Sede Puno",
          address: "Jr. Lima 1, Puno",
        }),
      ),
    ).toEqual({
      business_id: { key: "validation.invalid_choice", params: undefined },
    });
    expect(
      errorsOf(() =>
        createHeadquarters(db, CLI_ACTOR, EVERYTHING, {
          business_id: mesa.businessId,
          name: "sede lima",
          address: "Otra dirección 1",
        }),
      ),
    ).toEqual({
      name: { key: "headquarters.name_taken", params: { name: "sede lima" } },
    });
    // The same name in another business is fine.
    expect(
      createHeadquarters(db, CLI_ACTOR, EVERYTHING, {
        business_id: andes.businessId,
        name: "Sede Lima",
        address: "Av. Arequipa 300, Lima",
      }).businessId,
    ).toBe(andes.businessId);
    expect(errorsOf(() => createHeadquarters(db, CLI_ACTOR, EVERYTHING, {}))).toMatchObject({
      business_id: { key: "validation.required" },
      name: { key: "validation.required" },
      address: { key: "validation.required" },
    });
    // Outside the scope: not found.
    expect(() =>
      updateHeadquarters(db, CLI_ACTOR, limaUser(), andes.headquartersId, {
        business_id: andes.businessId,
        name: "Sede Cusco",
        address: "Av. Sol 1, Cusco",
      }),
    ).toThrow(NotFound);
    expect(() => deleteHeadquarters(db, CLI_ACTOR, limaUser(), andes.headquartersId)).toThrow(NotFound);
  });

  test("a headquarters with areas or properties cannot be deleted, and the message names both counts", () => {
    const { db, mesa, arequipa } = world();
    userAt(db, "lima@mesa.test", { headquarters_id: mesa.headquartersId });
    const now = new Date();
    db.insert(properties)
      .values({
        code: "VEH-1",
        name: "Camioneta",
        category: "Vehículo",
        headquartersId: mesa.headquartersId,
        status: "in_use",
        createdAt: now,
        updatedAt: now,
      })
      .run();
    try {
      deleteHeadquarters(db, CLI_ACTOR, EVERYTHING, mesa.headquartersId);
      throw new Error("expected a conflict");
    } catch (error) {
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).detail).toEqual({
        key: "headquarters.in_use",
        params: { name: "Sede Lima", areas: 1, properties: 1 },
      });
    }
    const rows = listHeadquarters(db, EVERYTHING, {}).rows;
    expect(rows.find((h) => h.id === mesa.headquartersId)).toMatchObject({ areas: 1, properties: 1 });
    expect(rows.find((h) => h.id === arequipa.headquartersId)).toMatchObject({ areas: 0, properties: 0 });
    deleteHeadquarters(db, CLI_ACTOR, EVERYTHING, arequipa.headquartersId);
    expect(db.select().from(headquarters).where(eq(headquarters.id, arequipa.headquartersId)).get()).toBeUndefined();
  });
});
