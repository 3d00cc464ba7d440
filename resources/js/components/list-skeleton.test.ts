import { describe, expect, test } from "bun:test";
import { foldedPage } from "./list-skeleton";

const page = (rows: number, over: Record<string, unknown> = {}) => ({
  data: Array.from({ length: rows }, (_, i) => ({ id: i + 1 })),
  total: 40,
  page: 1,
  perPage: 15,
  lastPage: 3,
  ...over,
});
const rows = (p: { data: unknown[] }) => p.data.length;

describe("a list cut at the fold", () => {
  test("the first rows with the rest on its way, then the whole page", () => {
    const head = page(8, { cut: true as const });
    expect(foldedPage(head, undefined, rows)).toEqual({ page: head, pending: true, missing: 7 });
    const full = page(15);
    expect(foldedPage(head, full, rows)).toEqual({ page: full, pending: false, missing: 0 });
    // The last page holds only what is left: 40 − 2 × 15 = 10, 8 of them shown.
    expect(foldedPage(page(8, { cut: true, page: 3 }), undefined, rows).missing).toBe(2);
  });

  test("a later visit's whole page wins over a first load's whole page that arrives after it", () => {
    const searched = page(3, { total: 3, lastPage: 1 });
    const stale = page(15);
    expect(foldedPage(searched, stale, rows)).toEqual({ page: searched, pending: false, missing: 0 });
    expect(foldedPage(null, stale, rows).page).toBeNull();
  });
});
