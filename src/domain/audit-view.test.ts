/**
 * The audit in words: who (a person's name, "Línea de comandos"), what ("Subconcesionaria creada"), about what (its
 * name, or the name recorded once it is deleted) and each field before → after, in the viewer's language; the
 * names a page refers to are read once per kind of thing; a search finds entries by those words.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Glob } from "bun";
import { cafes, users } from "../../db/schema";
import { type Db } from "../db";
import { migratedDatabase } from "../../tests/support/database";
import { hasTranslation, intlLocale, locales, type Locale } from "../shared/i18n";
import { createArea } from "./access/areas";
import { assignRole } from "./access/assignments";
import { ensureCafe, ensureHeadquarters } from "./access/places";
import { changeRolePermissions, findRoleByName } from "./access/roles";
import { EVERYTHING } from "./access/scope";
import { bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "./access/starting-roles";
import { CLI_ACTOR, COMPANY_WIDE, listAudit, recordAudit, type Actor } from "./audit";
import { AUDIT_ACTIONS, AUDIT_SUBJECTS, describeAuditRows, type AuditEntryView } from "./audit-view";
import { createDealership } from "./organisation/dealerships";
import { createSubdealership, deleteSubdealership } from "./organisation/subdealerships";
import { setCafePrices } from "./places/prices";
import { offerService } from "./places/service-assignments";
import { createService } from "./places/services";

const RUC = { a: "20100934729", b: "20604382158" };
const SETTINGS = { rucLength: 11 };
const EVERYONE = { scope: EVERYTHING, companyWide: true };

function addPerson(db: Db, name: string, email: string): Actor {
  const now = new Date();
  const user = db
    .insert(users)
    .values({ name, email, passwordHash: "x", emailVerifiedAt: now, createdAt: now, updatedAt: now })
    .returning()
    .get();
  return { userId: user.id, label: user.email };
}

function world() {
  const db = migratedDatabase();
  bootstrapAccess(db);
  for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const unitA = db.select().from(cafes).where(eq(cafes.id, cafeA)).get()!.unitId;
  const cashier = findRoleByName(db, "cashier")!.id;
  const manager = findRoleByName(db, "cafe manager")!.id;
  const caja = createArea(db, CLI_ACTOR, EVERYTHING, { name: "Caja", cafe_id: cafeA, role_ids: [cashier, manager] });
  return { db, cafeA, unitA, cashier, manager, caja: caja.id };
}

/** The whole trail as `locale` reads it, newest first. */
function read(db: Db, locale: Locale, search?: string): AuditEntryView[] {
  const found = listAudit(db, EVERYONE, { page: 1, perPage: 100, search, locale });
  return describeAuditRows(db, found.rows, { locale, currency: "PEN" });
}

/** "S/ 12.50" in both languages (a no-break space after the symbol), as src/shared/money.ts writes it. */
const money = (locale: Locale, cents: number) =>
  `S/\u00a0${new Intl.NumberFormat(intlLocale[locale], { minimumFractionDigits: 2 }).format(cents / 100)}`;

describe("the audit in words", () => {
  test("a subdealership the command line created reads as such, by its name and its fields; once deleted, by the name recorded", () => {
    const w = world();
    const dealership = createDealership(w.db, CLI_ACTOR, { name: "Andina del Sur", ruc: RUC.a }, SETTINGS);
    const sub = createSubdealership(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      { name: "Perforaciones Altiplano", ruc: RUC.b, dealership_id: dealership.id, unit_ids: [w.unitA] },
      SETTINGS,
    );
    const created = read(w.db, "es").find((e) => e.action === "subdealership.created")!;
    expect(created.actor).toEqual({ name: "Línea de comandos", kind: "cli" });
    expect(created.actionLabel).toBe("Subconcesionaria creada");
    expect(created.subject).toEqual({ type: "Subconcesionaria", name: "Perforaciones Altiplano", deleted: false });
    expect(created.changes).toEqual([
      { field: "Concesionaria", after: "Andina del Sur" },
      { field: "Nombre", after: "Perforaciones Altiplano" },
      { field: "RUC", after: RUC.b },
      { field: "Unidades", after: "Unidad A" },
    ]);

    const english = read(w.db, "en").find((e) => e.action === "subdealership.created")!;
    expect(english.actor.name).toBe("Command line");
    expect(english.actionLabel).toBe("Subdealership created");
    expect(english.subject.type).toBe("Subdealership");
    expect(english.changes[0]).toEqual({ field: "Dealership", after: "Andina del Sur" });

    deleteSubdealership(w.db, CLI_ACTOR, EVERYTHING, sub.id);
    const after = read(w.db, "es");
    const deleted = after.find((e) => e.action === "subdealership.deleted")!;
    expect(deleted.actionLabel).toBe("Subconcesionaria eliminada");
    expect(deleted.subject).toEqual({ type: "Subconcesionaria", name: "Perforaciones Altiplano", deleted: true });
    // What the deletion removed: one side only.
    expect(deleted.changes.find((c) => c.field === "Nombre")).toEqual({
      field: "Nombre",
      before: "Perforaciones Altiplano",
    });
    expect(after.find((e) => e.action === "subdealership.created")!.subject.deleted).toBe(true);
  });

  test("a role change reads as the person who made it, the area, and the roles' names in the viewer's language", () => {
    const w = world();
    const ana = addPerson(w.db, "Ana Admin", "ana@mesa.test");
    const sara = addPerson(w.db, "Sara Caja", "sara@mesa.test");
    assignRole(w.db, ana, EVERYTHING, { userId: sara.userId!, areaId: w.caja, roleId: w.cashier });
    assignRole(w.db, ana, EVERYTHING, { userId: sara.userId!, areaId: w.caja, roleId: w.manager });
    const [changed, first] = read(w.db, "es").filter((e) => e.action === "user.role_assigned");
    expect(changed.actor).toEqual({ name: "Ana Admin", kind: "user" });
    expect(changed.actionLabel).toBe("Rol asignado");
    expect(changed.subject).toEqual({ type: "Usuario", name: "Sara Caja", deleted: false });
    expect(changed.changes).toEqual([
      { field: "Área", before: "Caja · Comedor A", after: "Caja · Comedor A" },
      { field: "Rol", before: "Cajero", after: "Jefe de comedor" },
    ]);
    expect(first.changes).toEqual([
      { field: "Área", after: "Caja · Comedor A" },
      { field: "Rol", after: "Cajero" },
    ]);
    const english = read(w.db, "en").find((e) => e.id === changed.id)!;
    expect(english.changes[1]).toEqual({ field: "Role", before: "Cashier", after: "Cafe manager" });

    // Once Ana's account is deleted, her entries name no one's e-mail.
    w.db.delete(users).where(eq(users.id, ana.userId!)).run();
    const orphan = read(w.db, "es").find((e) => e.id === changed.id)!;
    expect(orphan.actor).toEqual({ name: "Usuario eliminado", kind: "deleted" });
    expect(JSON.stringify(read(w.db, "es"))).not.toContain("ana@mesa.test");
  });

  test("prices read as money per service; permissions by their labels", () => {
    const w = world();
    const service = createService(w.db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" }).id;
    const unit = w.db.select().from(cafes).where(eq(cafes.id, w.cafeA)).get()!.unitId;
    const mine = w.db.$client
      .query<{ mine_id: number }, [number]>("SELECT mine_id FROM units WHERE id = ?")
      .get(unit)!.mine_id;
    offerService(w.db, "mine", mine, service);
    offerService(w.db, "unit", unit, service);
    offerService(w.db, "cafe", w.cafeA, service);
    setCafePrices(w.db, CLI_ACTOR, EVERYTHING, w.cafeA, { prices: [{ service_id: service, price: "12.50" }] });
    setCafePrices(w.db, CLI_ACTOR, EVERYTHING, w.cafeA, { prices: [{ service_id: service, price: "13.00" }] });
    changeRolePermissions(w.db, CLI_ACTOR, "cashier", ["users.view"], "grant");

    const entries = read(w.db, "es");
    const [raised, first] = entries.filter((e) => e.action === "cafe.prices.updated");
    expect(raised.actionLabel).toBe("Precios cambiados");
    expect(raised.subject).toEqual({ type: "Comedor", name: "Comedor A", deleted: false });
    expect(raised.changes).toEqual([
      { field: "Precio de Almuerzo", before: money("es", 1250), after: money("es", 1300) },
    ]);
    expect(first.changes).toEqual([{ field: "Precio de Almuerzo", before: "Sin precio", after: money("es", 1250) }]);

    const granted = entries.find((e) => e.action === "role.granted")!;
    expect(granted.actionLabel).toBe("Permisos otorgados");
    expect(granted.subject).toEqual({ type: "Rol", name: "Cajero", deleted: false });
    // The cashier's starting permissions, by their labels, then the one granted.
    const cashierEs =
      "Ver la lista negra, Registrar y editar comensales, Ver comensales, Vender en el punto de venta, Ver ventas, Abrir y cerrar su turno de caja";
    expect(granted.changes).toEqual([{ field: "Permisos", before: cashierEs, after: `${cashierEs}, Ver usuarios` }]);
    const cashierEn =
      "View the blacklist, Register and edit diners, View diners, Sell at the point of sale, View sales, Open and close one's cash shift";
    expect(read(w.db, "en").find((e) => e.action === "role.granted")!.changes).toEqual([
      { field: "Permissions", before: cashierEn, after: `${cashierEn}, View users` },
    ]);
  });

  test("the names a page refers to are read once per kind of thing, whatever the number of entries", () => {
    const w = world();
    const ana = addPerson(w.db, "Ana Admin", "ana@mesa.test");
    const dealership = createDealership(w.db, CLI_ACTOR, { name: "Andina del Sur", ruc: RUC.a }, SETTINGS);
    const queriesFor = (count: number) => {
      const rows = listAudit(w.db, EVERYONE, { page: 1, perPage: count }).rows;
      const client = w.db.$client;
      const query = client.query.bind(client);
      let issued = 0;
      client.query = ((text: string) => {
        issued++;
        return query(text);
      }) as typeof client.query;
      try {
        describeAuditRows(w.db, rows, { locale: "es", currency: "PEN" });
      } finally {
        client.query = query;
      }
      return { rows: rows.length, issued };
    };
    for (let i = 0; i < 30; i++) {
      const person = addPerson(w.db, `Persona ${i}`, `p${i}@mesa.test`);
      assignRole(w.db, ana, EVERYTHING, { userId: person.userId!, areaId: w.caja, roleId: w.cashier });
      const snapshot = { dealershipId: dealership.id, name: `Sub ${i}`, unitIds: [w.unitA] };
      recordAudit(w.db, CLI_ACTOR, {
        action: "subdealership.updated",
        subjectType: "subdealership",
        subjectId: 1000 + i,
        places: COMPANY_WIDE,
        before: snapshot,
        after: { ...snapshot, name: `Sub ${i} SAC` },
      });
    }
    const two = queriesFor(2);
    const sixty = queriesFor(60);
    expect(sixty.rows).toBe(60);
    // users, areas, roles, subdealerships, dealerships, units: one query each.
    expect(sixty.issued).toBe(6);
    expect(two.issued).toBeLessThanOrEqual(sixty.issued);
  });

  test("a search finds entries by the words the page shows: the action, the actor, the subject's name; never by an e-mail", () => {
    const w = world();
    const ana = addPerson(w.db, "Ana Huamán", "ana@mesa.test");
    const sara = addPerson(w.db, "Sara Caja", "sara@mesa.test");
    assignRole(w.db, ana, EVERYTHING, { userId: sara.userId!, areaId: w.caja, roleId: w.cashier });
    createDealership(w.db, CLI_ACTOR, { name: "Andina del Sur", ruc: RUC.a }, SETTINGS);
    changeRolePermissions(w.db, CLI_ACTOR, "cashier", ["users.view"], "grant");
    const actions = (locale: Locale, search: string) => read(w.db, locale, search).map((e) => e.action);

    expect(actions("es", "concesionaria creada")).toEqual(["dealership.created"]);
    expect(actions("en", "Dealership created")).toEqual(["dealership.created"]);
    expect(actions("es", "dealership.created")).toEqual(["dealership.created"]);
    // The subject by its name now; the actor by the name shown, accents and case aside.
    expect(actions("es", "andina")).toEqual(["dealership.created"]);
    expect(actions("es", "huaman")).toEqual(["user.role_assigned"]);
    expect(actions("es", "sara caja")).toEqual(["user.role_assigned"]);
    expect(actions("es", "ana@mesa.test")).toEqual([]);
    // A built-in role by its label in the viewer's language, the command line by its words.
    expect(actions("es", "cajero")).toEqual(["role.granted"]);
    expect(actions("en", "cashier")).toEqual(["role.granted"]);
    expect(actions("es", "línea de comandos")).toEqual([
      "role.granted",
      "dealership.created",
      "area.created",
      "permissions.synced",
    ]);
    expect(actions("en", "command line")).toEqual(actions("es", "linea de comandos"));
    expect(actions("es", "nada parecido")).toEqual([]);
    expect(listAudit(w.db, EVERYONE, { page: 1, perPage: 1, search: "creada", locale: "es" }).total).toBe(2);
  });

  test("every action Mesa records, and every kind of subject, has words in both languages", async () => {
    const recorded = new Set<string>();
    for (const folder of ["src/domain", "cli", "db/seeds"]) {
      for await (const file of new Glob(`${folder}/**/*.ts`).scan(".")) {
        if (file.endsWith(".test.ts")) continue;
        const text = await Bun.file(file).text();
        for (const [, action] of text.matchAll(/action: "([a-z_]+(?:\.[a-z_]+)+)"/g)) recorded.add(action);
        for (const [, action] of text.matchAll(/audit\(\s*"([a-z_]+(?:\.[a-z_]+)+)"/g)) recorded.add(action);
      }
    }
    expect(recorded.size).toBeGreaterThan(40);
    for (const action of recorded) expect(AUDIT_ACTIONS as readonly string[]).toContain(action);
    for (const locale of locales) {
      for (const action of AUDIT_ACTIONS)
        expect(`${action}: ${hasTranslation(locale, `access.audit.actions.${action}`)}`).toBe(`${action}: true`);
      for (const subject of AUDIT_SUBJECTS)
        expect(hasTranslation(locale, `access.audit.subjects.${subject}`)).toBe(true);
    }
  });
});
