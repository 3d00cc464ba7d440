/**
 * The database of the list benchmark, written at `path` and closed: 6 businesses with 24 headquarters, 30 mines with
 * 100 units and 300 cafes (five services each, priced), 3,000 areas, 3,000 people plus the two who sign in, 400
 * blacklist entries, 3,000 properties, 100 dealerships with 1,000 subdealerships, 200,000 audit entries with
 * their places (a smoke run asks for fewer), and the demo's food catalogue (163 ingredients, 7 providers, 896 offers,
 * by Mesa's food seeder).
 *
 * The schema comes from Mesa's own migrations and the permissions, roles and services from its reference seeders;
 * everything else is written with bun:sqlite prepared statements, batched, one transaction per table. Names are
 * Spanish, with accents, and unique where a list sorts by them, so every list has one order.
 */
import type { Database } from "bun:sqlite";
import { referenceSeeders } from "../../db/seeds";
import { foodSeeder } from "../../db/seeds/food";
import type { Config } from "../../src/config";
import { fillFoldedCopies, migrateDatabase, openDatabase } from "../../src/db";

export const BENCH_PASSWORD = "bench-password-2026";
export const SUPER_EMAIL = "super@bench.test";
export const MANAGER_EMAIL = "gerente@bench.test";

/** Permissions the benchmark's cafe manager holds: every list page's view permission (prices.manage as the role has). */
export const MANAGER_PERMISSIONS = [
  "users.view",
  "roles.view",
  "blacklist.view",
  "audit.view",
  "services.view",
  "places.view",
  "prices.manage",
  "businesses.view",
  "properties.view",
  "dealerships.view",
];

const FIRST = [
  "José",
  "María",
  "Juan",
  "Rosa",
  "Luis",
  "Carmen",
  "Jorge",
  "Lucía",
  "Miguel",
  "Ana",
  "Carlos",
  "Julia",
  "Pedro",
  "Elena",
  "Víctor",
  "Sofía",
  "Raúl",
  "Inés",
  "Andrés",
  "Mónica",
  "César",
  "Teresa",
  "Iván",
  "Patricia",
  "Ángel",
  "Gloria",
  "Hernán",
  "Noemí",
  "Óscar",
  "Beatriz",
];
const LAST = [
  "Quispe",
  "Huamán",
  "Mamani",
  "Flores",
  "Rojas",
  "Sánchez",
  "García",
  "Chávez",
  "Ramírez",
  "Torres",
  "Vásquez",
  "Gutiérrez",
  "Mendoza",
  "Ñahui",
  "Condori",
  "Apaza",
  "Ccama",
  "Pérez",
  "Díaz",
  "Castillo",
];
const MINES = [
  "Antamina",
  "Cerro Verde",
  "Las Bambas",
  "Yanacocha",
  "Toquepala",
  "Cuajone",
  "Antapaccay",
  "Constancia",
  "Toromocho",
  "Quellaveco",
  "Uchucchacua",
  "Cerro Lindo",
  "Pucamarca",
  "Inmaculada",
  "Shahuindo",
  "Lagunas Norte",
  "Tantahuatay",
  "Marcona",
  "Chinalco",
  "Raura",
  "Atacocha",
  "Milpo",
  "Yauliyacu",
  "Julcani",
  "Orcopampa",
  "Arcata",
  "Poracota",
  "Huarón",
  "Morococha",
  "San Rafael",
];
const UNITS = ["Norte", "Sur", "Tajo Abierto", "Concentradora", "Chancadora", "Relavera", "Campamento Alto", "Oeste"];
const CAFES = ["Comedor Principal", "Comedor Campamento", "Comedor Planta"];
const BUSINESSES = [
  "Mesa Catering S.A.C.",
  "Servicios Alimentarios Andinos S.A.C.",
  "Concesionaria de Alimentos del Sur S.A.",
  "Nutrición Minera E.I.R.L.",
  "Comedores Industriales del Perú S.A.C.",
  "Alimentación y Hotelería Minera S.A.C.",
];
const CITIES = ["Lima", "Arequipa", "Trujillo", "Cusco"];
const CAFE_AREAS = [
  "Administración",
  "Caja",
  "Cocina",
  "Almacén",
  "Nutrición",
  "Limpieza",
  "Atención al comensal",
  "Panadería",
  "Mantenimiento",
];
const HQ_AREAS = [
  "Administración",
  "Operaciones",
  "Logística",
  "Recursos Humanos",
  "Contabilidad",
  "Compras",
  "Sistemas",
  "Legal",
  "Seguridad",
  "Calidad",
  "Comercial",
  "Finanzas",
  "Dirección",
];
const DEALER_KINDS = [
  "Transportes",
  "Servicios",
  "Ingeniería",
  "Construcciones",
  "Perforaciones",
  "Montajes",
  "Logística",
  "Voladuras",
  "Mantenimiento",
  "Consultores",
];
const DEALER_NAMES = [
  "Andinos",
  "del Sur",
  "Huancayo",
  "Cordillera",
  "Pacífico",
  "Altiplano",
  "Norteños",
  "Ícaro",
  "Cóndor",
  "Inca",
];
const CREWS = [
  "Los Álamos",
  "San Martín",
  "El Cóndor",
  "Santa Rosa",
  "Vilcanota",
  "Chavín",
  "Paracas",
  "Tambo",
  "Huascarán",
  "Colca",
];
const ASSETS = [
  "Cocina industrial de 6 hornillas",
  "Refrigeradora vertical",
  "Mesa de acero inoxidable",
  "Horno convector",
  "Licuadora industrial",
  "Congeladora horizontal",
  "Campana extractora",
  "Balanza digital",
  "Marmita a gas",
  "Freidora eléctrica",
];
const CATEGORIES = ["Cocina", "Refrigeración", "Mobiliario", "Electrodomésticos", "Vajilla"];
const STATUSES = ["in_use", "in_use", "in_use", "in_storage", "under_repair", "retired"];
const REASONS = [
  "Conducta inapropiada en el comedor",
  "Suplantación de identidad",
  "Deuda pendiente con el comedor",
  "Retirado por la concesionaria",
];

export interface GeneratedDatabase {
  counts: Record<string, number>;
  /** The cafe whose Administración area the cafe manager works in. */
  managerCafe: { id: number; name: string };
  seconds: number;
}

/** ASCII lower case, for e-mail addresses. */
const ascii = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".");

/**
 * Inserts the rows in one transaction, 500 rows a statement (a prepared multi-row INSERT, and one more for the
 * rest); returns how many it inserted. Works on any table, WITHOUT ROWID ones (audit_places) included.
 */
function insertRows(client: Database, table: string, columns: string[], rows: Iterable<unknown[]>): number {
  const BATCH = 500;
  const sql = (n: number) =>
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array(n)
      .fill(`(${columns.map(() => "?").join(", ")})`)
      .join(", ")}`;
  const full = client.prepare(sql(BATCH));
  let inserted = 0;
  client.transaction(() => {
    let batch: unknown[] = [];
    let size = 0;
    for (const row of rows) {
      batch.push(...row);
      if (++size === BATCH) {
        full.run(...(batch as never[]));
        inserted += size;
        batch = [];
        size = 0;
      }
    }
    if (size) client.prepare(sql(size)).run(...(batch as never[]));
    inserted += size;
  })();
  return inserted;
}

/**
 * Inserts the rows as insertRows does and returns the id of the first: the ids follow in order (the tables are fresh
 * and nothing else writes), which is checked. A table WITHOUT ROWID has no ids to give: it is refused, by name.
 */
function insertAll(client: Database, table: string, columns: string[], rows: Iterable<unknown[]>): number {
  const listed = client.prepare("SELECT wr FROM pragma_table_list WHERE name = ?").get(table) as { wr: number } | null;
  if (!listed) throw new Error(`insertAll: no table ${table}`);
  if (listed.wr) throw new Error(`insertAll: ${table} is WITHOUT ROWID, so its rows have no ids; use insertRows`);
  const lastId = () =>
    (client.prepare(`SELECT COALESCE(MAX(rowid), 0) AS id FROM ${table}`).get() as { id: number }).id;
  const before = lastId();
  const inserted = insertRows(client, table, columns, rows);
  if (lastId() !== before + inserted)
    throw new Error(`insertAll: the ${inserted} new ids of ${table} do not follow ${before} in order`);
  return before + 1;
}

function idOf(client: Database, sql: string, ...params: (string | number)[]): number {
  const row = client.prepare(sql).get(...params) as { id: number } | null;
  if (!row) throw new Error(`not found: ${sql} ${params.join(", ")}`);
  return row.id;
}

export async function generateDatabase(
  path: string,
  config: Config,
  { auditEntries = 200_000 }: { auditEntries?: number } = {},
): Promise<GeneratedDatabase> {
  const started = performance.now();
  const db = openDatabase(path);
  migrateDatabase(db);
  for (const seeder of referenceSeeders) await seeder.run(db, config);
  const client = db.$client;
  // Generation only: a big page cache, and no syncing to disk (the file is thrown away after the run).
  client.run("PRAGMA cache_size = -262144");
  client.run("PRAGMA synchronous = OFF");
  const now = Date.now();
  const day = 86_400_000;

  // Roles of the reference seeders; the cafe manager role gets the view permission of every list page.
  const role = (name: string) => idOf(client, "SELECT id FROM roles WHERE name = ?", name);
  const superRole = idOf(client, "SELECT id FROM roles WHERE is_super = 1");
  const [administrator, operations, cafeManager, cashier, nutritionist, buyer] = [
    "administrator",
    "operations manager",
    "cafe manager",
    "cashier",
    "nutritionist",
    "buyer",
  ].map(role);
  client
    .prepare(
      "INSERT OR IGNORE INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions WHERE name IN (SELECT value FROM json_each(?))",
    )
    .run(cafeManager, JSON.stringify(MANAGER_PERMISSIONS));
  const serviceIds = (client.prepare("SELECT id FROM services ORDER BY code").all() as { id: number }[]).map(
    (s) => s.id,
  );
  // Documents are DNIs, written with their type where the table keeps one.
  const dni = (document: unknown) => [document === null ? null : "dni"];

  // Businesses and their headquarters.
  const firstBusiness = insertAll(
    client,
    "businesses",
    ["name", "ruc", "fiscal_address", "legal_address", "email", "phone"],
    BUSINESSES.map((name, i) => [
      name,
      `2060${String(1000000 + i * 7919).padStart(7, "0")}`,
      `Av. Javier Prado Este ${1200 + i * 37}, San Isidro, Lima`,
      `Jr. Junín ${300 + i * 11}, Cercado de Lima`,
      `contacto${i + 1}@empresa.pe`,
      `01 ${4400000 + i * 1231}`,
    ]),
  );
  const businessIds = BUSINESSES.map((_, i) => firstBusiness + i);
  const hqRows = businessIds.flatMap((businessId, b) =>
    CITIES.map((city, c) => [
      businessId,
      `Sede ${city}`,
      `Calle Los Pinos ${100 + b * 10 + c}, ${city}`,
      `0${b + 1} ${5200000 + c * 101}`,
    ]),
  );
  const firstHq = insertAll(client, "headquarters", ["business_id", "name", "address", "phone"], hqRows);
  const hqIds = hqRows.map((_, i) => firstHq + i);

  // 30 mines, 100 units, 300 cafes (three per unit), each offering the five services with prices (a few unset).
  const firstMine = insertAll(
    client,
    "mines",
    ["name"],
    MINES.map((m) => [`Mina ${m}`]),
  );
  const unitRows = Array.from({ length: 100 }, (_, u) => {
    const mine = Math.floor((u * MINES.length) / 100);
    const local = u - Math.ceil((mine * 100) / MINES.length);
    return [firstMine + mine, `Unidad ${UNITS[local]}`];
  });
  const firstUnit = insertAll(client, "units", ["mine_id", "name"], unitRows);
  const cafeRows = Array.from({ length: 300 }, (_, c) => [
    firstUnit + Math.floor(c / 3),
    businessIds[c % businessIds.length],
    CAFES[c % 3],
    "America/Lima",
  ]);
  const firstCafe = insertAll(client, "cafes", ["unit_id", "business_id", "name", "time_zone"], cafeRows);
  const cafeIds = cafeRows.map((_, i) => firstCafe + i);
  const mineIds = MINES.map((_, i) => firstMine + i);
  const unitIds = unitRows.map((_, i) => firstUnit + i);
  insertRows(
    client,
    "mine_services",
    ["mine_id", "service_id"],
    mineIds.flatMap((m) => serviceIds.map((s) => [m, s])),
  );
  insertRows(
    client,
    "unit_services",
    ["unit_id", "service_id"],
    unitIds.flatMap((u) => serviceIds.map((s) => [u, s])),
  );
  insertRows(
    client,
    "cafe_services",
    ["cafe_id", "service_id", "price_cents", "updated_at"],
    cafeIds.flatMap((c, i) =>
      serviceIds.map((s, k) => [c, s, (i + k) % 11 === 0 ? null : 650 + k * 300 + (i % 7) * 50, now - (i % 90) * day]),
    ),
  );
  insertRows(
    client,
    "business_services",
    ["business_id", "service_id"],
    businessIds.flatMap((b, i) => serviceIds.slice(0, 3 + (i % 3)).map((s) => [b, s])),
  );

  // 3,000 areas: nine in every cafe, the other 300 at the headquarters; cafe areas offer the cafe roles.
  const areaRows: [string, number | null, number | null][] = [];
  for (const cafeId of cafeIds) for (const name of CAFE_AREAS) areaRows.push([name, cafeId, null]);
  for (let i = 0; areaRows.length < 3000; i++)
    areaRows.push([HQ_AREAS[Math.floor(i / hqIds.length)], null, hqIds[i % hqIds.length]]);
  const firstArea = insertAll(client, "areas", ["name", "cafe_id", "headquarters_id"], areaRows);
  const areaIds = areaRows.map((_, i) => firstArea + i);
  const offered = (i: number) =>
    areaRows[i][1] !== null
      ? [cafeManager, cashier, nutritionist]
      : areaRows[i][0] === "Administración"
        ? [superRole, administrator, operations]
        : [administrator, operations, buyer];
  insertRows(
    client,
    "area_roles",
    ["area_id", "role_id"],
    areaIds.flatMap((id, i) => offered(i).map((r) => [id, r])),
  );

  // 3,000 people with one hash (hashing 3,000 passwords would take minutes); everyone holds a role in one area,
  // one in ten also in a second area of another cafe. Two more sign in: a super-administrator and a cafe manager.
  const hash = await Bun.password.hash(BENCH_PASSWORD, { algorithm: "argon2id", memoryCost: 8, timeCost: 1 });
  const userRows = Array.from({ length: 3000 }, (_, i) => {
    const name = `${FIRST[i % 30]} ${LAST[Math.floor(i / 30) % 20]} ${LAST[Math.floor(i / 600) % 20]}`;
    const lastSignIn = i % 4 === 0 ? null : now - (i % 60) * day;
    const document = String(40000000 + i * 13);
    return [
      name,
      `${ascii(name)}.${i}@mesa.pe`,
      hash,
      now - 400 * day,
      i % 20 === 19 ? "deactivated" : "active",
      document,
      lastSignIn,
      now - 400 * day,
      now - (i % 30) * day,
      ...dni(document),
    ];
  });
  userRows.push(["Benchmark Superadministrador", SUPER_EMAIL, hash, now, "active", null, null, now, now, ...dni(null)]);
  userRows.push([
    "Benchmark Gerente de Comedor",
    MANAGER_EMAIL,
    hash,
    now,
    "active",
    null,
    null,
    now,
    now,
    ...dni(null),
  ]);
  const userColumns = [
    "name",
    "email",
    "password_hash",
    "email_verified_at",
    "status",
    "document_number",
    "last_sign_in_at",
    "created_at",
    "updated_at",
    "document_type",
  ];
  const firstUser = insertAll(client, "users", userColumns, userRows);
  const userIds = userRows.map((_, i) => firstUser + i).slice(0, 3000);
  const roleIn = (area: number, i: number) => {
    const roles = offered(area);
    return area < 2700 && area % 9 === 0 ? roles[0] : roles[1 + (i % (roles.length - 1))];
  };
  const assignmentRows: number[][] = [];
  userIds.forEach((userId, i) => {
    assignmentRows.push([userId, areaIds[i], roleIn(i, i)]);
    if (i % 10 === 5) assignmentRows.push([userId, areaIds[(i + 9 * 37) % 2700], roleIn((i + 9 * 37) % 2700, i)]);
  });
  // The cafe manager works in the Administración area of the 42nd cafe; the super-administrator at headquarters.
  const managerCafeIndex = 41;
  const superArea = areaRows.findIndex(([name, cafeId]) => name === "Administración" && cafeId === null);
  assignmentRows.push([firstUser + 3000, areaIds[superArea], superRole]);
  assignmentRows.push([firstUser + 3001, areaIds[managerCafeIndex * 9], cafeManager]);
  insertRows(client, "assignments", ["user_id", "area_id", "role_id"], assignmentRows);
  client.run(
    "INSERT INTO access_version (id, version) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET version = version + 1",
  );

  // 400 blacklist entries: a quarter linked to an account, a quarter matching an account's document only.
  insertRows(
    client,
    "blacklist",
    ["document_number", "name", "reason", "user_id", "decided_by", "created_at", "document_type"],
    Array.from({ length: 400 }, (_, i) => {
      const person = (i * 7 + 3) % 3000;
      const byDocument = i % 4 === 1;
      const linked = i % 4 === 0;
      return [
        linked || byDocument ? userRows[person][5] : String(70000000 + i * 31),
        linked || byDocument ? userRows[person][0] : `${FIRST[(i * 7) % 30]} ${LAST[(i * 3) % 20]}`,
        REASONS[i % REASONS.length],
        linked ? userIds[person] : null,
        userIds[(i * 11) % 3000],
        now - (400 - i) * day,
        ...dni(""),
      ];
    }),
  );

  // 3,000 properties, nine in ten kept at a cafe.
  insertRows(
    client,
    "properties",
    [
      "code",
      "name",
      "category",
      "serial",
      "headquarters_id",
      "cafe_id",
      "status",
      "acquired_on",
      "acquisition_value_cents",
      "notes",
      "created_at",
      "updated_at",
    ],
    Array.from({ length: 3000 }, (_, i) => {
      const atHq = i % 10 === 9;
      const acquired = new Date(now - (i % 1500) * day).toISOString().slice(0, 10);
      return [
        `P-${String(i + 1).padStart(6, "0")}`,
        ASSETS[i % ASSETS.length],
        CATEGORIES[i % CATEGORIES.length],
        `SN${(i * 104729) % 1000003}`,
        atHq ? hqIds[i % hqIds.length] : null,
        atHq ? null : cafeIds[(i * 7) % 300],
        STATUSES[i % STATUSES.length],
        i % 5 === 0 ? null : acquired,
        i % 5 === 0 ? null : 50000 + (i % 40) * 12500,
        i % 3 === 0 ? "Revisión anual pendiente." : "",
        now - (i % 500) * day,
        now - (i % 200) * day,
      ];
    }),
  );

  // 100 dealerships with ten subdealerships each, every subdealership working in one to three units.
  const firstDealership = insertAll(
    client,
    "dealerships",
    ["name", "ruc", "fiscal_address", "legal_address", "phone", "email", "created_at", "updated_at"],
    Array.from({ length: 100 }, (_, i) => [
      `${DEALER_KINDS[i % 10]} ${DEALER_NAMES[Math.floor(i / 10)]} S.A.C.`,
      `205${String(10000000 + i * 7907).padStart(8, "0")}`,
      `Av. Industrial ${100 + i}, Lima`,
      `Av. Industrial ${100 + i}, Lima`,
      `01 ${3000000 + i * 17}`,
      `contacto${i}@contratista.pe`,
      now - i * day,
      now,
    ]),
  );
  const subRows = Array.from({ length: 1000 }, (_, i) => [
    firstDealership + Math.floor(i / 10),
    `Subcontrata ${CREWS[i % 10]}`,
    `104${String(10000000 + i * 7901).padStart(8, "0")}`,
    `Jr. Los Mineros ${i}, Huancayo`,
    "",
    `064 ${200000 + i}`,
    i % 3 ? `obras${i}@subcontrata.pe` : "",
    now - i * day,
    now,
  ]);
  const firstSub = insertAll(
    client,
    "subdealerships",
    ["dealership_id", "name", "ruc", "fiscal_address", "legal_address", "phone", "email", "created_at", "updated_at"],
    subRows,
  );
  insertRows(
    client,
    "subdealership_units",
    ["subdealership_id", "unit_id"],
    subRows.flatMap((_, i) =>
      [...new Set(Array.from({ length: 1 + (i % 3) }, (_, k) => unitIds[(i * 13 + k * 41) % 100]))].map((u) => [
        firstSub + i,
        u,
      ]),
    ),
  );

  // 200,000 audit entries (or `auditEntries`), oldest first, each with the places it is about (one in four is company-wide: no places).
  // An entry about a person is about the cafe where that person works.
  type Place = [kind: string, id: number] | null;
  const kinds: { action: string; subject: string; place: (n: number) => Place }[] = [
    { action: "cafe.prices.updated", subject: "cafe", place: (n) => ["cafe", cafeIds[n % 300]] },
    { action: "user.role_assigned", subject: "user", place: () => null },
    { action: "property.updated", subject: "property", place: (n) => ["cafe", cafeIds[(n * 7) % 300]] },
    {
      action: "area.updated",
      subject: "area",
      place: (n) => (n % 10 === 0 ? ["headquarters", hqIds[n % hqIds.length]] : ["cafe", cafeIds[n % 300]]),
    },
    { action: "cafe.prices.updated", subject: "cafe", place: (n) => ["cafe", cafeIds[(n * 3) % 300]] },
    { action: "user.updated", subject: "user", place: () => null },
    { action: "place.services.updated", subject: "unit", place: (n) => ["unit", unitIds[n % 100]] },
    { action: "dealership.updated", subject: "dealership", place: () => null },
    {
      action: "headquarters.updated",
      subject: "headquarters",
      place: (n) => ["headquarters", hqIds[n % hqIds.length]],
    },
    { action: "mine.updated", subject: "mine", place: (n) => ["mine", mineIds[n % 30]] },
    {
      action: "business.updated",
      subject: "business",
      place: (n) => ["business", businessIds[n % businessIds.length]],
    },
    { action: "subdealership.updated", subject: "subdealership", place: () => null },
    { action: "cafe.prices.updated", subject: "cafe", place: (n) => ["cafe", cafeIds[(n * 11) % 300]] },
    { action: "user.role_assigned", subject: "user", place: () => null },
    { action: "service.updated", subject: "service", place: () => null },
    { action: "role.updated", subject: "role", place: () => null },
  ];
  const AUDIT_ROWS = auditEntries;
  const start = now - AUDIT_ROWS * 120_000;
  const places: Place[] = [];
  const firstAudit = insertAll(
    client,
    "audit_log",
    ["actor_id", "actor_label", "action", "subject_type", "subject_id", "before", "after", "created_at"],
    (function* () {
      for (let i = 0; i < AUDIT_ROWS; i++) {
        const kind = kinds[i % kinds.length];
        const n = Math.floor(i / kinds.length);
        // One of the 2,700 people of the cafes: their first area is areas[person], of the cafe person / 9.
        const person = (n * 7 + i) % 2700;
        places.push(kind.subject === "user" ? ["cafe", cafeIds[Math.floor(person / 9)]] : kind.place(n));
        const actor = i % 20 === 0 ? null : (i * 31) % 3000;
        const prices = kind.action === "cafe.prices.updated";
        const before = prices
          ? { serviceId: serviceIds[i % 5], priceCents: 1200 + (i % 9) * 50 }
          : { name: `Antes ${i % 97}` };
        const after = prices
          ? { serviceId: serviceIds[i % 5], priceCents: 1250 + (i % 9) * 50 }
          : { name: `Después ${i % 97}` };
        yield [
          actor === null ? null : userIds[actor],
          actor === null ? "cli" : userRows[actor][1],
          kind.action,
          kind.subject,
          kind.subject === "user" ? userIds[person] : (n % 300) + 1,
          JSON.stringify(before),
          JSON.stringify(after),
          start + i * 120_000,
        ];
      }
    })(),
  );
  insertRows(
    client,
    "audit_places",
    ["audit_id", "kind", "place_id"],
    (function* () {
      for (let i = 0; i < places.length; i++) {
        const place = places[i];
        if (place) yield [firstAudit + i, ...place];
      }
    })(),
  );

  // The rows were written without their folded copies, as a program other than Mesa's domain writes them; Mesa's
  // next start fills them (migrateDatabase), which is what the benchmark's database gets here.
  fillFoldedCopies(db);

  // The food catalogue of the demo (cities, 163 ingredients, 7 providers and their 896 offers), as the Providers and
  // Ingredients pages show it: Mesa's own seeder, since the offers' prices and their history follow its rules.
  await foodSeeder.run(db, config);

  const count = (table: string) => (client.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const counts = Object.fromEntries(
    [
      "businesses",
      "headquarters",
      "mines",
      "units",
      "cafes",
      "areas",
      "users",
      "assignments",
      "blacklist",
      "properties",
      "dealerships",
      "subdealerships",
      "audit_log",
      "audit_places",
      "ingredients",
      "providers",
      "offers",
    ].map((t) => [t, count(t)]),
  );
  const managerCafe = {
    id: cafeIds[managerCafeIndex],
    name: `${CAFES[managerCafeIndex % 3]} · ${unitRows[Math.floor(managerCafeIndex / 3)][1]}`,
  };
  db.$client.close();
  return { counts, managerCafe, seconds: (performance.now() - started) / 1000 };
}
