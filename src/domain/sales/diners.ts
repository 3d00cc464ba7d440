/**
 * Diners: the workers of the client companies who eat at the cafes. A diner has a document (unique), a name, a
 * phone, a subdealership (who pays their credit meals), a home cafe and a level, and may be deactivated. A diner
 * belongs to the scope of their home cafe: a limited person registers, edits, moves and deletes only diners whose
 * home cafe (before and after) lies in their scope. A diner with sales is never deleted, only deactivated.
 *
 * Reads go through visibleDiners, never the table: a diner an unfinished import is writing is nobody's yet. Registering
 * someone by hand with a document such an import holds stops that import (stopImportHolding).
 *
 * Search (the point of sale's one input): a document is looked up across every cafe, since a diner of another cafe
 * is sold to as an other-unit diner; a name is searched (accents ignored) among the diners of the person's cafes.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import {
  blacklist,
  cafes,
  dealerships,
  diners,
  levels,
  mines,
  sales,
  subdealerships,
  units,
  visibleDiners,
} from "../../../db/schema";
import { preparedQuery, type Db } from "../../db";
import type { Scope } from "../access/scope";
import { reachesCafe, scopeValues } from "../access/scope";
import { recordAudit, unionOfPlaces, type Actor } from "../audit";
import {
  DOCUMENT_TYPES,
  normalizeDocumentNumber,
  type Document,
  type DocumentSettings,
  type DocumentType,
} from "../../shared/documents";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { foldText } from "../../shared/fold";
import { inIdList, searchMatch, searchPattern } from "../search";
import { looksLikeDocument } from "../../shared/sales/scan";
import { documentFields, parseWithDocument, t } from "../validation";
import { stopImportHolding } from "./diner-import/ledger";
import type { DinerView, LevelOption } from "../../shared/sales/types";
export type { DinerView, LevelOption } from "../../shared/sales/types";

/** The most matches one search returns: the typeahead's list. */
export const SEARCH_LIMIT = 8;

const v = visibleDiners;
const dinerColumns = {
  id: v.id,
  name: v.name,
  documentType: v.documentType,
  documentNumber: v.documentNumber,
  phone: v.phone,
  active: v.active,
  cafeId: v.cafeId,
  cafeName: cafes.name,
  cafePath: sql<string>`${mines.name} || ' › ' || ${units.name} || ' › ' || ${cafes.name}`,
  subdealershipId: v.subdealershipId,
  subdealershipName: subdealerships.name,
  dealershipName: dealerships.name,
  levelId: v.levelId,
  levelName: levels.name,
  barredReason: blacklist.reason,
};

function dinerQuery(db: Db) {
  return db
    .select(dinerColumns)
    .from(v)
    .innerJoin(cafes, eq(cafes.id, v.cafeId))
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .innerJoin(subdealerships, eq(subdealerships.id, v.subdealershipId))
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .leftJoin(levels, eq(levels.id, v.levelId))
    .leftJoin(
      blacklist,
      and(eq(blacklist.documentType, v.documentType), eq(blacklist.documentNumber, v.documentNumber)),
    );
}

// The point of sale asks these for every diner served: prepared once per connection.
const byDocumentNumber = preparedQuery((db: Db) =>
  dinerQuery(db)
    // Every type named, so the unique index on (type, number) finds it: one look per type.
    .where(and(inArray(v.documentType, [...DOCUMENT_TYPES]), eq(v.documentNumber, sql.placeholder("number"))))
    .orderBy(asc(v.documentType))
    .limit(SEARCH_LIMIT)
    .prepare(),
);
const byNameEverywhere = preparedQuery((db: Db) =>
  dinerQuery(db)
    .where(searchMatch([v.name]))
    .orderBy(asc(v.name), asc(v.id))
    .limit(SEARCH_LIMIT)
    .prepare(),
);
const byNameInCafes = preparedQuery((db: Db) =>
  dinerQuery(db)
    .where(and(inIdList(v.cafeId, "cafes"), searchMatch([v.name])))
    .orderBy(asc(v.name), asc(v.id))
    .limit(SEARCH_LIMIT)
    .prepare(),
);

/** Whether what was typed reads as a document number (scan.ts, shared with the browser). */
export { looksLikeDocument };

/**
 * The point of sale's search: a document number (a scanner's digits) finds the diner with that number in any cafe;
 * anything else searches names, accents ignored, among the diners of the person's cafes. At most SEARCH_LIMIT.
 */
export function searchDiners(db: Db, scope: Scope, query: string): DinerView[] {
  const text = query.trim().slice(0, 100);
  if (text === "") return [];
  if (looksLikeDocument(text)) {
    const found = byDocumentNumber(db).all({ number: normalizeDocumentNumber(text) });
    if (found.length) return found as DinerView[];
  }
  if (foldText(text).length < 2) return [];
  const search = searchPattern(text);
  if (scope.all) return byNameEverywhere(db).all({ search }) as DinerView[];
  return byNameInCafes(db).all({ search, cafes: scopeValues(scope).cafes }) as DinerView[];
}

/** The diner with this document, in any cafe, or null. */
export function findDinerByDocument(db: Db, document: Document): DinerView | null {
  return (
    (dinerQuery(db)
      .where(and(eq(v.documentType, document.type), eq(v.documentNumber, document.number)))
      .get() as DinerView | undefined) ?? null
  );
}

/** One diner by id, when their home cafe lies in the scope (NotFound otherwise). */
export function getDiner(db: Db, scope: Scope, id: number): DinerView {
  const diner = dinerQuery(db).where(eq(v.id, id)).get() as DinerView | undefined;
  if (!diner || !reachesCafe(scope, diner.cafeId)) throw new NotFound();
  return diner;
}

/** The levels, in their order. */
export function listLevels(db: Db): LevelOption[] {
  return db
    .select({ id: levels.id, name: levels.name })
    .from(levels)
    .orderBy(asc(levels.sortOrder), asc(levels.name))
    .all();
}

export const DinerInput = t.Object({
  name: t.String({ minLength: 2, maxLength: 120 }),
  ...documentFields({ optional: false }),
  phone: t.Optional(t.String({ maxLength: 30, pattern: "^[0-9+() -]*$", messageKey: "diners.phone_invalid" })),
  subdealership_id: t.Integer({ minimum: 1, messageKey: "diners.subdealership_required" }),
  cafe_id: t.Integer({ minimum: 1, messageKey: "diners.cafe_required" }),
  level_id: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  active: t.Optional(t.Boolean()),
});

interface DinerValues {
  name: string;
  documentType: DocumentType;
  documentNumber: string;
  phone: string;
  subdealershipId: number;
  cafeId: number;
  levelId: number | null;
  active: boolean;
}

/** Checks a diner's input against the database and the scope; every problem at once. */
function checkDiner(
  db: Db,
  scope: Scope,
  input: unknown,
  settings: DocumentSettings,
  current: { id: number; active: boolean } | null,
): DinerValues {
  const { data, document } = parseWithDocument(DinerInput, input, settings);
  const errors: Record<string, Message> = {};
  const cafe = db.select({ id: cafes.id }).from(cafes).where(eq(cafes.id, data.cafe_id)).get();
  if (!cafe || !reachesCafe(scope, data.cafe_id)) errors.cafe_id = message("diners.cafe_outside_scope");
  if (
    !db.select({ id: subdealerships.id }).from(subdealerships).where(eq(subdealerships.id, data.subdealership_id)).get()
  )
    errors.subdealership_id = message("diners.subdealership_unknown");
  const levelId = data.level_id ?? null;
  if (levelId !== null && !db.select({ id: levels.id }).from(levels).where(eq(levels.id, levelId)).get())
    errors.level_id = message("diners.level_unknown");
  const taken = db
    .select({ id: v.id, name: v.name })
    .from(v)
    .where(and(eq(v.documentType, document!.type), eq(v.documentNumber, document!.number)))
    .get();
  if (taken && taken.id !== current?.id)
    errors.document_number = message("diners.document_taken", { name: taken.name });
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return {
    name: data.name,
    documentType: document!.type,
    documentNumber: document!.number,
    phone: data.phone ?? "",
    subdealershipId: data.subdealership_id,
    cafeId: data.cafe_id,
    levelId,
    active: data.active ?? current?.active ?? true,
  };
}

/** Whether the database refused a row for the diners' document index (a registration racing another). */
function isDocumentClash(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: diners\.document/.test(error.message);
}

/**
 * Frees the document for a person registered by hand, in the caller's transaction: when an unfinished import holds
 * it (a diner not visible yet), that import is stopped, saying who was registered with it, and undoes what it wrote.
 */
function takeDocumentFromImport(db: Db, values: DinerValues): void {
  stopImportHolding(
    db.$client,
    { type: values.documentType, number: values.documentNumber },
    message("diners.import_stopped_registered", {
      name: values.name,
      document: `${values.documentType.toUpperCase()} ${values.documentNumber}`,
    }),
  );
}

/** Registers a diner whose home cafe lies in the actor's scope. */
export function createDiner(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  settings: DocumentSettings,
  now = new Date(),
): DinerView {
  const values = checkDiner(db, scope, input, settings, null);
  let id: number;
  try {
    id = db.transaction(
      (tx) => {
        takeDocumentFromImport(db, values);
        const row = tx
          .insert(diners)
          .values({ ...values, nameFolded: foldText(values.name), createdAt: now, updatedAt: now })
          .returning({ id: diners.id })
          .get();
        recordAudit(
          tx,
          actor,
          {
            action: "diner.created",
            subjectType: "diner",
            subjectId: row.id,
            places: [{ cafeId: values.cafeId }],
            after: values,
          },
          now,
        );
        return row.id;
        // Immediate: its first statement reads (a document an import holds), and a read cannot become a write once
        // another process has written.
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    if (isDocumentClash(error))
      throw new ValidationFailed({ document_number: message("diners.document_taken", { name: values.name }) });
    throw error;
  }
  return getDiner(db, scope, id);
}

/** Edits a diner; both the home cafe before and after must lie in the actor's scope. */
export function updateDiner(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
  settings: DocumentSettings,
  now = new Date(),
): DinerView {
  const before = db.select().from(v).where(eq(v.id, id)).get();
  if (!before || !reachesCafe(scope, before.cafeId)) throw new NotFound();
  const values = checkDiner(db, scope, input, settings, before);
  const changed = Object.fromEntries(
    Object.entries(values).filter(([key, value]) => before[key as keyof DinerValues] !== value),
  );
  if (Object.keys(changed).length === 0) return getDiner(db, scope, id);
  try {
    db.transaction(
      (tx) => {
        if (changed.documentType !== undefined || changed.documentNumber !== undefined)
          takeDocumentFromImport(db, values);
        tx.update(diners)
          .set({ ...values, nameFolded: foldText(values.name), updatedAt: now })
          .where(eq(diners.id, id))
          .run();
        recordAudit(
          tx,
          actor,
          {
            action: "diner.updated",
            subjectType: "diner",
            subjectId: id,
            places: unionOfPlaces([{ cafeId: before.cafeId }], [{ cafeId: values.cafeId }]),
            before: Object.fromEntries(Object.keys(changed).map((key) => [key, before[key as keyof DinerValues]])),
            after: changed,
          },
          now,
        );
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    if (isDocumentClash(error))
      throw new ValidationFailed({ document_number: message("diners.document_taken", { name: values.name }) });
    throw error;
  }
  return getDiner(db, scope, id);
}

/** Deletes a diner who was never sold anything; a diner with sales is refused, with the advice to deactivate. */
export function deleteDiner(db: Db, actor: Actor, scope: Scope, id: number, now = new Date()): { name: string } {
  const diner = db.select().from(v).where(eq(v.id, id)).get();
  if (!diner || !reachesCafe(scope, diner.cafeId)) throw new NotFound();
  const sold = db.select({ id: sales.id }).from(sales).where(eq(sales.dinerId, id)).limit(1).get();
  if (sold) throw new Conflict(message("diners.has_sales", { name: diner.name }));
  db.transaction((tx) => {
    tx.delete(diners).where(eq(diners.id, id)).run();
    recordAudit(
      tx,
      actor,
      {
        action: "diner.deleted",
        subjectType: "diner",
        subjectId: id,
        places: [{ cafeId: diner.cafeId }],
        before: {
          name: diner.name,
          documentType: diner.documentType,
          documentNumber: diner.documentNumber,
          cafeId: diner.cafeId,
          subdealershipId: diner.subdealershipId,
        },
      },
      now,
    );
  });
  return { name: diner.name };
}
