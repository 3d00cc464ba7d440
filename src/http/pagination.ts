/** Reading list parameters (page, search) from the query string, and the page of results sent to a table. */
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

export function listParams(query: Input, prefix = "", perPage = 15): ListParams {
  const pageRaw = Number(query[`${prefix}page`]);
  const search = query[`${prefix}search`];
  return {
    page: Number.isInteger(pageRaw) && pageRaw > 0 && pageRaw < 100000 ? pageRaw : 1,
    perPage,
    search: typeof search === "string" ? search.slice(0, 100) : "",
  };
}

export function paginated<T>(result: { rows: T[]; total: number }, params: ListParams): Paginated<T> {
  return { data: result.rows, total: result.total, page: params.page, perPage: params.perPage, lastPage: Math.max(1, Math.ceil(result.total / params.perPage)) };
}

/** A positive integer query parameter, or undefined. */
export function idParam(query: Input, name: string): number | undefined {
  const value = Number(query[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
