/**
 * Folded copies: for a few searched columns whose text often carries accents (people's and companies' names, the
 * blacklist's reasons, property categories), a second column holds the text as searches compare it — lower case,
 * no accents, what foldText (src/domain/search.ts) gives — so a search compares stored text instead of calling the
 * folding function, a call into JavaScript, for every row.
 *
 * A copy is NULL when it is not known, and a search then folds the column itself (searchMatch and searchCondition
 * take the pair), so a copy is an optimisation, never the truth:
 * - the domain writes the copy with the text (`foldedCopy`);
 * - a row written without it (seeds, tests, another program) keeps NULL, and `fillFoldedCopies`, run by
 *   migrateDatabase on every start, fills it;
 * - a trigger per column (migration 0010) sets the copy back to NULL when the text changes without it, so a copy is
 *   never stale. A migration that rebuilds one of these tables must create its triggers again (db/folded.test.ts
 *   fails otherwise).
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { blacklist } from "./access";
import { dealerships, properties, subdealerships } from "./organisation";
import { diners } from "./sales";

/** Each searched column with its folded copy. */
export const FOLDED_COPIES: readonly { column: SQLiteColumn; folded: SQLiteColumn }[] = [
  { column: blacklist.name, folded: blacklist.nameFolded },
  { column: blacklist.reason, folded: blacklist.reasonFolded },
  { column: dealerships.name, folded: dealerships.nameFolded },
  { column: subdealerships.name, folded: subdealerships.nameFolded },
  { column: properties.name, folded: properties.nameFolded },
  { column: properties.category, folded: properties.categoryFolded },
  { column: diners.name, folded: diners.nameFolded },
];
