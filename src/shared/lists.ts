/** A page of a list. */

/** One page of a list (every row when no page was asked for), its total and the page it really is. */
export interface ListResult<T> {
  rows: T[];
  total: number;
  page: number;
}
