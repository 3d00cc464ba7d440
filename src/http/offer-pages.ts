/**
 * What the Ingredients and Providers pages share: each has an Offers tab (the offers grouped, by provider on one and
 * by city on the other, paged by offers) beside a tab of its own records, read from the same query string.
 */
import type { GroupPage, OfferFilter } from "../domain/food/offer-lists";
import type { RequestContext } from "./context";
import {
  groupedPageHead,
  idParam,
  listAtTheFold,
  listParams,
  paginated,
  sortParams,
  type ListParams,
} from "./pagination";

/**
 * The page's query: its tab (`offers`, or `other`), the page asked for (25 offers, or 15 of the other tab's rows), the
 * sort, and the offers' filters (search, provider, city).
 */
export function offerPageQuery<T extends string>(ctx: RequestContext, other: T) {
  const tab: "offers" | T = ctx.query.tab === other ? other : "offers";
  const filters: OfferFilter & { search: string } = {
    search: listParams(ctx.query).search,
    providerId: idParam(ctx.query, "provider"),
    cityId: idParam(ctx.query, "city"),
  };
  return {
    tab,
    params: listParams(ctx.query, "", tab === "offers" ? 25 : 15),
    sort: sortParams(ctx.query),
    filters,
  };
}

/** The Offers tab's list when it is open: a page of offer groups, cut at the fold on a full load (listAtTheFold). */
export function offerGroupsAtTheFold<G extends { offers: unknown[] }>(
  ctx: RequestContext,
  open: boolean,
  params: ListParams,
  read: () => GroupPage<G>,
) {
  return listAtTheFold(
    ctx,
    "offers",
    () => {
      if (!open) return null;
      const found = read();
      return {
        ...paginated({ rows: found.groups, total: found.total, page: found.page }, params),
        groups: found.groupCount,
      };
    },
    groupedPageHead,
  );
}
