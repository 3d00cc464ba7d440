/** Table pieces shared by every list: a search box that asks the server, pagination, and cell styles. */
import { router } from "@inertiajs/react";
import { ChevronLeft, ChevronRight, Search } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useI18n } from "../hooks/use-i18n";
import { cn } from "../lib/utils";
import { inputClasses } from "./ui/field";

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  perPage: number;
  lastPage: number;
}

/** Replaces query parameters of the current URL and reloads the page's data (keeping scroll and state). */
export function visitWith(params: Record<string, string | number | null | undefined>, only?: string[]): void {
  const url = new URL(window.location.href);
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === "") url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  router.get(url.pathname + url.search, {}, { preserveState: true, preserveScroll: true, replace: true, only });
}

/** Searches on the server as the user types (after a short pause), back on the first page (`pageParam`). */
export function SearchBox({
  value,
  label,
  param = "search",
  pageParam = "page",
  only,
}: {
  value: string;
  label: string;
  param?: string;
  pageParam?: string;
  only?: string[];
}) {
  const [text, setText] = useState(value);
  // The last search this box asked for: a new `value` that is not its echo (a tab change, the back button) replaces the text.
  const sent = useRef(value);
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      visitWith({ [param]: text, [pageParam]: null }, only);
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <label className="relative block w-full max-w-md">
      <span className="sr-only">{label}</span>
      <Search
        className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <input
        type="search"
        className={cn(inputClasses, "pl-8")}
        placeholder={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </label>
  );
}

export function Pagination({ page, param = "page", only }: { page: Page<unknown>; param?: string; only?: string[] }) {
  const { t } = useI18n();
  return (
    <nav
      className="flex items-center justify-between gap-4 text-sm"
      aria-label={t("access.pagination.summary", { page: page.page, last: page.lastPage, total: page.total })}
    >
      <span className="text-muted-foreground">
        {t("access.pagination.summary", { page: page.page, last: page.lastPage, total: page.total })}
      </span>
      <div className="flex gap-2">
        <button
          type="button"
          className="inline-flex items-center gap-1 rounded-md border px-2 py-1 disabled:opacity-40"
          disabled={page.page <= 1}
          onClick={() => visitWith({ [param]: page.page - 1 }, only)}
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          {t("access.pagination.previous")}
        </button>
        <button
          type="button"
          className="inline-flex items-center gap-1 rounded-md border px-2 py-1 disabled:opacity-40"
          disabled={page.page >= page.lastPage}
          onClick={() => visitWith({ [param]: page.page + 1 }, only)}
        >
          {t("access.pagination.next")}
          <ChevronRight className="size-4" aria-hidden="true" />
        </button>
      </div>
    </nav>
  );
}

/**
 * A table with its header row; `empty` (the message shown instead of rows) is given when there is nothing to list.
 * On a narrow screen it scrolls sideways inside its box; with `actions` its last column (the row's buttons) stays
 * in view at the right edge while it does.
 */
export function Table({
  caption,
  headers,
  empty,
  actions = false,
  children,
}: {
  caption: string;
  headers: ReactNode[];
  empty?: string | null;
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    // `relative` keeps the visually hidden texts inside the scrolling box, so they cannot widen the page.
    <div className="relative overflow-x-auto rounded-xl border bg-card">
      <table
        className={cn(
          "w-full min-w-[36rem] text-left text-sm",
          actions &&
            "[&_tr>:last-child:not([colspan])]:sticky [&_tr>:last-child:not([colspan])]:right-0 [&_tr>:last-child:not([colspan])]:bg-card",
        )}
      >
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header, i) => (
              <th key={i} className={th}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty && (
            <tr>
              <td className={td} colSpan={headers.length}>
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  );
}

const th = "border-b px-3 py-2 font-medium text-muted-foreground";
export const td = "border-b px-3 py-2 align-top";
