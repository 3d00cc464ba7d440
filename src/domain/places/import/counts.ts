/**
 * What the plan does: its counts per kind, every change in the order it is written, and the preview with the
 * fingerprint that confirming checks again.
 */
import { Fingerprint } from "../../imports/engine";
import type { Planned } from "./sheets";
import type { Planner } from "./planner";
import {
  IMPORT_KINDS,
  MAX_LISTED_CHANGES,
  MAX_LISTED_PROBLEMS,
  type ChangedField,
  type ImportCounts,
  type ImportPreview,
  type PlannedChange,
  type Tally,
} from "./types";

export function count(planner: Planner): ImportCounts {
  const counts = Object.fromEntries(
    IMPORT_KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0 }]),
  ) as ImportCounts;
  const tally = (t: Tally, isNew: boolean, changed: boolean) =>
    isNew ? t.created++ : changed ? t.updated++ : t.unchanged++;
  for (const s of planner.services.values()) if (s.named) tally(counts.services, s.id === null, s.changed);
  for (const mine of planner.mines.values()) {
    if (mine.at) tally(counts.mines, mine.id === null, mine.added.size > 0);
    for (const unit of mine.units.values()) {
      if (unit.at) tally(counts.units, unit.id === null, unit.added.size > 0);
      for (const cafe of unit.cafes.values()) {
        if (cafe.at) tally(counts.cafes, cafe.id === null, cafe.changed || cafe.added.size > 0);
        for (const change of cafe.priceChanges.values()) tally(counts.prices, change.old === null, true);
      }
    }
  }
  counts.prices.unchanged = planner.unchangedPrices;
  return counts;
}

/**
 * Every record the plan creates or updates, in the order it is written, each with the ids it touches (null for a
 * new record): what the preview lists, and what its fingerprint covers.
 */
function changesOf(planner: Planner): { change: PlannedChange; ids: (number | null)[] }[] {
  const out: { change: PlannedChange; ids: (number | null)[] }[] = [];
  const sorted = (codes: Set<string>) => [...codes].sort();
  for (const s of planner.services.values()) {
    if (!s.named || (s.id !== null && !s.changed)) continue;
    const now = { name: s.name, type: s.type, description: s.description, active: s.active };
    const fields = (["name", "type", "description", "active"] as const)
      .filter((f) => s.id === null || s.before![f] !== now[f])
      .map((f) => ({ field: f, before: s.id === null ? null : s.before![f], after: now[f] }));
    out.push({
      change: { kind: "service", action: s.id === null ? "created" : "updated", path: [s.code, s.name], fields },
      ids: [s.id],
    });
  }
  for (const mine of planner.mines.values()) {
    if (mine.id === null || mine.added.size > 0)
      out.push({
        change: {
          kind: "mine",
          action: mine.id === null ? "created" : "updated",
          path: [mine.name],
          added: sorted(mine.added),
        },
        ids: [mine.id],
      });
    for (const unit of mine.units.values()) {
      if (unit.id === null || unit.added.size > 0)
        out.push({
          change: {
            kind: "unit",
            action: unit.id === null ? "created" : "updated",
            path: [mine.name, unit.name],
            added: sorted(unit.added),
          },
          ids: [mine.id, unit.id],
        });
      for (const cafe of unit.cafes.values()) {
        const path = [mine.name, unit.name, cafe.name];
        const business = (id: number | null) =>
          id === null ? null : (planner.businessesById.get(id)?.name ?? String(id));
        if (cafe.id === null || cafe.changed || cafe.added.size > 0) {
          const fields: ChangedField[] = [];
          const before = cafe.before ?? { businessId: cafe.businessId, timeZone: cafe.timeZone };
          if (cafe.id === null || before.businessId !== cafe.businessId)
            fields.push({
              field: "business",
              before: cafe.id === null ? null : business(before.businessId),
              after: business(cafe.businessId),
            });
          if (cafe.id === null || before.timeZone !== cafe.timeZone)
            fields.push({ field: "timeZone", before: cafe.id === null ? null : before.timeZone, after: cafe.timeZone });
          out.push({
            change: {
              kind: "cafe",
              action: cafe.id === null ? "created" : "updated",
              path,
              added: sorted(cafe.added),
              fields,
            },
            ids: [mine.id, unit.id, cafe.id, cafe.businessId, before.businessId],
          });
        }
        for (const [code, c] of cafe.priceChanges)
          out.push({
            change: {
              kind: "price",
              action: c.old === null ? "created" : "updated",
              path: [...path, code],
              fields: [{ field: "price", before: c.old, after: c.next }],
            },
            ids: [cafe.id],
          });
      }
    }
  }
  return out;
}

export function preview(planned: Planned): ImportPreview {
  const { planner, examples } = planned;
  const counts = count(planner);
  const changes = changesOf(planner);
  // The fingerprint covers every write with the ids and values it starts from, and the counts the preview shows.
  const fingerprint = new Fingerprint();
  fingerprint.add(counts);
  for (const c of changes) fingerprint.add([c.change, c.ids]);
  const plan = fingerprint.digest();
  return {
    counts,
    changes: changes.slice(0, MAX_LISTED_CHANGES).map((c) => c.change),
    moreChanges: Math.max(0, changes.length - MAX_LISTED_CHANGES),
    examples: examples.slice(0, MAX_LISTED_PROBLEMS),
    moreExamples: Math.max(0, examples.length - MAX_LISTED_PROBLEMS),
    problems: planner.problems.slice(0, MAX_LISTED_PROBLEMS),
    moreProblems: Math.max(0, planner.problems.length - MAX_LISTED_PROBLEMS),
    plan,
  };
}
