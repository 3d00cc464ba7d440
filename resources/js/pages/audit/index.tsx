/** Audit: who changed what and when, with the values before and after. */
import { Head } from "@inertiajs/react";
import { Pagination, SearchBox, Table, td, th, type Page } from "../../components/data-table";
import { useI18n } from "../../hooks/use-i18n";

import type { AuditRow as Entry } from "../../../../src/domain/audit";

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">—</span>;
  return <pre className="max-w-md overflow-x-auto whitespace-pre-wrap break-words text-xs">{JSON.stringify(value, null, 1)}</pre>;
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
      <Table caption={t("access.audit.title")}>
        <thead>
          <tr>
            <th className={th}>{t("access.audit.when")}</th>
            <th className={th}>{t("access.audit.actor")}</th>
            <th className={th}>{t("access.audit.action")}</th>
            <th className={th}>{t("access.audit.subject")}</th>
            <th className={th}>{t("access.audit.before")}</th>
            <th className={th}>{t("access.audit.after")}</th>
          </tr>
        </thead>
        <tbody>
          {entries.data.length === 0 && (
            <tr>
              <td className={td} colSpan={6}>
                {t("access.audit.none")}
              </td>
            </tr>
          )}
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
        </tbody>
      </Table>
      <Pagination page={entries} />
    </div>
  );
}
