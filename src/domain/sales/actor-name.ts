/** The name a sale, a void or a closed month shows for who did it. */
import { eq, sql } from "drizzle-orm";
import { users } from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import type { Actor } from "../audit";

const userName = preparedQuery((db: Db) =>
  db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** The person's name, or the actor's label ("cli") when no person acts or the account is gone. */
export function actorName(db: Db, actor: Actor): string {
  if (actor.userId === null) return actor.label;
  return userName(db).get({ id: actor.userId })?.name ?? actor.label;
}
