/** Test people and roles written straight to the database (the tests of an area do not depend on the Users page). */
import { inArray } from "drizzle-orm";
import { permissions as permissionsTable, rolePermissions, roles as rolesTable, users } from "../../db/schema";
import type { Db } from "../../src/db";
import { bumpAccessVersion } from "../../src/domain/access/authorization";
import { hashPassword } from "../../src/domain/accounts/passwords";
import type { User } from "../../src/domain/accounts/users";
import type { Document } from "../../src/shared/documents";

/** The password of every person addUser makes. */
export const TEST_PASSWORD = "correct-horse-42";

let passwordHash: Promise<string> | null = null;

/** A DNI, for addUser: dni("12345678"). */
export const dni = (number: string): Document => ({ type: "dni", number });

/** A verified, active user with TEST_PASSWORD (hashed once per test file), with a document (normalized) when given. */
export async function addUser(db: Db, name: string, email: string, document: Document | null = null): Promise<User> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const now = new Date();
  return db
    .insert(users)
    .values({
      name,
      email,
      passwordHash: await passwordHash,
      documentType: document?.type ?? null,
      documentNumber: document?.number ?? null,
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

/** A role with exactly these permissions; throws on an unknown permission name. */
export function makeRole(db: Db, name: string, names: string[]): number {
  return db.transaction((tx) => {
    const role = tx.insert(rolesTable).values({ name }).returning().get();
    const ids = names.length
      ? tx.select({ id: permissionsTable.id }).from(permissionsTable).where(inArray(permissionsTable.name, names)).all()
      : [];
    if (ids.length !== names.length) throw new Error(`unknown permissions among ${names.join(", ")}`);
    for (const { id } of ids) tx.insert(rolePermissions).values({ roleId: role.id, permissionId: id }).run();
    bumpAccessVersion(tx);
    return role.id;
  });
}
