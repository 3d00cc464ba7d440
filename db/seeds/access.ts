/**
 * Access-control seeds. Reference data, always loaded: the permission catalogue and the roles a catering company
 * starts with (src/domain/access); without demo data, also a first headquarters area for the first
 * administrator and how to create them. Demo data: areas at the demo places and demo users holding those roles.
 * Idempotent.
 */
import { and, asc, eq } from "drizzle-orm";
import { areaRoles, areas, assignments, cafes, headquarters, roles } from "../schema";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { PERMISSION_NAMES } from "../../src/shared/access/permissions";
import { bootstrapAccess, ensureStartingRole, STARTING_ROLES } from "../../src/domain/access/starting-roles";

// Declared in the domain (shared by the server, the CLI and the seeds); tests still reach them from here.
export { bootstrapAccess, STARTING_ROLES };
import { ensureCafe, ensureHeadquarters } from "../../src/domain/access/places";
import { SUPER_ROLE } from "../../src/domain/access/roles";
import { countUsers, createUser, findUserByEmail } from "../../src/domain/accounts/users";
import { randomToken } from "../../src/crypto";
import type { Db } from "../../src/db";
import type { Seeder } from "./index";
import { DEMO_BUSINESS, DEMO_HEADQUARTERS, DEMO_PLACES } from "./places";

function ensureArea(
  db: Db,
  name: string,
  place: { cafeId?: number; headquartersId?: number },
  roleIds: number[],
): number {
  const existing = db
    .select()
    .from(areas)
    .where(
      and(
        eq(areas.name, name),
        place.cafeId ? eq(areas.cafeId, place.cafeId) : eq(areas.headquartersId, place.headquartersId!),
      ),
    )
    .get();
  const areaId =
    existing?.id ??
    db
      .insert(areas)
      .values({ name, cafeId: place.cafeId ?? null, headquartersId: place.headquartersId ?? null })
      .returning()
      .get().id;
  for (const roleId of roleIds) db.insert(areaRoles).values({ areaId, roleId }).onConflictDoNothing().run();
  return areaId;
}

/** Reference data: the permission catalogue, the super-administrator role and the starting roles. */
export const rolesSeeder: Seeder = {
  name: "Permissions and roles",
  async run(db) {
    bootstrapAccess(db);
    for (const spec of STARTING_ROLES) ensureStartingRole(db, spec);
    return [
      `${PERMISSION_NAMES.length} permissions; ${STARTING_ROLES.length + 1} roles (${[SUPER_ROLE, ...STARTING_ROLES.map((r) => r.name)].join(", ")})`,
    ];
  },
};

/** Demo data: the areas of the demo headquarters and cafes (the roles are made first when missing). */
export const accessSeeder: Seeder = {
  name: "Demo areas",
  async run(db) {
    bootstrapAccess(db);
    const roleIds = Object.fromEntries(STARTING_ROLES.map((spec) => [spec.name, ensureStartingRole(db, spec)]));
    const superId = db.select().from(roles).where(eq(roles.name, SUPER_ROLE)).get()!.id;
    const { businessId, headquartersId } = ensureHeadquarters(db, DEMO_BUSINESS.name, DEMO_HEADQUARTERS[0].name);
    ensureArea(db, "Administración", { headquartersId }, [superId, roleIds.administrator]);
    ensureArea(db, "Operaciones", { headquartersId }, [roleIds["operations manager"]]);
    ensureArea(db, "Nutrición", { headquartersId }, [roleIds.nutritionist]);
    ensureArea(db, "Logística", { headquartersId }, [roleIds.buyer]);
    let areaCount = 4;
    for (const mine of DEMO_PLACES) {
      for (const unit of mine.units) {
        for (const cafe of unit.cafes) {
          ensureArea(db, "Caja", { cafeId: ensureCafe(db, mine.mine, unit.name, cafe, businessId) }, [
            roleIds.cashier,
            roleIds["cafe manager"],
          ]);
          areaCount++;
        }
      }
    }
    db.transaction((tx) => bumpAccessVersion(tx));
    return [`${areaCount} areas`];
  },
};

/** Without demo data, the first administrator's role needs an area: this one, at a headquarters to rename later. */
export const FIRST_PLACE = { business: "Mi empresa", headquarters: "Sede principal", area: "Administración" };

/** Reference data without the demo set: when there is no headquarters at all, FIRST_PLACE with its area. */
export const firstHeadquartersSeeder: Seeder = {
  name: "First headquarters",
  async run(db) {
    if (db.select({ id: headquarters.id }).from(headquarters).limit(1).get()) return [];
    const superId = db.select().from(roles).where(eq(roles.name, SUPER_ROLE)).get()!.id;
    const administratorId = db.select().from(roles).where(eq(roles.name, "administrator")).get()?.id;
    const { headquartersId } = ensureHeadquarters(db, FIRST_PLACE.business, FIRST_PLACE.headquarters);
    ensureArea(
      db,
      FIRST_PLACE.area,
      { headquartersId },
      administratorId === undefined ? [superId] : [superId, administratorId],
    );
    db.transaction((tx) => bumpAccessVersion(tx));
    return [
      `Business "${FIRST_PLACE.business}" with headquarters "${FIRST_PLACE.headquarters}" and its area "${FIRST_PLACE.area}" (${SUPER_ROLE}, administrator).`,
      "Give them their real names on the Businesses page once you can sign in.",
    ];
  },
};

/** "Area@Place" of every area offering the super-administrator role, headquarters first. */
function superAreas(db: Db): string[] {
  return (
    db
      .select({ area: areas.name, headquarters: headquarters.name, cafe: cafes.name })
      .from(areaRoles)
      .innerJoin(roles, eq(roles.id, areaRoles.roleId))
      .innerJoin(areas, eq(areas.id, areaRoles.areaId))
      .leftJoin(headquarters, eq(headquarters.id, areas.headquartersId))
      .leftJoin(cafes, eq(cafes.id, areas.cafeId))
      .where(eq(roles.isSuper, true))
      // A headquarters area has no cafe, and NULL sorts first.
      .orderBy(asc(cafes.id), asc(areas.id))
      .all()
      .map((r) => `${r.area}@${r.headquarters ?? r.cafe}`)
  );
}

/** Without demo data, while nobody has an account: the command that creates the first administrator. */
export const firstAdministratorSeeder: Seeder = {
  name: "First administrator",
  async run(db, config) {
    if (countUsers(db) > 0) return [];
    const [area] = superAreas(db);
    if (area === undefined) {
      return [
        `Nobody can sign in yet, and no area offers the ${SUPER_ROLE} role. Create one at a headquarters, then the first administrator`,
        "(with the headquarters' name and your own name, e-mail and password in place of the capitals):",
        `  ./mesa area:create Administración --headquarters "HEADQUARTERS" --role ${SUPER_ROLE}`,
        `  ./mesa user:create --name "YOUR NAME" --email YOU@EXAMPLE.COM --password "YOUR PASSWORD" --verified --role ${SUPER_ROLE} --area "Administración@HEADQUARTERS"`,
      ];
    }
    return [
      "Nobody can sign in yet. Create the first administrator with your own name, e-mail and password in place of the capitals",
      "(or leave out --password and pipe the password on standard input):",
      `  ./mesa user:create --name "YOUR NAME" --email YOU@EXAMPLE.COM --password "YOUR PASSWORD" --verified --role ${SUPER_ROLE} --area "${area}"`,
      `Then sign in at ${config.appUrl}/login.`,
    ];
  },
};

export const DEMO_EMAIL = "demo@mesa.test";

/** Demo people: the super-administrator demo account and one person per starting role; one shared password, printed once. */
const DEMO_PEOPLE: {
  email: string;
  name: string;
  area: string;
  place: "hq" | "principal" | "campamento";
  role: string;
}[] = [
  { email: DEMO_EMAIL, name: "Demo Mesa", area: "Administración", place: "hq", role: SUPER_ROLE },
  { email: "admin@mesa.test", name: "Rosa Huamán", area: "Administración", place: "hq", role: "administrator" },
  { email: "operaciones@mesa.test", name: "Diego Rojas", area: "Operaciones", place: "hq", role: "operations manager" },
  { email: "gerente@mesa.test", name: "Jorge Quispe", area: "Caja", place: "principal", role: "cafe manager" },
  { email: "cajero@mesa.test", name: "Lucía Mamani", area: "Caja", place: "principal", role: "cashier" },
  { email: "nutricion@mesa.test", name: "Carmen Flores", area: "Nutrición", place: "hq", role: "nutritionist" },
  { email: "compras@mesa.test", name: "Miguel Torres", area: "Logística", place: "hq", role: "buyer" },
];

export const demoPeopleSeeder: Seeder = {
  name: "Demo accounts",
  async run(db, config) {
    if (findUserByEmail(db, DEMO_EMAIL))
      return [
        `${DEMO_EMAIL} already exists (passwords are unchanged; ./mesa user:password ${DEMO_EMAIL} sets a new one).`,
      ];
    const password = `mesa-${randomToken(9)}`;
    const { headquartersId } = ensureHeadquarters(db, DEMO_BUSINESS.name, DEMO_HEADQUARTERS[0].name);
    const cafeIds = {
      principal: ensureCafe(db, "Mina Cerro Verde", "Unidad Norte", "Comedor Principal"),
      campamento: ensureCafe(db, "Mina Cerro Verde", "Unidad Sur", "Comedor Campamento"),
    };
    for (const person of DEMO_PEOPLE) {
      const user =
        findUserByEmail(db, person.email) ??
        (await createUser(
          db,
          config,
          { name: person.name, email: person.email, password, language: config.locale },
          { verified: true },
        ));
      const area = db
        .select()
        .from(areas)
        .where(
          and(
            eq(areas.name, person.area),
            person.place === "hq" ? eq(areas.headquartersId, headquartersId) : eq(areas.cafeId, cafeIds[person.place]),
          ),
        )
        .get()!;
      const role = db.select().from(roles).where(eq(roles.name, person.role)).get()!;
      db.insert(assignments).values({ userId: user.id, areaId: area.id, roleId: role.id }).onConflictDoNothing().run();
    }
    db.transaction((tx) => bumpAccessVersion(tx));
    return [
      `Sign in at ${config.appUrl}/login`,
      `  e-mail:   ${DEMO_EMAIL}  (super-administrator)`,
      `  password: ${password}`,
      `The same password opens ${DEMO_PEOPLE.slice(1)
        .map((p) => `${p.email} (${p.role})`)
        .join(", ")}.`,
      `It is shown only this once; to set a new one: ./mesa user:password ${DEMO_EMAIL} (or any demo e-mail).`,
    ];
  },
};
