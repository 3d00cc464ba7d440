/** Audit: who changed what and when, with the values before and after. */
import { Head } from "@inertiajs/react";
import { Pagination, SearchBox, Table, td, type Page } from "../../components/data-table";
import { useI18n } from "../../hooks/use-i18n";

import type { AuditRow as Entry } from "../../../../src/domain/audit";

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">—</span>;
  return (
    <pre className="max-w-md overflow-x-auto whitespace-pre-wrap break-words text-xs">
      {JSON.stringify(value, null, 1)}
    </pre>
  );
}

export default function AuditIndex({ filters, entries }: { filters: { search: string }; entries: Page<Entry> }) {
  const { t, dateTime } = useI18n();
  return (
    <div className="space-y-6">
      <Head title={t("access.audit.title")} />
      <header>
        <h1 className="text-2xl font-semibold">{t("access.audit.title")}</h1>
        <p className="text-sm text-muted-foreground">{t("access.audit.description")}</p>
      </header>
      <SearchBox value={filters.search} label={t("access.audit.search")} />
      <Table
        caption={t("access.audit.title")}
        headers={[
          t("access.audit.when"),
          t("access.audit.actor"),
          t("access.audit.action"),
          t("access.audit.subject"),
          t("access.audit.before"),
          t("access.audit.after"),
        ]}
        empty={entries.data.length === 0 ? t("access.audit.none") : null}
      >
        {entries.data.map((entry) => (
          <tr key={entry.id}>
            <td className={`${td} whitespace-nowrap`}>{dateTime(entry.createdAt)}</td>
            <td className={td}>{entry.actor}</td>
            <td className={td}>
              <code>{entry.action}</code>
            </td>
            <td className={td}>
              {entry.subjectType}
              {entry.subjectId !== null && ` #${entry.subjectId}`}
            </td>
            <td className={td}>
              <Json value={entry.before} />
            </td>
            <td className={td}>
              <Json value={entry.after} />
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={entries} />
    </div>
  );
}
