/**
 * A cafe's menu settings, the cafe's data: the diner level whose recipes the meal schedule costs and shows (none: the
 * first level by sort order) and the language of its menu board in the dining room.
 */
import { asc, eq } from "drizzle-orm";
import { cafes, levels } from "../../../db/schema";
import type { Db } from "../../db";
import type { Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { parseInput, t } from "../validation";
import { requireMenuCafe } from "./structures";
import type { CafeMenuSettings } from "../../shared/menu/types";
import { BOARD_LANGUAGES } from "../../shared/menu/types";
export type { BoardLanguage, CafeMenuSettings } from "../../shared/menu/types";

/** The levels, in their order, for the settings' picker. */
export function levelOptions(db: Db): { id: number; name: string }[] {
  return db
    .select({ id: levels.id, name: levels.name })
    .from(levels)
    .orderBy(asc(levels.sortOrder), asc(levels.name))
    .all();
}

/** A cafe's menu settings; the caller checks the cafe lies in the scope (or passes a scope to have it checked). */
export function cafeMenuSettings(db: Db, cafeId: number, scope?: Scope): CafeMenuSettings {
  if (scope) requireMenuCafe(db, scope, cafeId);
  const row = db
    .select({ defaultLevelId: cafes.defaultLevelId, boardLanguage: cafes.boardLanguage })
    .from(cafes)
    .where(eq(cafes.id, cafeId))
    .get();
  const first = levelOptions(db)[0]?.id ?? null;
  return {
    cafeId,
    defaultLevelId: row?.defaultLevelId ?? null,
    effectiveLevelId: row?.defaultLevelId ?? first,
    boardLanguage: row?.boardLanguage ?? "es",
  };
}

export const CafeMenuSettingsInput = t.Object({
  default_level_id: t.Union([t.Integer({ minimum: 1 }), t.Null()]),
  board_language: t.Union(BOARD_LANGUAGES.map((l) => t.Literal(l))),
});

/** Saves a cafe's default level and board language; the cafe must lie in the actor's scope. Audited as the cafe's data. */
export function saveCafeMenuSettings(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: unknown,
  now = new Date(),
): CafeMenuSettings {
  requireMenuCafe(db, scope, cafeId);
  const data = parseInput(CafeMenuSettingsInput, input);
  if (data.default_level_id !== null && !levelOptions(db).some((l) => l.id === data.default_level_id))
    throw new ValidationFailed({ default_level_id: message("menu.settings.errors.level_missing") });
  const before = cafeMenuSettings(db, cafeId);
  if (before.defaultLevelId === data.default_level_id && before.boardLanguage === data.board_language) return before;
  db.transaction(
    (tx) => {
      tx.update(cafes)
        .set({ defaultLevelId: data.default_level_id, boardLanguage: data.board_language })
        .where(eq(cafes.id, cafeId))
        .run();
      recordAudit(
        tx,
        actor,
        {
          action: "cafe.menu_settings.updated",
          subjectType: "cafe",
          subjectId: cafeId,
          places: [{ cafeId }],
          before: { levelId: before.defaultLevelId, boardLanguage: before.boardLanguage },
          after: { levelId: data.default_level_id, boardLanguage: data.board_language },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return cafeMenuSettings(db, cafeId);
}
