/**
 * Browser-test fixtures on the e2e database (DB_PATH), through the domain and plain inserts rather than the CLI:
 *
 *   node_modules/.bin/bun tests/support/e2e-fixtures.ts user --name N --email E --password P \
 *     [--role R --area A --place P] [--document D] [--wait http://127.0.0.1:3217]
 *
 * Creates a verified user with createUser (src/domain/accounts/users.ts) and, with --role, gives them role R in
 * area A of place P (a cafe's or a headquarters' name; the area must offer the role), e.g. the super-administrator
 * in "Administración" at "Sede Lima". Idempotent: an existing user (by e-mail) and an existing assignment are
 * kept. With --wait it first waits for the server's /up; the server seeds the roles, places and areas before it
 * answers, and until they exist here too (up to 30 s) nothing is created. Prints {"id":…,"created":…} as JSON.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase } from "../../src/db";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { createUser, findUserByEmail } from "../../src/domain/accounts/users";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    document: { type: "string" },
    role: { type: "string" },
    area: { type: "string" },
    place: { type: "string" },
    wait: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`Timed out waiting for ${what}.`);
    await sleep(200);
  }
}

if (positionals[0] !== "user")
  fail(
    "Usage: e2e-fixtures.ts user --name N --email E --password P [--role R --area A --place P] [--document D] [--wait URL]",
  );
if (!values.name || !values.email || !values.password) fail("--name, --email and --password are required.");
if (values.role && (!values.area || !values.place)) fail("--role needs --area and --place.");

if (values.wait) {
  const up = `${values.wait.replace(/\/$/, "")}/up`;
  await waitUntil(up, async () => {
    try {
      return (await fetch(up)).ok ? true : undefined;
    } catch {
      return undefined;
    }
  });
}

const config = loadConfig();
const db = openDatabase(config.dbPath);
migrateDatabase(db);
const client = db.$client;

// The area (by name and place) and the role, once the seeders have made them; the area must offer the role.
let target: { areaId: number; roleId: number } | undefined;
if (values.role) {
  target = await waitUntil(`area "${values.area}" at "${values.place}" offering role "${values.role}"`, () => {
    const row = client
      .query<{ area_id: number; role_id: number }, [string, string, string, string]>(
        `SELECT a.id AS area_id, r.id AS role_id
         FROM areas a
         JOIN area_roles ar ON ar.area_id = a.id
         JOIN roles r ON r.id = ar.role_id
         LEFT JOIN cafes c ON c.id = a.cafe_id
         LEFT JOIN headquarters h ON h.id = a.headquarters_id
         WHERE a.name = ? AND r.name = ? AND (c.name = ? OR h.name = ?)`,
      )
      .get(values.area!, values.role!, values.place!, values.place!);
    return row ? { areaId: row.area_id, roleId: row.role_id } : undefined;
  });
}

const existing = findUserByEmail(db, values.email);
const user =
  existing ??
  (await createUser(
    db,
    config,
    { name: values.name, email: values.email, password: values.password, document_number: values.document },
    { verified: true },
  ));

if (target) {
  db.transaction((tx) => {
    client
      .query("INSERT INTO assignments (user_id, area_id, role_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .run(user.id, target!.areaId, target!.roleId);
    bumpAccessVersion(tx);
  });
}

console.log(JSON.stringify({ id: user.id, created: !existing }));
client.close();
