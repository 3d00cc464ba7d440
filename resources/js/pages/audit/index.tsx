/** Audit: who changed what and when, in words — the actor's and the subject's names, the action, each field before → after. */
import { Head } from "@inertiajs/react";
import { ArrowRight, Terminal } from "lucide-react";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { PageHeader } from "../../components/ui/page-header";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";

import type { AuditChange, AuditEntryView as Entry } from "../../../../src/shared/audit";

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
  const columns: DataColumn<Entry>[] = [
    {
      id: "when",
      header: t("access.audit.when"),
      className: "sm:whitespace-nowrap",
      cell: (entry) => dateTime(entry.createdAt),
    },
    {
      id: "actor",
      header: t("access.audit.actor"),
      cell: (entry) => (
        <span
          className={cn(
            "inline-flex items-center gap-1",
            entry.actor.kind !== "user" && "italic text-muted-foreground",
          )}
        >
          {entry.actor.kind === "cli" && <Terminal className="size-3.5" aria-hidden="true" />}
          {entry.actor.name}
        </span>
      ),
    },
    { id: "action", header: t("access.audit.action"), primary: true, cell: (entry) => entry.actionLabel },
    {
      id: "subject",
      header: t("access.audit.subject"),
      cell: (entry) => (
        <>
          <div className="text-xs text-muted-foreground">{entry.subject.type}</div>
          {entry.subject.name !== null && <div className="font-medium">{entry.subject.name}</div>}
          {entry.subject.deleted && (
            <div className="text-xs italic text-muted-foreground">({t("access.audit.gone")})</div>
          )}
        </>
      ),
    },
    {
      id: "changes",
      header: t("access.audit.changes"),
      className: "sm:min-w-64 sm:max-w-xl",
      cell: (entry) => <Changes changes={entry.changes} />,
    },
  ];
  return (
    <div className="space-y-6">
      <Head title={t("access.audit.title")} />
      <PageHeader title={t("access.audit.title")} description={t("access.audit.description")} />
      <DataTable
        caption={t("access.audit.title")}
        storageKey="audit"
        columns={columns}
        page={entries}
        rowKey={(entry) => entry.id}
        rowProps={(entry) => ({ "data-action": entry.action })}
        empty={t("access.audit.none")}
        toolbar={<SearchBox value={filters.search} label={t("access.audit.search")} />}
      />
    </div>
  );
}
