/**
 * The Sales page (sales.index, and sales.duplicates for its second tab): every sale line of the person's cafes,
 * filtered in the URL (dates, cafe, client companies, service, sale type, other unit, status), sorted and paged on
 * the server, with the totals of all the pages above the table. A row opens its ticket; voided lines are struck
 * through. Export writes the same lines to Excel; the Duplicates tab lists diners served one service twice on a date;
 * the Closed months tab closes and reopens months (with those permissions).
 */
import { Head, Link, router, usePage } from "@inertiajs/react";
import { Download } from "lucide-react";
import type { MouseEvent, ReactNode } from "react";
import { DataTable, type DataColumn, type Page } from "../../components/data-table";
import { DuplicatesTable } from "../../components/sales/duplicates-table";
import { useSalesFormat } from "../../components/sales/format";
import { OtherUnitMark } from "../../components/sales/other-unit-mark";
import { PeriodsPanel } from "../../components/sales/periods-panel";
import { SalesReportButton } from "../../components/sales/report-dialog";
import { hasFilters, SalesFilters } from "../../components/sales/sales-filters";
import { SalesTotals } from "../../components/sales/sales-totals";
import type {
  ClosedPeriod,
  DuplicateGroup,
  SalesFilterOptions,
  SalesFilterQuery,
  SalesLineRow,
  SalesTotals as Totals,
} from "../../components/sales/types";
import { buttonClasses } from "../../components/ui/button";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { tabLinkClasses } from "../../components/ui/tabs";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";

interface Props {
  tab: "lines" | "duplicates" | "periods";
  filters: SalesFilterQuery & { sort: string | null; direction: "asc" | "desc" };
  /** Messages for the fields of the URL that could not be read (the default stands in for them). */
  filterErrors: Record<string, string>;
  today: string;
  maxRangeDays: number;
  exportMaxLines: number;
  options: SalesFilterOptions;
  lines: (Page<SalesLineRow> & { totals: Totals }) | null;
  duplicates: { groups: DuplicateGroup[]; more: boolean } | null;
  /** The closed months of the cafes (the filter's, else all of the person's), on the Closed months tab. */
  periods: ClosedPeriod[] | null;
  can: { closePeriod: boolean; reopenPeriod: boolean };
}

export default function SalesIndex({
  tab,
  filters,
  filterErrors,
  today,
  exportMaxLines,
  options,
  lines,
  duplicates,
  periods,
  can,
}: Props) {
  const { t, money, number } = useI18n();
  const route = useRoute();
  const format = useSalesFormat();
  const { sort, direction, ...filter } = filters;
  const sorted = sort ? { sort, direction } : {};
  const filtered = hasFilters(filter);

  const ticketHref = (line: SalesLineRow) => route("sales.ticket", { sale: line.saleId });
  const struck = (line: SalesLineRow, content: ReactNode) =>
    line.voided ? <span className="line-through">{content}</span> : content;

  const columns: DataColumn<SalesLineRow>[] = [
    {
      id: "date",
      header: t("sales.page.columns.date"),
      sortable: true,
      className: "sm:whitespace-nowrap",
      cell: (line) => struck(line, format.serviceDate(line.serviceDate)),
    },
    {
      id: "time",
      header: t("sales.page.columns.time"),
      sortable: true,
      className: "tabular-nums sm:whitespace-nowrap",
      cell: (line) => {
        const day = format.dayAt(line.soldAt, line.timeZone);
        return struck(
          line,
          <>
            {format.time(line.soldAt, line.timeZone)}
            {/* Sold on another day than its service date (a dinner after midnight, a sale made later). */}
            {day !== line.serviceDate && (
              <span className="block text-xs text-muted-foreground">{format.serviceDate(day)}</span>
            )}
          </>,
        );
      },
    },
    { id: "cafe", header: t("sales.page.columns.cafe"), sortable: true, cell: (line) => struck(line, line.cafeName) },
    {
      id: "ticket",
      header: t("sales.page.columns.ticket"),
      sortable: true,
      primary: true,
      className: "sm:whitespace-nowrap",
      cell: (line) => (
        <>
          <Link
            href={ticketHref(line)}
            className={cn("font-mono text-primary underline-offset-2 hover:underline", line.voided && "line-through")}
            aria-label={t("sales.page.open_ticket", { ticket: line.ticket })}
          >
            {line.ticket}
          </Link>
          {line.voided && (
            <span className="ml-2 rounded bg-destructive/10 px-1 text-xs text-destructive">
              {t("sales.page.status.voided")}
            </span>
          )}
        </>
      ),
    },
    {
      id: "diner",
      header: t("sales.page.columns.diner"),
      sortable: true,
      cell: (line) => struck(line, line.dinerName),
      title: (line) => line.dinerName,
      maxWidth: "sm:max-w-56",
    },
    {
      id: "document",
      header: t("sales.page.columns.document"),
      sortable: true,
      className: "font-mono sm:whitespace-nowrap",
      cell: (line) => struck(line, line.documentNumber),
    },
    {
      id: "subdealership",
      header: t("sales.page.columns.subdealership"),
      sortable: true,
      cell: (line) => struck(line, line.subdealershipName ?? "—"),
      title: (line) => line.subdealershipName ?? "",
      maxWidth: "sm:max-w-48",
    },
    {
      id: "service",
      header: t("sales.page.columns.service"),
      sortable: true,
      cell: (line) => struck(line, line.serviceName),
    },
    {
      id: "quantity",
      header: t("sales.page.columns.quantity"),
      sortable: true,
      className: "text-right tabular-nums",
      cell: (line) => struck(line, number(line.quantity)),
    },
    {
      id: "unit_price",
      header: t("sales.page.columns.unit_price"),
      sortable: true,
      className: "text-right tabular-nums sm:whitespace-nowrap",
      cell: (line) => struck(line, money(line.unitPriceCents)),
    },
    {
      id: "total",
      header: t("sales.page.columns.total"),
      sortable: true,
      className: "text-right font-medium tabular-nums sm:whitespace-nowrap",
      cell: (line) => struck(line, money(line.totalCents)),
    },
    {
      id: "type",
      header: t("sales.page.columns.type"),
      sortable: true,
      className: "sm:whitespace-nowrap",
      cell: (line) => (
        <span className="inline-flex flex-wrap items-center gap-1">
          {struck(line, t(`sales.types.${line.saleType}`))}
          {line.otherUnit && <OtherUnitMark />}
        </span>
      ),
    },
  ];

  // A click anywhere on a row opens its ticket; the ticket's link is the way there by keyboard.
  const openTicket = (line: SalesLineRow) => (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest("a, button")) return;
    router.visit(ticketHref(line));
  };

  const tooMany = lines !== null && lines.total > exportMaxLines;
  const exportHref = route("sales.export", { ...filter, ...sorted });
  const tabs = [
    { id: "lines", route: "sales.index", label: t("sales.page.tabs.lines") },
    { id: "duplicates", route: "sales.duplicates", label: t("sales.page.tabs.duplicates") },
    { id: "periods", route: "sales.periods.index", label: t("sales.page.tabs.periods") },
  ] as const;
  const tabRoute = tabs.find((item) => item.id === tab)!.route;
  const pageErrors = usePage().props.errors as Record<string, string>;
  const empty = filtered
    ? t("sales.page.empty_filtered")
    : t("sales.page.empty", { from: format.serviceDate(filter.from), to: format.serviceDate(filter.to) });

  return (
    <div className="space-y-6">
      <Head title={t("sales.page.title")} />
      <PageHeader
        title={t("sales.page.title")}
        description={t("sales.page.description")}
        actions={
          <>
            <SalesReportButton initial={filter} />
            {tab === "lines" && lines && (
              <span className="flex flex-col items-end gap-1">
                {lines.total === 0 || tooMany ? (
                  <span className={buttonClasses("outline", "pointer-events-none opacity-50")} aria-disabled="true">
                    <Download className="size-4" aria-hidden="true" />
                    {t("sales.page.export")}
                  </span>
                ) : (
                  <a href={exportHref} download className={buttonClasses("outline")} data-testid="sales-export">
                    <Download className="size-4" aria-hidden="true" />
                    {t("sales.page.export")}
                  </a>
                )}
                {tooMany && (
                  <span className="max-w-72 text-right text-xs text-muted-foreground">
                    {t("sales.page.export_too_large", { lines: number(lines.total), max: number(exportMaxLines) })}
                  </span>
                )}
              </span>
            )}
          </>
        }
        tabs={
          <nav aria-label={t("sales.page.tabs.label")} className={tabLinkClasses.list}>
            {tabs.map((item) => (
              <Link
                key={item.id}
                href={route(item.route, { ...filter, ...sorted })}
                aria-current={item.id === tab ? "page" : undefined}
                className={tabLinkClasses.link}
                preserveScroll
              >
                {item.label}
              </Link>
            ))}
          </nav>
        }
      />

      {/* The period forms show their own errors; anything else (an export refused) is said here. */}
      <OtherErrors errors={pageErrors} fields={["cafe_id", "month", "reason"]} />

      {tab !== "periods" && (
        <SalesFilters
          filters={filter}
          errors={filterErrors}
          options={options}
          today={today}
          clearHref={route(tabRoute)}
        />
      )}

      {tab === "lines" && lines && (
        // The table's rows keep their own classes (cards on a phone): they are styled from here.
        <div className="space-y-4 [&_tbody_tr[data-voided]]:cursor-pointer [&_tbody_tr[data-voided]:hover]:bg-muted/50 [&_tr[data-voided=true]]:text-muted-foreground">
          <SalesTotals totals={lines.totals} status={filter.status ?? "valid"} />
          <DataTable
            caption={t("sales.page.table")}
            storageKey="sales.lines"
            columns={columns}
            page={lines}
            rowKey={(line) => line.id}
            empty={empty}
            sort={{ sort, direction }}
            rowProps={(line) => ({ onClick: openTicket(line), "data-voided": line.voided ? "true" : "false" })}
          />
        </div>
      )}

      {tab === "periods" && periods && (
        <div role="region" aria-label={t("sales.page.tabs.periods")}>
          <PeriodsPanel
            closed={periods}
            cafes={options.cafes}
            today={today}
            can={{ close: can.closePeriod, reopen: can.reopenPeriod }}
          />
        </div>
      )}

      {tab === "duplicates" && duplicates && (
        <div role="region" aria-label={t("sales.page.tabs.duplicates")} className="space-y-2">
          <p className="text-sm text-muted-foreground">{t("sales.page.duplicates.about")}</p>
          <DuplicatesTable groups={duplicates.groups} more={duplicates.more} empty={t("sales.page.duplicates.none")} />
        </div>
      )}
    </div>
  );
}
