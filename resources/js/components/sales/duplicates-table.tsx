/**
 * The Duplicates tab: diners served the same service more than once on one service date, across the cafes the
 * filter shows, newest date first, each with the sales involved (ticket, cafe, time, type, other-unit mark), every
 * ticket a link to it. For a manager checking for abuse.
 */
import { Link } from "@inertiajs/react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Table } from "../data-table";
import { useSalesFormat } from "./format";
import { OtherUnitMark } from "./other-unit-mark";
import type { DuplicateGroup } from "./types";

export function DuplicatesTable({ groups, more, empty }: { groups: DuplicateGroup[]; more: boolean; empty: string }) {
  const { t } = useI18n();
  const route = useRoute();
  const format = useSalesFormat();
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t(more ? "sales.page.duplicates.count_more" : "sales.page.duplicates.count", { count: groups.length })}
      </p>
      <Table
        caption={t("sales.page.duplicates.title")}
        headers={[
          t("sales.page.duplicates.diner"),
          t("sales.page.columns.date"),
          t("sales.page.columns.service"),
          t("sales.page.duplicates.times"),
          t("sales.page.duplicates.sales"),
        ]}
        empty={groups.length === 0 ? empty : null}
      >
        {groups.map((group) => (
          <tr key={`${group.dinerId}-${group.serviceId}-${group.serviceDate}`} data-testid="duplicate-group">
            <td className="align-top">
              <span className="font-medium">{group.dinerName}</span>
              <span className="block text-xs text-muted-foreground">
                {t(`documents.${group.documentType}`)} {group.documentNumber}
                {group.subdealershipName ? ` · ${group.subdealershipName}` : ""}
              </span>
            </td>
            <td className="align-top sm:whitespace-nowrap">{format.serviceDate(group.serviceDate)}</td>
            <td className="align-top">
              <span className="font-mono text-xs">{group.serviceCode}</span> {group.serviceName}
            </td>
            <td className="align-top">
              {t("sales.page.duplicates.times_value", { count: group.lines })}
              {group.cafes > 1 && (
                <span className="block text-xs text-muted-foreground">
                  {t("sales.page.duplicates.cafes", { count: group.cafes })}
                </span>
              )}
            </td>
            <td className="align-top">
              <ul className="space-y-1">
                {group.sales.map((sale) => (
                  <li key={sale.saleId} className="flex flex-wrap items-baseline gap-x-2 text-sm">
                    <Link
                      href={route("sales.ticket", { sale: sale.saleId })}
                      className="font-mono text-primary underline-offset-2 hover:underline"
                    >
                      {sale.ticket}
                    </Link>
                    <span>{sale.cafeName}</span>
                    <span className="tabular-nums text-muted-foreground">
                      {format.time(sale.soldAt, sale.timeZone)}
                    </span>
                    <span className="text-muted-foreground">{t(`sales.types.${sale.saleType}`)}</span>
                    {sale.otherUnit && <OtherUnitMark />}
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
