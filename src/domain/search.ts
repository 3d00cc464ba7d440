/**
 * Lists on the server, one helper each: searching (a LIKE over case- and accent-folded text, the user's % and _
 * taken literally), choosing the page (past the end means the last page) and sorting by an allowed column.
 * Scope conditions stay with their area (areaScopeCondition, headquartersScopeCondition, reachableParents...).
 */
import { asc, desc, sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** The SQL function, registered on every connection by openDatabase, that folds text the way foldText does. */
export const FOLD_FUNCTION = "unaccent_lower";

/** Lower case without accents ("Huamán" → "huaman", "ÑUÑOA" → "nunoa"): the form searches compare. */
export function foldText(text: string): string {
  // Plain ASCII (most codes, e-mails and numbers) has no accents to strip.
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

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
 * The condition "one of `columns` contains `search`", ignoring case and accents, with % and _ literal; undefined
 * (no condition) when the search is blank.
 */
export function searchCondition(search: string | null | undefined, columns: SQLWrapper[]): SQL | undefined {
  const pattern = searchPattern(search);
  if (pattern === null) return undefined;
  return sql`(${sql.join(
    columns.map((column) => sql`${sql.raw(FOLD_FUNCTION)}(${column}) LIKE ${pattern} ESCAPE '\\'`),
    sql` OR `,
  )})`;
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

/** One page of a list (every row when no page was asked for), its total and the page it really is. */
export interface ListResult<T> {
  rows: T[];
  total: number;
  page: number;
}

/** The page to read of `total` rows: the one asked for, or the last one when it lies past the end (page 1 when empty). */
export function pageWindow(total: number, request: PageRequest): PageWindow {
  const lastPage = Math.max(1, Math.ceil(total / request.perPage));
  const page = Math.min(Math.max(1, Math.floor(request.page)), lastPage);
  return { page, limit: request.perPage, offset: (page - 1) * request.perPage };
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
