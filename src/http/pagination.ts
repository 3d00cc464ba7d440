/** Reading list parameters (page, search, sort) from the query string, and the page of results sent to a table. */
import type { ListResult, SortDirection, SortRequest } from "../domain/search";
import type { Input } from "./body";

export interface ListParams {
  page: number;
  perPage: number;
  search: string;
}

export interface Paginated<T> {
  data: T[];
  total: number;
  page: number;
  perPage: number;
  lastPage: number;
}

/** The page (a positive integer, else 1), page size and search (at most 100 characters) of a list, under `prefix`. */
export function listParams(query: Input, prefix = "", perPage = 15): ListParams {
  const pageRaw = Number(query[`${prefix}page`]);
  const search = query[`${prefix}search`];
  return {
    page: Number.isInteger(pageRaw) && pageRaw > 0 && pageRaw < 100000 ? pageRaw : 1,
    perPage,
    search: typeof search === "string" ? search.slice(0, 100) : "",
  };
}

/** The sort a list was asked for (`sort`, `direction` under `prefix`); the domain's sortOrder checks the name. */
export function sortParams(query: Input, prefix = ""): Required<SortRequest> {
  const sort = query[`${prefix}sort`];
  const direction: SortDirection = query[`${prefix}direction`] === "desc" ? "desc" : "asc";
  return { sort: typeof sort === "string" && sort.length <= 50 ? sort : null, direction };
}

/** The page object a table shows: the page the domain really read (the last one when asked past the end). */
export function paginated<T>(result: ListResult<T>, params: { perPage: number }): Paginated<T> {
  return {
    data: result.rows,
    total: result.total,
    page: result.page,
    perPage: params.perPage,
    lastPage: Math.max(1, Math.ceil(result.total / params.perPage)),
  };
}

/** A positive integer query parameter, or undefined. */
export function idParam(query: Input, name: string): number | undefined {
  const value = Number(query[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
