/**
 * Lists on the server, one helper each: searching (a LIKE over case- and accent-folded text, the user's % and _
 * taken literally), choosing the page (past the end means the last page), sorting by an allowed column, and limiting
 * to a list of ids (a scope). Scope conditions stay with their area (areaScopeCondition, reachableParents...).
 *
 * Hot lists are prepared once (`preparedQuery` in src/db.ts): their SQL takes every value as a placeholder — the
 * search pattern (`searchMatch`), the ids of a scope (`inIdList`), the page (`LIMIT` and `OFFSET`) — and `readList`
 * counts, chooses the page and reads it.
 */
import { asc, Column, desc, is, sql, type Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import { FOLDED_COPIES } from "../../db/schema/folded";
import { foldText } from "../shared/fold";
import type { ListResult } from "../shared/lists";
export type { ListResult } from "../shared/lists";

export { foldText };

/** The SQL function, registered on every connection by openDatabase, that folds text the way foldText does. */
export const FOLD_FUNCTION = "unaccent_lower";

/** The SQL function's body: foldText for text, NULL stays NULL, a number is folded as its digits. */
export function foldSqlValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return foldText(typeof value === "string" ? value : String(value));
}

/** A LIKE pattern (use it with ESCAPE '\\') that finds `search` anywhere, its % and _ taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The folded, escaped LIKE pattern of what the user typed (trimmed), or null when there is nothing to search. */
export function searchPattern(search: string | null | undefined): string | null {
  const trimmed = search?.trim();
  return trimmed ? likePattern(foldText(trimmed)) : null;
}

/**
 * `column` as searches compare it. A column's text that is all ASCII (its length in characters is its length in
 * bytes) is compared as it is — SQLite's LIKE ignores the case of ASCII letters and the pattern is folded, so that is
 * what folding would give — and only other text is folded, by the function openDatabase registers: a call into
 * JavaScript costs far more than SQLite's own length functions. Any other expression (a subquery, say) is folded
 * as it is, so it is evaluated once.
 */
function foldedColumn(column: SQLWrapper): SQL {
  const fold = sql`${sql.raw(FOLD_FUNCTION)}(${column})`;
  if (!is(column, Column)) return fold;
  return sql`(CASE WHEN length(${column}) = octet_length(${column}) THEN ${column} ELSE ${fold} END)`;
}

/** A searched column with its folded copy, given explicitly (a column of an aliased table, say). */
export interface WithFoldedCopy {
  column: SQLWrapper;
  folded: SQLWrapper;
}

/** What a search looks in: a column or expression, or a column with its folded copy. */
export type Searched = SQLWrapper | WithFoldedCopy;

/** The folded copy of each column that has one (db/schema/folded.ts). */
const foldedCopyOf = new Map<unknown, SQLWrapper>(FOLDED_COPIES.map(({ column, folded }) => [column, folded]));

/** What a search compares: the folded copy when the column has one and it is known, else the column folded. */
function compared(searched: Searched): SQL {
  if ("folded" in searched && "column" in searched)
    return sql`COALESCE(${searched.folded}, ${foldedColumn(searched.column)})`;
  const copy = foldedCopyOf.get(searched);
  return copy ? sql`COALESCE(${copy}, ${foldedColumn(searched)})` : foldedColumn(searched);
}

/** "One of `columns` contains `pattern`" (a folded, escaped LIKE pattern, as a value or a placeholder). */
function anyContains(columns: Searched[], pattern: unknown): SQL {
  return sql`(${sql.join(
    columns.map((column) => sql`${compared(column)} LIKE ${pattern} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}

/**
 * The condition "one of `columns` contains `search`", ignoring case and accents, with % and _ literal; undefined
 * (no condition) when the search is blank.
 */
export function searchCondition(search: string | null | undefined, columns: Searched[]): SQL | undefined {
  const pattern = searchPattern(search);
  if (pattern === null) return undefined;
  return anyContains(columns, pattern);
}

/**
 * A number bound to the placeholder `name` of a prepared statement, written `(? + 0)`, and text, written `(? || '')`.
 * SQLite reads the value bound to a bare `?` when it plans some statements (a `LIMIT ?`, a `LIKE ?` that could use
 * an index for its prefix, an equality next to an ORDER BY) and then plans the statement again each time it runs
 * with new values, which costs as much as preparing it; an expression of the value is only evaluated.
 */
export function boundNumber(name: string): SQL {
  return sql`(${sql.placeholder(name)} + 0)`;
}

export function boundText(name: string): SQL {
  return sql`(${sql.placeholder(name)} || '')`;
}

/**
 * The pattern of a prepared list's search, bound to the placeholder `search` (its value: `searchPattern(search)`).
 * Our patterns start with %, so no index could use them anyway.
 */
export const SEARCH = boundText("search");

/**
 * searchCondition for a prepared list: "one of `columns` contains the pattern bound to SEARCH". A list prepares
 * one statement with it and one without (no search), and binds `search: searchPattern(...)`.
 */
export function searchMatch(columns: Searched[]): SQL {
  return anyContains(columns, SEARCH);
}

/** Ids travelling as one value: a JSON array, kept per set (a scope's sets last until access changes). */
const idLists = new WeakMap<ReadonlySet<number>, string>();

/** The JSON array of `ids`, the value of an `inIdList` placeholder. */
export function idList(ids: ReadonlySet<number> | readonly number[]): string {
  if (Array.isArray(ids)) return JSON.stringify(ids);
  const set = ids as ReadonlySet<number>;
  let list = idLists.get(set);
  if (list === undefined) idLists.set(set, (list = JSON.stringify([...set])));
  return list;
}

/**
 * "`column` is one of the ids bound to the placeholder `name`" (their `idList`): one statement serves any number
 * of ids, none included (nothing matches).
 */
export function inIdList(column: SQLWrapper, name: string): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(name)}))`;
}

/** A page asked for: its number (from 1) and its size. */
export interface PageRequest {
  page: number;
  perPage: number;
}

/** The page actually shown, and the LIMIT and OFFSET that read it. */
export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** The page to read of `total` rows: the one asked for, or the last one when it lies past the end (page 1 when empty). */
export function pageWindow(total: number, request: PageRequest): PageWindow {
  const lastPage = Math.max(1, Math.ceil(total / request.perPage));
  const page = Math.min(Math.max(1, Math.floor(request.page)), lastPage);
  return { page, limit: request.perPage, offset: (page - 1) * request.perPage };
}

/**
 * The placeholders of a prepared list's page: `.limit(LIMIT).offset(OFFSET)`, bound by readList; boundNumber, as a
 * bare `LIMIT ?` would have the statement planned again on every run (a tenth of a millisecond for a list's
 * statement). drizzle's limit() and offset() are typed for a placeholder and print any SQL.
 */
export const LIMIT = boundNumber("limit") as unknown as Placeholder;
export const OFFSET = boundNumber("offset") as unknown as Placeholder;

/**
 * One page of a list, or every row: with a page, `count()` gives the total, pageWindow chooses the page (the last
 * one when asked past the end) and `read` reads it; without one, `read` reads every row (LIMIT -1 is no limit to
 * SQLite) and the total is how many there are. `read` binds `limit` and `offset` (LIMIT and OFFSET) to the window.
 */
export function readList<T>(
  page: PageRequest | null | undefined,
  count: () => number,
  read: (window: { limit: number; offset: number }) => T[],
): ListResult<T> {
  if (!page) {
    const rows = read({ limit: -1, offset: 0 });
    return { rows, total: rows.length, page: 1 };
  }
  const total = count();
  const shown = pageWindow(total, page);
  return { rows: read({ limit: shown.limit, offset: shown.offset }), total, page: shown.page };
}

export type SortDirection = "asc" | "desc";

/** A sort asked for by the user: a column name (checked against the list's allowed names) and a direction. */
export interface SortRequest {
  sort?: string | null;
  direction?: SortDirection;
}

/**
 * ORDER BY terms: the allowed column the user named, in their direction, then the list's default order (which
 * keeps pages stable); just the default order when the name is missing or not allowed.
 */
export function sortOrder(allowed: Record<string, SQLWrapper>, request: SortRequest, defaultOrder: SQL[]): SQL[] {
  const name = request.sort;
  if (!name || !Object.hasOwn(allowed, name)) return defaultOrder;
  const column = allowed[name];
  return [request.direction === "desc" ? desc(column) : asc(column), ...defaultOrder];
}
