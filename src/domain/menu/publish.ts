/**
 * Publishing: a range of a cafe's meal schedule becomes the menu its board shows. Each day's draft slots are copied
 * to the published slots, and the day remembers which version of its draft was published and when. A day whose
 * published version is already its current one is left as it is (unchanged); a day with nothing planned and nothing
 * published is empty; a day whose draft was emptied after it was published is published empty (the board clears
 * it). One audit entry per publishing, about the cafe; then `MenuPublished` with the dates that changed, which the
 * boards of the cafe follow live (src/realtime/subscribers.ts).
 */
import { and, between, eq, inArray } from "drizzle-orm";
import { cafes, menuDays, menuSlots, publishedMenuSlots } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import { NO_EVENTS, type Publisher } from "../events";
import { isCalendarDate } from "../../shared/calendar";
import { datesBetween } from "../../shared/calendar";

/** The longest range published at once, in days (two months). */
export const MAX_PUBLISH_DAYS = 62;

export interface PublishResult {
  cafeId: number;
  from: string;
  to: string;
  /** Days whose draft was copied to the board (a day emptied since its last publishing included). */
  published: string[];
  /** Days whose board already showed their current draft. */
  unchanged: string[];
  /** Days with nothing planned and nothing published. */
  empty: string[];
}

/** Checks a range: two calendar dates, in order, at most MAX_PUBLISH_DAYS long. */
export function checkRange(from: unknown, to: unknown): { from: string; to: string } {
  const errors: Record<string, ReturnType<typeof message>> = {};
  if (typeof from !== "string" || !isCalendarDate(from)) errors.from = message("menuBoard.publish.date_invalid");
  if (typeof to !== "string" || !isCalendarDate(to)) errors.to = message("menuBoard.publish.date_invalid");
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  const [a, b] = [from as string, to as string];
  if (b < a) throw new ValidationFailed({ to: message("menuBoard.publish.range_reversed") });
  if (datesBetween(a, b).length > MAX_PUBLISH_DAYS)
    throw new ValidationFailed({ to: message("menuBoard.publish.range_too_long", { max: MAX_PUBLISH_DAYS }) });
  return { from: a, to: b };
}

/**
 * Publishes the cafe's schedule from `from` to `to` (see the file's comment). `scope` (default: every cafe, for the
 * command line) must reach the cafe; `events` hears MenuPublished once the transaction committed, when a day changed.
 */
export function publishRange(
  db: Db,
  actor: Actor,
  cafeId: number,
  from: unknown,
  to: unknown,
  { scope, events = NO_EVENTS, now = new Date() }: { scope?: Scope; events?: Publisher; now?: Date } = {},
): PublishResult {
  const range = checkRange(from, to);
  const cafe = db.select({ id: cafes.id, name: cafes.name }).from(cafes).where(eq(cafes.id, cafeId)).get();
  if (!cafe || (scope && !reachesCafe(scope, cafe.id))) throw new NotFound();
  const result: PublishResult = { cafeId: cafe.id, ...range, published: [], unchanged: [], empty: [] };
  db.transaction((tx) => {
    const days = tx
      .select()
      .from(menuDays)
      .where(and(eq(menuDays.cafeId, cafe.id), between(menuDays.date, range.from, range.to)))
      .all();
    const dayIds = days.map((d) => d.id);
    const drafts = dayIds.length ? tx.select().from(menuSlots).where(inArray(menuSlots.dayId, dayIds)).all() : [];
    const shown = dayIds.length
      ? tx
          .select({ dayId: publishedMenuSlots.dayId })
          .from(publishedMenuSlots)
          .where(inArray(publishedMenuSlots.dayId, dayIds))
          .all()
      : [];
    const byDate = new Map(days.map((d) => [d.date, d]));
    for (const date of datesBetween(range.from, range.to)) {
      const day = byDate.get(date);
      const draft = day ? drafts.filter((s) => s.dayId === day.id) : [];
      const hasPublished = day ? shown.some((s) => s.dayId === day.id) : false;
      if (!day || (draft.length === 0 && !hasPublished)) {
        result.empty.push(date);
        continue;
      }
      if (day.publishedVersion === day.version) {
        result.unchanged.push(date);
        continue;
      }
      tx.delete(publishedMenuSlots).where(eq(publishedMenuSlots.dayId, day.id)).run();
      if (draft.length)
        tx.insert(publishedMenuSlots)
          .values(
            draft.map((s) => ({
              dayId: day.id,
              serviceId: s.serviceId,
              dishCategoryId: s.dishCategoryId,
              position: s.position,
              dishId: s.dishId,
            })),
          )
          .run();
      tx.update(menuDays).set({ publishedVersion: day.version, publishedAt: now }).where(eq(menuDays.id, day.id)).run();
      result.published.push(date);
    }
    // Publishing nothing new changes nothing: no entry.
    if (result.published.length === 0) return;
    recordAudit(
      tx,
      actor,
      {
        action: "menu.published",
        subjectType: "cafe",
        subjectId: cafe.id,
        places: [{ cafeId: cafe.id }],
        after: {
          from: range.from,
          to: range.to,
          published: result.published.length,
          unchanged: result.unchanged.length,
          empty: result.empty.length,
        },
      },
      now,
    );
  });
  if (result.published.length) events.publish({ name: "MenuPublished", cafeId: cafe.id, dates: result.published });
  return result;
}
