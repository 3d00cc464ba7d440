/**
 * The browser tests' fixtures, made in-process on one Playwright worker's database (DB_PATH) by a long-lived process
 * that tests/e2e/fixtures.ts starts for each worker once its server answers /up (so the seeders' roles, places and
 * areas are there):
 *
 *   node_modules/.bin/bun tests/support/e2e-fixtures.ts serve
 *
 * It reads requests on standard input, one JSON object a line, `{"id":1,"command":"user","args":{…}}`, runs them one
 * at a time in the order they came, and answers each on standard output with one line, `{"id":1,"result":…}` or
 * `{"id":1,"error":"…"}`. Anything else the code it runs prints goes to standard error, so standard output carries
 * answers only. It ends when its standard input does (the worker stopped or died). The commands:
 *
 * - `user` {name, email, password, document?, role?, area?, place?, verified?}: a user made with createUser
 *   (src/domain/accounts/users.ts), verified unless `verified` is false, holding role `role` in area `area` of place
 *   `place` (a cafe's or a headquarters' name; the area must offer the role), e.g. the super-administrator in
 *   "Administración" at "Sede Lima". An existing user (by e-mail) and an existing assignment are kept.
 *   → {id, created}
 * - `session` {email}: a signed-in session of that user, made as signing in makes one (src/http/auth.ts), for the
 *   browser to carry as its session cookie. → {name, value}
 * - `cli` {argv}: `./mesa ARGV` run in this process on this database (tests/support/cli.ts). → {code, out, err}
 * - `menu-board`, `menu-requirements`, `menu-schedule-setup`, `menu-schedule-save`, `menu-structures`: the menu
 *   pages' worlds, documented in tests/support/menu-*-fixtures.ts.
 */
import { createInterface } from "node:readline";
import { loadConfig } from "../../src/config";
import { migrateDatabase, openDatabase, type Db } from "../../src/db";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { createUser, findUserByEmail, recordSignIn } from "../../src/domain/accounts/users";
import { PASSWORD_CONFIRMED_KEY, SIGNED_IN_AT_KEY } from "../../src/http/auth";
import { SessionStore } from "../../src/http/session";
import { runInProcess } from "./cli";
import { menuBoardDraft } from "./menu-board-fixtures";
import { menuRequirementsWorld } from "./menu-requirements-fixtures";
import { menuScheduleSave, menuScheduleWorld } from "./menu-schedule-fixtures";
import { menuStructureCategories } from "./menu-structures-fixtures";

const config = loadConfig();

interface UserArgs {
  name: string;
  email: string;
  password: string;
  document?: string;
  role?: string;
  area?: string;
  place?: string;
  verified?: boolean;
}

/** The area (by name and place) offering the role, as ids; throws naming all three when there is none. */
function areaOffering(db: Db, role: string, area: string, place: string): { areaId: number; roleId: number } {
  const row = db.$client
    .query<{ area_id: number; role_id: number }, [string, string, string, string]>(
      `SELECT a.id AS area_id, r.id AS role_id
       FROM areas a
       JOIN area_roles ar ON ar.area_id = a.id
       JOIN roles r ON r.id = ar.role_id
       LEFT JOIN cafes c ON c.id = a.cafe_id
       LEFT JOIN headquarters h ON h.id = a.headquarters_id
       WHERE a.name = ? AND r.name = ? AND (c.name = ? OR h.name = ?)`,
    )
    .get(area, role, place, place);
  if (!row) throw new Error(`No area "${area}" at "${place}" offering role "${role}".`);
  return { areaId: row.area_id, roleId: row.role_id };
}

async function user(db: Db, args: UserArgs): Promise<{ id: number; created: boolean }> {
  if (args.role && (!args.area || !args.place)) throw new Error("A role needs an area and a place.");
  const target = args.role ? areaOffering(db, args.role, args.area!, args.place!) : null;
  const existing = findUserByEmail(db, args.email);
  const made =
    existing ??
    (await createUser(
      db,
      config,
      { name: args.name, email: args.email, password: args.password, document_number: args.document },
      { verified: args.verified !== false },
    ));
  if (target) {
    db.transaction((tx) => {
      db.$client
        .query("INSERT INTO assignments (user_id, area_id, role_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        .run(made.id, target.areaId, target.roleId);
      bumpAccessVersion(tx);
    });
  }
  return { id: made.id, created: !existing };
}

function session(db: Db, sessions: SessionStore, { email }: { email: string }): { name: string; value: string } {
  const found = findUserByEmail(db, email);
  if (!found) throw new Error(`No user ${email} to sign in.`);
  const now = Date.now();
  const signedIn = sessions.load(undefined);
  signedIn.setUser(found.id);
  signedIn.put(PASSWORD_CONFIRMED_KEY, now);
  signedIn.put(SIGNED_IN_AT_KEY, now);
  sessions.save(signedIn, { ipAddress: "127.0.0.1", userAgent: null });
  recordSignIn(db, found.id);
  return { name: config.sessionCookie, value: signedIn.id };
}

function serve(): void {
  // Standard output carries the answers alone: whatever the commands log goes to standard error.
  const answer = process.stdout.write.bind(process.stdout);
  console.log = console.info = console.error;

  const db = openDatabase(config.dbPath);
  migrateDatabase(db);
  const sessions = new SessionStore(db, config.sessionLifetimeMinutes * 60);
  const commands: Record<string, (args: any) => unknown> = {
    user: (args: UserArgs) => user(db, args),
    session: (args: { email: string }) => session(db, sessions, args),
    cli: ({ argv }: { argv: string[] }) => runInProcess(argv, process.env),
    "menu-board": (args) => menuBoardDraft(db, args),
    "menu-requirements": (args) => menuRequirementsWorld(db, args),
    "menu-schedule-setup": (args) => menuScheduleWorld(db, args),
    "menu-schedule-save": (args) => menuScheduleSave(db, args),
    "menu-structures": () => menuStructureCategories(db),
  };

  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    queue = queue.then(async () => {
      let id: unknown = null;
      try {
        const request = JSON.parse(line) as { id: unknown; command: string; args?: unknown };
        id = request.id;
        const command = commands[request.command];
        if (!command) throw new Error(`Unknown command "${request.command}".`);
        answer(`${JSON.stringify({ id, result: (await command(request.args ?? {})) ?? null })}\n`);
      } catch (error) {
        answer(`${JSON.stringify({ id, error: error instanceof Error ? error.message : String(error) })}\n`);
      }
    });
  });
  lines.on("close", () => {
    void queue.then(() => db.$client.close());
  });
}

if (process.argv[2] !== "serve") {
  console.error("Usage: e2e-fixtures.ts serve (requests on standard input, one JSON object a line)");
  process.exit(1);
}
serve();
