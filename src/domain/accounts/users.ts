/**
 * User accounts: creating, finding, updating profile and password, deactivating and deleting. Used by the
 * web app and by `./mesa user:*`.
 */
import { and, asc, eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema";
import type { Config } from "../../config";
import { preparedQuery, type Db } from "../../db";
import { boundNumber, boundText } from "../search";
import { normalizeDocumentNumber, type Document } from "../../shared/documents";
import { NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { documentFields, field, parseInput, parseWithDocument, t } from "../validation";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords";
import { placesOfUser, recordAudit, type Actor } from "../audit";
import { ensureNotLastSuper } from "../access/assignments";

export type User = typeof users.$inferSelect;
export type Locale = "es" | "en";

/** E-mail addresses are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Read on every signed-in request (the session's user) and every sign-in: prepared once.
const userById = preparedQuery((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, boundNumber("id")))
    .prepare(),
);
const userByEmail = preparedQuery((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, boundText("email")))
    .prepare(),
);

export function findUserByEmail(db: Db, email: string): User | undefined {
  return userByEmail(db).get({ email: normalizeEmail(email) });
}

export function findUserById(db: Db, id: number): User | undefined {
  return userById(db).get({ id });
}

/** A user with this document (its number normalized first), if any. */
export function findUserByDocument(db: Db, document: Document): User | undefined {
  const number = normalizeDocumentNumber(document.number);
  if (number === "") return undefined;
  return db
    .select()
    .from(users)
    .where(and(eq(users.documentType, document.type), eq(users.documentNumber, number)))
    .get();
}

export function requireUserByEmail(db: Db, email: string): User {
  const user = findUserByEmail(db, email);
  if (!user) throw new NotFound(`No user with e-mail ${normalizeEmail(email)}`);
  return user;
}

function ensureEmailFree(db: Db, email: string, exceptId?: number): void {
  const existing = findUserByEmail(db, email);
  if (existing && existing.id !== exceptId) throw new ValidationFailed({ email: message("validation.email_taken") });
}

/** Refuses a new password that does not match its confirmation or breaks the password policy. */
export function ensurePasswordAcceptable(
  config: Config,
  password: string,
  confirmation: string | undefined,
  personal: string[],
  fieldName = "password",
): void {
  if (confirmation !== undefined && confirmation !== password)
    throw new ValidationFailed({ [fieldName]: message("validation.password.confirmation") });
  const problem = passwordProblem(password, config.passwordMinLength, personal);
  if (problem) throw new ValidationFailed({ [fieldName]: problem });
}

export const NewUserInput = t.Object({
  name: field.text(1, 120),
  email: field.email(),
  password: field.password(),
  password_confirmation: t.Optional(t.String()),
  language: t.Optional(t.Union([t.Literal("es"), t.Literal("en")])),
  ...documentFields({ optional: true }),
});

/**
 * Creates an account; `verified` marks the e-mail as already confirmed (administrators, the CLI, seeds). An optional
 * document (DNI unless `document_type` says otherwise) is checked by its type, the DNI length from `config`.
 */
export async function createUser(
  db: Db,
  config: Config,
  input: unknown,
  options: { verified?: boolean; now?: Date } = {},
): Promise<User> {
  const { data, document } = parseWithDocument(NewUserInput, input, config, ["password", "password_confirmation"]);
  ensureEmailFree(db, data.email);
  ensurePasswordAcceptable(config, data.password, data.password_confirmation, [data.name, data.email]);
  const now = options.now ?? new Date();
  const passwordHash = await hashPassword(data.password);
  return db
    .insert(users)
    .values({
      name: data.name,
      email: normalizeEmail(data.email),
      passwordHash,
      language: data.language ?? null,
      documentType: document?.type ?? null,
      documentNumber: document?.number ?? null,
      emailVerifiedAt: options.verified ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

export const ProfileInput = t.Object({ name: field.text(1, 120), email: field.email() });

/** Changes name and e-mail; a new e-mail must be verified again. Returns whether the e-mail changed. */
export function updateProfile(db: Db, user: User, input: unknown): { user: User; emailChanged: boolean } {
  const data = parseInput(ProfileInput, input);
  const email = normalizeEmail(data.email);
  ensureEmailFree(db, email, user.id);
  const emailChanged = email !== user.email;
  const updated = db.transaction((tx) => {
    recordAudit(
      tx,
      { userId: user.id, label: user.email },
      {
        action: "user.profile_updated",
        subjectType: "user",
        subjectId: user.id,
        places: placesOfUser(tx, user.id),
        before: { name: user.name, email: user.email },
        after: { name: data.name, email },
      },
    );
    return tx
      .update(users)
      .set({
        name: data.name,
        email,
        emailVerifiedAt: emailChanged ? null : user.emailVerifiedAt,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning()
      .get();
  });
  return { user: updated, emailChanged };
}

export const PasswordChangeInput = t.Object({
  current_password: field.password(),
  password: field.password(),
  password_confirmation: field.password(),
});

/** Changes the password after checking the current one; remember-me tokens stop working. */
export async function changePassword(db: Db, config: Config, user: User, input: unknown): Promise<void> {
  const data = parseInput(PasswordChangeInput, input, ["current_password", "password", "password_confirmation"]);
  if (!(await verifyPassword(data.current_password, user.passwordHash)))
    throw new ValidationFailed({ current_password: message("validation.password.current") });
  ensurePasswordAcceptable(config, data.password, data.password_confirmation, [user.name, user.email]);
  await setPassword(db, user.id, data.password);
}

/** Stores a new password hash and drops the remember-me token. */
export async function setPassword(db: Db, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  db.update(users)
    .set({ passwordHash, rememberTokenHash: null, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .run();
}

/**
 * Sets a user's password on someone else's behalf (`./mesa user:password`): the password policy applies, every
 * session and the remember-me token of the user end, and the change is audited with the user's places.
 */
export async function setPasswordFor(
  db: Db,
  config: Config,
  actor: Actor,
  user: User,
  password: string,
): Promise<void> {
  ensurePasswordAcceptable(config, password, undefined, [user.name, user.email]);
  const passwordHash = await hashPassword(password);
  db.transaction((tx) => {
    tx.update(users)
      .set({ passwordHash, rememberTokenHash: null, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .run();
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
    recordAudit(tx, actor, {
      action: "user.password_set",
      subjectType: "user",
      subjectId: user.id,
      places: placesOfUser(tx, user.id),
    });
  });
}

/** Deletes the account after checking its password; its sessions go with it. The last super-administrator cannot leave. */
export async function deleteAccount(db: Db, user: User, password: unknown): Promise<void> {
  if (typeof password !== "string" || !(await verifyPassword(password, user.passwordHash))) {
    throw new ValidationFailed({ password: message("validation.password.current") });
  }
  db.transaction((tx) => {
    ensureNotLastSuper(tx, user.id);
    recordAudit(
      tx,
      { userId: user.id, label: user.email },
      {
        action: "user.deleted",
        subjectType: "user",
        subjectId: user.id,
        places: placesOfUser(tx, user.id),
        before: { name: user.name, email: user.email },
      },
    );
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
    tx.delete(users).where(eq(users.id, user.id)).run();
  });
}

export function markEmailVerified(db: Db, userId: number, now = new Date()): void {
  db.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId)).run();
}

export function setLanguage(db: Db, userId: number, language: Locale): void {
  db.update(users).set({ language, updatedAt: new Date() }).where(eq(users.id, userId)).run();
}

export function recordSignIn(db: Db, userId: number, now = new Date()): void {
  db.update(users).set({ lastSignInAt: now }).where(eq(users.id, userId)).run();
}

export function setRememberTokenHash(db: Db, userId: number, hash: string | null): void {
  db.update(users).set({ rememberTokenHash: hash }).where(eq(users.id, userId)).run();
}

export function listUsers(db: Db): User[] {
  return db.select().from(users).orderBy(asc(users.email)).all();
}

export function countUsers(db: Db): number {
  return db.$client.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users").get()?.n ?? 0;
}
