/** Audit: who changed what and when, in words — the actor's and the subject's names, the action, each field before → after. */
import { Head } from "@inertiajs/react";
import { ArrowRight, Terminal } from "lucide-react";
import { Pagination, SearchBox, Table, td, type Page } from "../../components/data-table";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";

import type { AuditChange, AuditEntryView as Entry } from "../../../../src/domain/audit-view";

function Changes({ changes }: { changes: AuditChange[] }) {
  const { t } = useI18n();
  if (changes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="space-y-0.5">
      {changes.map((c, i) => (
        <li key={i} className="break-words">
          <span className="font-medium">{c.field}:</span>{" "}
          {c.before !== undefined && c.after !== undefined && c.before !== c.after ? (
            <>
              <span className="sr-only">{t("access.audit.was")} </span>
              <span className="text-muted-foreground line-through decoration-muted-foreground/60">{c.before}</span>
              <ArrowRight className="mx-1 inline size-3.5 align-[-2px] text-muted-foreground" aria-hidden="true" />
              <span className="sr-only"> {t("access.audit.now")} </span>
              <span>{c.after}</span>
            </>
          ) : c.after !== undefined ? (
            <span>{c.after}</span>
          ) : (
            <span className="text-muted-foreground line-through decoration-muted-foreground/60">{c.before}</span>
          )}
        </li>
      ))}
    </ul>
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
          t("access.audit.changes"),
        ]}
        empty={entries.data.length === 0 ? t("access.audit.none") : null}
      >
        {entries.data.map((entry) => (
          <tr key={entry.id} data-action={entry.action}>
            <td className={cn(td, "whitespace-nowrap")}>{dateTime(entry.createdAt)}</td>
            <td className={td}>
              <span
                className={cn(
                  "inline-flex items-center gap-1",
                  entry.actor.kind !== "user" && "italic text-muted-foreground",
                )}
              >
                {entry.actor.kind === "cli" && <Terminal className="size-3.5" aria-hidden="true" />}
                {entry.actor.name}
              </span>
            </td>
            <td className={td}>{entry.actionLabel}</td>
            <td className={td}>
              <div className="text-xs text-muted-foreground">{entry.subject.type}</div>
              {entry.subject.name !== null && <div className="font-medium">{entry.subject.name}</div>}
              {entry.subject.deleted && (
                <div className="text-xs italic text-muted-foreground">({t("access.audit.gone")})</div>
              )}
            </td>
            <td className={cn(td, "min-w-64 max-w-xl")}>
              <Changes changes={entry.changes} />
            </td>
          </tr>
        ))}
      </Table>
      <Pagination page={entries} />
    </div>
  );
}
