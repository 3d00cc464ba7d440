/**
 * The shared table of every list, on TanStack Table: the server sorts and pages (the query string's `page`, `sort`
 * and `direction`, under a prefix when a page holds several lists), the user chooses the columns shown (kept in
 * the browser), and on a phone (< 640 px) each row is a card of "label: value" lines with its buttons at the
 * bottom, so nothing scrolls sideways. At desktop widths a column may truncate its text, with the whole text on
 * hover (`title`).
 *
 *     <DataTable caption="Sedes" page={headquarters} rowKey={(hq) => hq.id} empty="No hay sedes."
 *       columns={[{ id: "name", header: "Nombre", cell: (hq) => hq.name, primary: true }, …]} />
 *
 * `SearchBox`, `Pagination` and the older `Table` (rows written by hand as <tr>) are here too.
 */
// The table's parts carry their roles explicitly: on a phone they are laid out as blocks (cards), and some
// browsers drop a table's semantics when its rows and cells are not displayed as table parts.
/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */
import { router } from "@inertiajs/react";
import {
  columnVisibilityFeature,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type PaginationState,
  type RowData,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Columns3, Search } from "lucide-react";
import {
  Children,
  cloneElement,
  Fragment,
  isValidElement,
  useEffect,
  useMemo,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactElement,
  type ReactNode,
} from "react";
import { useI18n } from "../hooks/use-i18n";
import { cn } from "../lib/utils";
import { Button } from "./ui/button";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "./ui/dropdown-menu";
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
    <label className="relative block min-w-48 flex-1 sm:max-w-md">
      <span className="sr-only">{label}</span>
      <Search
        className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <input
        type="search"
        className={cn(inputClasses, "pl-8")}
        placeholder={label}
        title={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </label>
  );
}

/** The page summary and the previous and next buttons of a paged list (`param`: its page's query parameter). */
export function Pagination({
  page,
  param = "page",
  only,
  label,
  onPage,
}: {
  page: Page<unknown>;
  param?: string;
  only?: string[];
  /** What is paged, for the navigation's name ("Páginas de Sedes"). */
  label?: string;
  /** Goes to a page; by default, the current URL with `param` set. */
  onPage?: (page: number) => void;
}) {
  const { t } = useI18n();
  if (page.total === 0) return null;
  const go = onPage ?? ((number: number) => visitWith({ [param]: number }, only));
  const summary = t("ui.pagination.summary", { page: page.page, last: page.lastPage, total: page.total });
  return (
    <nav
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm"
      aria-label={label ? t("ui.pagination.label", { table: label }) : summary}
    >
      <span className="text-muted-foreground" aria-live="polite">
        {summary}
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page.page <= 1} onClick={() => go(page.page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          {t("ui.pagination.previous")}
        </Button>
        <Button variant="outline" size="sm" disabled={page.page >= page.lastPage} onClick={() => go(page.page + 1)}>
          {t("ui.pagination.next")}
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

/** One column of a DataTable. */
export interface DataColumn<T> {
  /** Unique in the table; the `sort` value the server receives when the column is sortable. */
  id: string;
  /** The column's name: its header, its label on a phone's card, its entry in the columns menu. */
  header: string;
  /** The header for screen readers only (a row's buttons, a disclosure). */
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  /** The whole text of the cell: with it, the cell keeps to one line at desktop widths, cut with "…", and shows it on hover. */
  title?: (row: T) => string | null | undefined;
  /** The cut cell's widest width at desktop widths (a max-width class; 16rem by default). */
  maxWidth?: string;
  /** Classes of the cell and the header (alignment, width, font). */
  className?: string;
  /** The server sorts by this column (its `id`). */
  sortable?: boolean;
  /** The user may hide it (true, except for the primary and the actions column). */
  hideable?: boolean;
  /** Hidden until the user shows it. */
  hidden?: boolean;
  /** The row's name: the card's title on a phone (no label). */
  primary?: boolean;
  /** The row's buttons: kept in view at the right edge on a desktop, at the card's foot on a phone. */
  actions?: boolean;
}

export interface SortState {
  sort: string | null;
  direction: "asc" | "desc";
}

const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature, rowPaginationFeature });

// Card layout below 640 px: the table's parts become blocks, each row a card, each cell a "label: value" line.
const cardTable = "max-sm:block";
const cardBody = "max-sm:block max-sm:space-y-3";
const cardRow =
  "max-sm:relative max-sm:block max-sm:rounded-xl max-sm:border max-sm:bg-card max-sm:p-3 max-sm:shadow-xs sm:[&:last-child>td]:border-b-0";
const cell = "border-b px-3 py-2 align-top";
const cardCell =
  "max-sm:grid max-sm:grid-cols-[minmax(6rem,35%)_minmax(0,1fr)] max-sm:items-baseline max-sm:[overflow-wrap:anywhere] max-sm:gap-x-3 max-sm:border-0 max-sm:px-0 max-sm:py-1 max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]";
const cardPrimary =
  "max-sm:block max-sm:pb-2 max-sm:pt-0 max-sm:text-base max-sm:font-semibold max-sm:before:content-none";
const cardActions =
  "max-sm:mt-2 max-sm:flex max-sm:justify-end max-sm:border-t max-sm:pt-2 max-sm:before:content-none sm:sticky sm:right-0 sm:bg-card sm:text-right sm:whitespace-nowrap";
const th = "border-b px-3 py-2 text-left font-medium text-muted-foreground whitespace-nowrap";

export function DataTable<T extends RowData>({
  caption,
  columns,
  page,
  rows,
  rowKey,
  empty,
  sort,
  sortParam = "sort",
  directionParam = "direction",
  pageParam = "page",
  only,
  storageKey,
  toolbar,
  rowProps,
  renderExpanded,
  pagination = true,
}: {
  /** The table's name (its caption, for screen readers). */
  caption: string;
  columns: DataColumn<T>[];
  /** A page of rows from the server (with the pagination under the table), or … */
  page?: Page<T>;
  /** … all the rows (no pagination). */
  rows?: T[];
  rowKey: (row: T) => string | number;
  /** The message instead of rows when there are none. */
  empty: string;
  /** The server's current sort (from the page's filters). */
  sort?: SortState;
  sortParam?: string;
  directionParam?: string;
  pageParam?: string;
  /** The props a sort or page change reloads (all by default). */
  only?: string[];
  /** Where the chosen columns are kept in this browser ("management.cafes"); without it they are not kept. */
  storageKey?: string;
  /** Search box and filters, shown above the table beside the columns menu. */
  toolbar?: ReactNode;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** A row's details under it (the whole width), or null. */
  renderExpanded?: (row: T) => ReactNode;
  pagination?: boolean;
}) {
  const { t } = useI18n();
  const data = page?.data ?? rows ?? NO_ROWS;

  // The definitions TanStack sees change only with the columns' ids and names; the cells read the latest props.
  const latest = useRef(columns);
  latest.current = columns;
  const signature = columns.map((c) => `${c.id}:${c.header}:${c.sortable ? 1 : 0}:${c.hideable ?? ""}`).join("|");
  const definitions = useMemo<ColumnDef<typeof features, T>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: () => null,
        enableSorting: column.sortable ?? false,
        enableHiding: column.hideable ?? !(column.primary || column.actions),
      })),
    [signature],
  );

  const initialVisibility = useMemo(
    () => Object.fromEntries(columns.filter((c) => c.hidden).map((c) => [c.id, false])) as ColumnVisibilityState,
    [signature],
  );
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(initialVisibility);
  // The browser's saved choice is read after hydration, so the server's markup and the first render agree.
  useEffect(() => {
    if (!storageKey) return;
    try {
      const saved = JSON.parse(localStorage.getItem(`mesa:columns:${storageKey}`) ?? "null");
      if (saved && typeof saved === "object") setColumnVisibility({ ...initialVisibility, ...saved });
    } catch {
      // A damaged entry is ignored.
    }
  }, [storageKey]);
  const changeVisibility = (updater: Updater<ColumnVisibilityState>) =>
    setColumnVisibility((current) => {
      const next = typeof updater === "function" ? updater(current) : updater;
      if (storageKey)
        try {
          localStorage.setItem(`mesa:columns:${storageKey}`, JSON.stringify(next));
        } catch {
          // Private windows may refuse; the choice lasts for this page.
        }
      return next;
    });

  const sorting: SortingState = sort?.sort ? [{ id: sort.sort, desc: sort.direction === "desc" }] : [];
  const paginationState: PaginationState = { pageIndex: (page?.page ?? 1) - 1, pageSize: page?.perPage ?? 15 };
  const table = useTable({
    features,
    columns: definitions,
    data,
    getRowId: (row: T) => String(rowKey(row)),
    state: { columnVisibility, sorting, pagination: paginationState },
    onColumnVisibilityChange: changeVisibility,
    manualSorting: true,
    // The server sorts: a first click asks for A→Z (TanStack would start descending for columns it cannot read).
    sortDescFirst: false,
    enableMultiSort: false,
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      visitWith(
        {
          [sortParam]: next[0]?.id ?? null,
          [directionParam]: next[0]?.desc ? "desc" : null,
          [pageParam]: null,
        },
        only,
      );
    },
    manualPagination: true,
    rowCount: page?.total ?? data.length,
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === "function" ? updater(paginationState) : updater;
      visitWith({ [pageParam]: next.pageIndex + 1 }, only);
    },
  });

  const byId = new Map(columns.map((c) => [c.id, c]));
  const visible = table.getVisibleLeafColumns();
  const hideable = table.getAllLeafColumns().filter((column) => column.getCanHide());

  return (
    <div className="space-y-3">
      {(toolbar || hideable.length > 0) && (
        <div className="flex flex-wrap items-center gap-2 sm:gap-3">
          {toolbar}
          {hideable.length > 0 && (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button
                  variant="outline"
                  className="ml-auto"
                  aria-label={t("ui.columns_label", { table: caption })}
                  title={t("ui.columns_label", { table: caption })}
                >
                  <Columns3 className="size-4" aria-hidden="true" />
                  <span className="hidden sm:inline">{t("ui.columns")}</span>
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel>{t("ui.columns")}</DropdownMenuLabel>
                {hideable.map((column) => (
                  <DropdownMenuCheckboxItem
                    key={column.id}
                    checked={column.getIsVisible()}
                    onCheckedChange={(checked) => column.toggleVisibility(!!checked)}
                    // The menu stays open while several columns are chosen.
                    onSelect={(event) => event.preventDefault()}
                  >
                    {byId.get(column.id)?.header}
                  </DropdownMenuCheckboxItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </div>
      )}
      <div className="relative sm:overflow-x-auto sm:rounded-xl sm:border sm:bg-card">
        <table role="table" className={cn("w-full text-left text-sm", cardTable)}>
          <caption className="sr-only">{caption}</caption>
          <thead role="rowgroup" className="max-sm:sr-only">
            {table.getHeaderGroups().map((group) => (
              <tr role="row" key={group.id}>
                {group.headers.map((header) => {
                  const spec = byId.get(header.column.id)!;
                  const sorted = header.column.getIsSorted();
                  const label = spec.headerHidden ? <span className="sr-only">{spec.header}</span> : spec.header;
                  return (
                    <th
                      role="columnheader"
                      key={header.id}
                      scope="col"
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      className={cn(th, spec.className, spec.actions && "sm:sticky sm:right-0 sm:bg-card")}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-foreground"
                          onClick={header.column.getToggleSortingHandler()}
                          title={t("ui.sort_by", { column: spec.header })}
                        >
                          {label}
                          {sorted === "asc" ? (
                            <ArrowUp className="size-3.5" aria-hidden="true" />
                          ) : sorted === "desc" ? (
                            <ArrowDown className="size-3.5" aria-hidden="true" />
                          ) : (
                            <ArrowUpDown className="size-3.5 opacity-50" aria-hidden="true" />
                          )}
                        </button>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody role="rowgroup" className={cardBody}>
            {data.length === 0 && (
              <tr role="row" className={cardRow}>
                <td
                  role="cell"
                  className={cn(cell, "border-b-0 text-muted-foreground max-sm:p-0")}
                  colSpan={visible.length}
                >
                  {empty}
                </td>
              </tr>
            )}
            {table.getRowModel().rows.map((row) => {
              const details = renderExpanded?.(row.original);
              return (
                <Fragment key={row.id}>
                  <tr role="row" className={cardRow} {...rowProps?.(row.original)}>
                    {row.getVisibleCells().map((c) => {
                      const spec = byId.get(c.column.id)!;
                      const title = spec.title?.(row.original) ?? undefined;
                      const content = spec.cell(row.original);
                      return (
                        <td
                          role="cell"
                          key={c.id}
                          data-label={spec.primary || spec.actions || spec.headerHidden ? undefined : spec.header}
                          className={cn(
                            cell,
                            cardCell,
                            spec.className,
                            spec.primary && cardPrimary,
                            spec.actions && cardActions,
                            spec.headerHidden && !spec.actions && "max-sm:block max-sm:before:content-none",
                            details && "sm:border-b-0",
                          )}
                        >
                          {title !== undefined ? (
                            <div className={cn("min-w-0 sm:truncate", spec.maxWidth ?? "sm:max-w-64")} title={title}>
                              {content}
                            </div>
                          ) : (
                            content
                          )}
                        </td>
                      );
                    })}
                  </tr>
                  {details && (
                    <tr role="row" className="max-sm:-mt-2 max-sm:block">
                      <td
                        role="cell"
                        className={cn(cell, "bg-muted/40 max-sm:block max-sm:rounded-b-xl")}
                        colSpan={visible.length}
                      >
                        {details}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {pagination && page && (
        <Pagination page={page} label={caption} onPage={(number) => table.setPageIndex(number - 1)} />
      )}
    </div>
  );
}

const NO_ROWS: never[] = [];

/**
 * A table written by hand, row by row (`<tr>` children), with its header row; `empty` (the message shown instead
 * of rows) is given when there is nothing to list. On a phone each row is a card like DataTable's: the first
 * column its title, the others "label: value" lines (labelled by the string headers), and with `actions` the last
 * column (the row's buttons) at its foot; on a desktop that column stays in view at the right edge.
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
  const labels = headers.map((h) => (typeof h === "string" ? h : undefined));
  return (
    <div className="relative sm:overflow-x-auto sm:rounded-xl sm:border sm:bg-card">
      <table role="table" className={cn("w-full text-left text-sm", cardTable)}>
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="max-sm:sr-only">
          <tr role="row">
            {headers.map((header, i) => (
              <th
                role="columnheader"
                key={i}
                scope="col"
                className={cn(th, actions && i === headers.length - 1 && "sm:sticky sm:right-0 sm:bg-card")}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className={cardBody}>
          {empty && (
            <tr role="row" className={cardRow}>
              <td
                role="cell"
                className={cn(cell, "border-b-0 text-muted-foreground max-sm:p-0")}
                colSpan={headers.length}
              >
                {empty}
              </td>
            </tr>
          )}
          {labelRows(children, labels, actions)}
        </tbody>
      </table>
    </div>
  );
}

type CellProps = { children?: ReactNode; className?: string; colSpan?: number; "data-label"?: string; role?: string };

/** Gives each hand-written row the card classes and each cell its column's label (`data-label`) and role. */
function labelRows(children: ReactNode, labels: (string | undefined)[], actions: boolean): ReactNode {
  return Children.map(children, (child) => {
    if (!isValidElement(child)) return child;
    const element = child as ReactElement<CellProps>;
    if (element.type === Fragment)
      return <Fragment key={element.key}>{labelRows(element.props.children, labels, actions)}</Fragment>;
    if (element.type !== "tr") return element;
    let index = 0;
    const cells = Children.map(element.props.children, (cellChild) => {
      if (!isValidElement(cellChild)) return cellChild;
      const cellElement = cellChild as ReactElement<CellProps>;
      if (cellElement.type !== "td" && cellElement.type !== "th") return cellElement;
      const column = index;
      index += cellElement.props.colSpan ?? 1;
      if (cellElement.props.colSpan && cellElement.props.colSpan > 1)
        return cloneElement(cellElement, { role: "cell", className: cn(cellElement.props.className, "max-sm:block") });
      const last = actions && column === labels.length - 1;
      return cloneElement(cellElement, {
        role: cellElement.type === "th" ? "rowheader" : "cell",
        "data-label": cellElement.props["data-label"] ?? (column === 0 || last ? undefined : labels[column]),
        className: cn(cellElement.props.className, cardCell, column === 0 && cardPrimary, last && cardActions),
      });
    });
    return cloneElement(
      element as ReactElement<{ className?: string; role?: string }>,
      {
        role: "row",
        className: cn((element.props as { className?: string }).className, cardRow),
        children: cells,
      } as Partial<CellProps>,
    );
  });
}

/** The classes of a hand-written table cell. */
export const td = cell;
