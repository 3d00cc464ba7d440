/**
 * E-mail addresses that could pass for a colleague's, at every entry point (src/domain/accounts/email-address.ts):
 * registration, the Users page (create and edit), the profile, a business's e-mail and `./mesa user:create` refuse an
 * address with an invisible character, a styled letter or mixed scripts with 422 and the field's message, in the
 * person's language; an account stored before the rule still signs in and resets its password, and is flagged where
 * a person picks an account: the Users page, the blacklist's linked account and `./mesa user:list`.
 *
 * The world: a super-administrator at headquarters, and an account stored with a Cyrillic "а" (U+0430) in "ana".
 */
import { describe, expect, test } from "bun:test";
import { bootstrapAccess } from "../../db/seeds/access";
import { migrateDatabase, openDatabase } from "../../src/db";
import { createArea } from "../../src/domain/access/areas";
import { assignRole } from "../../src/domain/access/assignments";
import { addToBlacklist } from "../../src/domain/access/blacklist";
import { ensureHeadquarters } from "../../src/domain/access/places";
import { findRoleByName, SUPER_ROLE } from "../../src/domain/access/roles";
import { EVERYTHING } from "../../src/domain/access/scope";
import { findUserById } from "../../src/domain/accounts/users";
import { CLI_ACTOR } from "../../src/domain/audit";
import { translate, type TranslationKey } from "../../src/shared/i18n";
import { Client, createTestApp } from "../support/app";
import { cliWorkspace, mesaInProcess } from "../support/cli";
import { addUser, dni, makeRole } from "../support/people";
import { signedIn, signIn, submit, submitJson, visitPage } from "../support/requests";

const es = (key: TranslationKey) => translate("es", key);
const INVISIBLE = "validation.email_address.invisible" as const;
const STYLED = "validation.email_address.styled" as const;
const MIXED = "validation.email_address.mixed_scripts" as const;
const PASSWORD = "another-horse-77";
/** "ana@mesa.test" with a Cyrillic "а" first: it reads exactly as Ana's address. */
const TWIN = "\u0430na@mesa.test";

/** Addresses that look like ana@mesa.test, and the message each is refused with. */
const LOOKALIKES: [string, TranslationKey][] = [
  ["ana\u200b@mesa.test", INVISIBLE],
  ["an\u00ada@mesa.test", INVISIBLE],
  ["\u202eana@mesa.test", INVISIBLE],
  ["ana@mesa\ufeff.test", INVISIBLE],
  ["ａna@mesa.test", STYLED],
  [TWIN, MIXED],
  ["ana@m\u0435sa.test", MIXED],
];

async function world() {
  const app = createTestApp();
  const db = app.db;
  bootstrapAccess(db);
  const superRole = findRoleByName(db, SUPER_ROLE)!.id;
  const staff = makeRole(db, "cashier", []);
  const hq = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const sede = createArea(db, CLI_ACTOR, EVERYTHING, {
    name: "Administración",
    headquarters_id: hq.headquartersId,
    role_ids: [superRole, staff],
  }).id;
  const root = await addUser(db, "Raíz Super", "root@mesa.test");
  assignRole(db, CLI_ACTOR, EVERYTHING, { userId: root.id, areaId: sede, roleId: superRole });
  const ana = await addUser(db, "Ana Quispe", "ana@mesa.test");
  // Stored before Mesa refused look-alikes.
  const twin = await addUser(db, "Ana Quispe", TWIN, dni("40000009"));
  return { app, db, root, ana, twin, sede, staff };
}

type World = Awaited<ReturnType<typeof world>>;

/** The 422 answer's message for `email`, after checking it is one. */
async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(422);
  return (await response.json()).errors.email;
}

const userCount = (w: World) => w.db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users").get()!.n;

describe("look-alike e-mail addresses", () => {
  test("registration refuses them with 422 and the field's message, and the form shows it", async () => {
    const w = await world();
    const before = userCount(w);
    for (const [email, key] of LOOKALIKES) {
      const guest = new Client(w.app);
      await guest.visit("/register");
      const form = { name: "Ana Otra", email, password: PASSWORD, password_confirmation: PASSWORD };
      expect({ email, message: await refusal(await submitJson(guest, "POST", "/register", form)) }).toEqual({
        email,
        message: es(key),
      });
    }
    // The page client is sent back to the form, which names the problem.
    const guest = new Client(w.app);
    await guest.visit("/register");
    const form = {
      name: "Ana Otra",
      email: "ana\u200b@mesa.test",
      password: PASSWORD,
      password_confirmation: PASSWORD,
    };
    expect((await submit(guest, "POST", "/register", form, "/register")).headers.get("location")).toBe("/register");
    expect((await visitPage(guest, "/register")).props.errors).toEqual({ email: es(INVISIBLE) });
    expect(userCount(w)).toBe(before);
    // English words for an English reader (the language cookie the language switcher sets).
    const english = new Client(w.app);
    english.cookies.set("locale", "en");
    await english.visit("/register");
    const response = await submitJson(english, "POST", "/register", { ...form, email: TWIN });
    expect(await refusal(response)).toBe(translate("en", MIXED));
  });

  test("the Users page refuses them when creating a user and when changing one's e-mail", async () => {
    const w = await world();
    const root = await signedIn(w.app, w.root);
    for (const [email, key] of LOOKALIKES) {
      const created = await submitJson(root, "POST", "/users", {
        name: "Ana Otra",
        email,
        area_id: w.sede,
        role_id: w.staff,
        access: "password",
        password: PASSWORD,
      });
      expect({ email, message: await refusal(created) }).toEqual({ email, message: es(key) });
      const changed = await submitJson(root, "PUT", `/users/${w.ana.id}`, { name: "Ana Quispe", email });
      expect({ email, message: await refusal(changed) }).toEqual({ email, message: es(key) });
    }
    expect(findUserById(w.db, w.ana.id)!.email).toBe("ana@mesa.test");
    // An ordinary address in one script is taken.
    const fine = await submitJson(root, "PUT", `/users/${w.ana.id}`, { name: "Ana Quispe", email: "ana.q@mesa.test" });
    expect(fine.status).toBeLessThan(400);
    expect(findUserById(w.db, w.ana.id)!.email).toBe("ana.q@mesa.test");
  });

  test("the profile refuses them as a new e-mail", async () => {
    const w = await world();
    const ana = await signedIn(w.app, w.ana);
    for (const [email, key] of LOOKALIKES) {
      const response = await submitJson(ana, "PATCH", "/settings/profile", { name: "Ana Quispe", email });
      expect({ email, message: await refusal(response) }).toEqual({ email, message: es(key) });
    }
    expect(findUserById(w.db, w.ana.id)!.email).toBe("ana@mesa.test");
  });

  test("a business's e-mail follows the same rule", async () => {
    const w = await world();
    const root = await signedIn(w.app, w.root);
    const response = await submitJson(root, "POST", "/businesses", { name: "Sierra", email: "admin@s\u0456erra.pe" });
    expect(await refusal(response)).toBe(es(MIXED));
  });

  test("an account stored before the rule still signs in and asks for a new password by its address", async () => {
    const w = await world();
    const twin = new Client(w.app);
    expect((await signIn(twin, TWIN)).headers.get("location")).not.toBe("/login");
    const guest = new Client(w.app);
    await guest.visit("/forgot-password");
    const reset = await submit(guest, "POST", "/forgot-password", { email: TWIN }, "/forgot-password");
    expect((await visitPage(guest, "/forgot-password")).props.errors).toEqual({});
    expect(reset.status).toBe(302);
  });

  test("a stored look-alike is flagged on the Users page and on the blacklist, its odd letter shown", async () => {
    const w = await world();
    const root = await signedIn(w.app, w.root);
    const users = (await visitPage(root, "/users")).props.users.data as {
      email: string;
      emailLookalike: { problem: string; revealed: string } | null;
    }[];
    const byEmail = new Map(users.map((u) => [u.email, u.emailLookalike]));
    expect(byEmail.get("ana@mesa.test")).toBeNull();
    expect(byEmail.get("root@mesa.test")).toBeNull();
    expect(byEmail.get(TWIN)).toEqual({ problem: "mixed_scripts", revealed: "⟨U+0430⟩na@mesa.test" });
    // The server-rendered page shows the flag on that row only.
    const html = await (await root.get("/users")).text();
    expect(html.match(/data-testid="email-lookalike"/g)).toHaveLength(1);
    expect(html).toContain(es("access.users.email_lookalike.mixed_scripts"));

    addToBlacklist(
      w.db,
      CLI_ACTOR,
      EVERYTHING,
      {
        document_type: "dni",
        document_number: "40000009",
        name: "Ana Quispe",
        reason: "Cuenta duplicada",
      },
      w.app.config,
    );
    const entries = (await visitPage(root, "/blacklist")).props.entries.data as {
      user: { email: string; emailLookalike: { problem: string } | null } | null;
    }[];
    expect(entries.map((e) => e.user && [e.user.email, e.user.emailLookalike?.problem])).toEqual([
      [TWIN, "mixed_scripts"],
    ]);
  });
});

describe("./mesa and look-alike addresses", () => {
  test("user:create refuses them naming the field; user:list flags one stored before the rule", async () => {
    const ws = cliWorkspace("mesa-email-lookalikes-");
    const create = (email: string) =>
      mesaInProcess(ws, ["user:create", "--name", "Ana Quispe", "--email", email, "--password", PASSWORD]);
    for (const [email, key] of LOOKALIKES) {
      const refused = await create(email);
      expect({ email, code: refused.code }).toEqual({ email, code: 1 });
      expect(refused.err).toContain(`email: ${translate("en", key)}`);
    }
    expect((await create("ana@mesa.test")).code).toBe(0);

    // An account stored before the rule, written straight to the database.
    const db = openDatabase(ws.dbPath);
    migrateDatabase(db);
    await addUser(db, "Ana Impostora", TWIN);
    db.$client.close();

    const list = await mesaInProcess(ws, ["user:list"]);
    expect(list.code).toBe(0);
    expect(list.out).toContain(
      `#2: ${translate("en", "access.users.email_lookalike.mixed_scripts")} ${translate("en", "access.users.email_lookalike.reads", { address: "⟨U+0430⟩na@mesa.test" })}`,
    );
    expect(list.out).not.toContain("#1:");
    const json = JSON.parse((await mesaInProcess(ws, ["user:list", "--json"])).out) as Record<string, unknown>[];
    expect(json.map((u) => u.emailLookalike)).toEqual([
      null,
      { problem: "mixed_scripts", revealed: "⟨U+0430⟩na@mesa.test" },
    ]);
  });
});
