/**
 * A long list cut at the fold on a full load (src/http/pagination.ts, `listAtTheFold`): the page's first rows come
 * with the HTML, the whole page (`…Full`) right after. `foldedPage` picks what to show and whether the rest is on its
 * way; `ListSkeleton` holds the place of the rows still coming, so the page does not jump when they arrive, with a
 * busy status for screen readers.
 *
 *   const offers = foldedPage(props.offers, props.offersFull);
 *   <OfferGroups page={offers.page} … />
 *   {offers.pending && <ListSkeleton label={t("food.loading")} rows={offers.missing} />}
 */

/** What to show of a list cut at the fold: the whole page once it is here, and how many rows are still coming. */
export function foldedPage<P extends { cut?: true; perPage: number; total: number; page: number }>(
  head: P | null | undefined,
  full: P | null | undefined,
  rowsOf: (page: P) => number,
): { page: P | null; pending: boolean; missing: number } {
  if (!head) return { page: null, pending: false, missing: 0 };
  // A page that is not cut is the whole page of a later visit (a search, another page): a whole page of the first
  // load that arrives after it is stale and is not shown.
  if (!head.cut) return { page: head, pending: false, missing: 0 };
  if (full) return { page: full, pending: false, missing: 0 };
  const onPage = Math.min(head.perPage, head.total - (head.page - 1) * head.perPage);
  return { page: head, pending: true, missing: Math.max(1, onPage - rowsOf(head)) };
}

export function ListSkeleton({ label, rows = 8 }: { label: string; rows?: number }) {
  return (
    <div className="space-y-2" aria-busy="true" data-testid="list-loading" data-deferred-placeholder>
      <p role="status" className="sr-only">
        {label}
      </p>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-10 animate-pulse rounded bg-muted" aria-hidden="true" />
      ))}
    </div>
  );
}
