/** Reading list parameters (page, search, sort) from the query string, and the page of results sent to a table. */
import type { ListResult, SortDirection, SortRequest } from "../domain/search";
import type { Input } from "./body";
import { HEADER } from "./page-protocol/page";
import { defer, type PropKind } from "./page-protocol/props";

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

/** Rows of a long list a first load carries: what a 1366×850 screen shows above the fold (seven offers) and one more. */
export const ROWS_ON_FIRST_LOAD = 8;

/** A page of a list as a first load sends it: `cut` when only its first rows are there (the rest follow). */
export type Cut<P> = P & { cut?: true };

/** The first `rows` rows of a page (cut), or the page itself when it has no more. */
export function pageHead<T>(page: Paginated<T>, rows: number): Cut<Paginated<T>> {
  return page.data.length > rows ? { ...page, data: page.data.slice(0, rows), cut: true } : page;
}

/** The first `rows` offers of a page of offer groups (its groups cut where the offers stop), or the page itself. */
export function groupedPageHead<G extends { offers: unknown[] }, P extends { data: G[] }>(
  page: P,
  rows: number,
): Cut<P> {
  let left = rows;
  const data: G[] = [];
  for (const group of page.data) {
    if (left <= 0) return { ...page, data, cut: true };
    if (group.offers.length > left) {
      data.push({ ...group, offers: group.offers.slice(0, left) });
      return { ...page, data, cut: true };
    }
    data.push(group);
    left -= group.offers.length;
  }
  return page;
}

/**
 * A long list's props, cut at the fold on a full load. `name` is the page of the list; on a full load it holds only
 * the first ROWS_ON_FIRST_LOAD rows (marked `cut`), server-rendered at once, and `${name}Full`, a deferred prop, brings
 * the whole page right after (the browser shows `${name}Full ?? ${name}`). A page-protocol visit (a search, a sort,
 * another page) sends the whole page as `name` in one answer. So the first HTML of a long page stays small without
 * making anyone wait for the rows they see first.
 *
 *   ...listAtTheFold(ctx, "offers", () => offersPage(), groupedPageHead),
 */
export function listAtTheFold<N extends string, P>(
  ctx: { isPageRequest: boolean; request: Request },
  name: N,
  read: () => P,
  head: (whole: NonNullable<P>, rows: number) => Cut<NonNullable<P>>,
): Record<N, P | Cut<NonNullable<P>> | (() => P)> & Partial<Record<`${N}Full`, PropKind<P>>> {
  type Folded = Record<N, P | Cut<NonNullable<P>> | (() => P)> & Partial<Record<`${N}Full`, PropKind<P>>>;
  const full = `${name}Full`;
  if (ctx.isPageRequest) {
    const asked = (ctx.request.headers.get(HEADER.partialData) ?? "").split(",").map((part) => part.trim());
    // The deferred reload asks for the whole page only; any other visit gets it as `name`, in one answer.
    return (asked.includes(full) ? { [full]: defer(read, "lists") } : { [name]: read }) as Folded;
  }
  const whole = read();
  if (whole === null || whole === undefined) return { [name]: whole } as Folded;
  const shown = head(whole, ROWS_ON_FIRST_LOAD);
  return (shown.cut ? { [name]: shown, [full]: defer(read, "lists") } : { [name]: shown }) as Folded;
}

/**
 * A prop of what lies below the fold (a tab not shown at first, a dialog's choices): sent on a page-protocol visit,
 * deferred on a full load, so the first HTML does not carry it and the browser asks for it right after.
 */
export function belowTheFold<T>(ctx: { isPageRequest: boolean }, value: () => T): PropKind<T> | (() => T) {
  return ctx.isPageRequest ? value : defer(value, "below");
}
