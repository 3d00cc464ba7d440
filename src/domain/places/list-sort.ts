/**
 * The sort of a prepared list. A prepared list keeps one statement per shape (src/db.ts, `preparedQuery`), so the
 * sort is part of its shape: only a name the list allows and a direction become one, never what the browser sent,
 * and a list has at most (allowed names × 2 + 1) sorted variants.
 */
import type { SQL, SQLWrapper } from "drizzle-orm";
import { sortOrder, type SortDirection, type SortRequest } from "../search";

/** The sort a list runs: an allowed column name and its direction, or "" and "asc" for the list's default order. */
export type ListSort = readonly [sort: string, direction: SortDirection];

/** The default order: no column chosen. */
export const DEFAULT_SORT: ListSort = ["", "asc"];

/** The allowed part of `request`: its column when `allowed` has it, with its direction; else the default order. */
export function listSort(allowed: Record<string, SQLWrapper>, request: SortRequest | undefined): ListSort {
  const name = request?.sort;
  if (!name || !Object.hasOwn(allowed, name)) return DEFAULT_SORT;
  return [name, request?.direction === "desc" ? "desc" : "asc"];
}

/** The ORDER BY terms of a prepared list's shape: the chosen column, then the default order (which keeps pages stable). */
export function orderOf(allowed: Record<string, SQLWrapper>, [sort, direction]: ListSort, defaultOrder: SQL[]): SQL[] {
  return sortOrder(allowed, { sort: sort || null, direction }, defaultOrder);
}
