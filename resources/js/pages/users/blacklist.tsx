/**
 * Blacklist: people barred by document (type and number), with reason, date and who decided. In the form, a complete
 * document of a diner or user the person's scope reaches offers that name (`blacklist.lookup`, asked a moment after
 * the number is typed; nothing is asked for a half-typed number).
 */
import { Head, router, useForm } from "@inertiajs/react";
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { DataTable, SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, IconButton } from "../../components/ui/button";
import { PageHeader } from "../../components/ui/page-header";
import { FormDialog, textField } from "../../components/form-dialog";
import { Field } from "../../components/ui/field";
import { DocumentFields } from "../../components/users/document-fields";
import { DocumentLabel } from "../../components/users/document-label";
import { EmailLookalikeFlag } from "../../components/users/email-lookalike";
import { requestJson } from "../../lib/json-client";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

import type { BlacklistRow as Entry } from "../../../../src/shared/access/types";
import {
  DEFAULT_DOCUMENT_TYPE,
  documentProblem,
  normalizeDocumentNumber,
  type DocumentType,
} from "../../../../src/shared/documents";

export default function Blacklist({
  filters,
  entries,
  can,
  dniLength,
}: {
  filters: { search: string };
  entries: Page<Entry>;
  can: { manage: boolean; liftUnlinked: boolean };
  /** DNI_LENGTH, for the document's rule. */ dniLength: number;
}) {
  const { t, dateTime } = useI18n();
  const confirm = useConfirm();
  const route = useRoute();
  const [adding, setAdding] = useState(false);
  const form = useForm({
    document_type: DEFAULT_DOCUMENT_TYPE as DocumentType,
    document_number: "",
    name: "",
    reason: "",
    user_email: "",
  });
  // The name of the diner or user with the typed document, once the number is complete for its type.
  const [knownName, setKnownName] = useState<string | null>(null);
  useEffect(() => {
    setKnownName(null);
    const type = form.data.document_type;
    const number = normalizeDocumentNumber(form.data.document_number);
    // Nothing is asked while the form is being saved, nor once the dialog is closed.
    if (!adding || form.processing || documentProblem({ type, number }, { dniLength }) !== null) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const params = new URLSearchParams({ document_type: type, document_number: number });
      try {
        const { status, body } = await requestJson<{ name: string | null }>(
          "GET",
          `${route("blacklist.lookup")}?${params}`,
          undefined,
          { signal: controller.signal },
        );
        if (status === 200 && body?.name) setKnownName(body.name);
      } catch {
        // A lookup that fails offers nothing; the form works as before.
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [adding, form.processing, form.data.document_type, form.data.document_number, dniLength]);
  const remove = async (entry: Entry) => {
    const confirmed = await confirm({
      title: t("access.blacklist.confirm_remove_title", { document: entry.documentNumber }),
      description: t("access.blacklist.remove_consequence"),
      confirmLabel: t("access.blacklist.remove"),
    });
    if (confirmed) router.delete(route("blacklist.destroy", { entry: entry.id }), { preserveScroll: true });
  };
  const columns: DataColumn<Entry>[] = [
    {
      id: "document",
      header: t("access.blacklist.document"),
      className: "font-mono sm:whitespace-nowrap",
      cell: (entry) => <DocumentLabel type={entry.documentType} number={entry.documentNumber} />,
    },
    { id: "name", header: t("access.blacklist.name"), primary: true, cell: (entry) => entry.name },
    {
      id: "reason",
      header: t("access.blacklist.reason"),
      cell: (entry) => entry.reason,
      title: (entry) => entry.reason,
    },
    {
      id: "date",
      header: t("access.blacklist.date"),
      className: "sm:whitespace-nowrap",
      cell: (entry) => dateTime(entry.createdAt),
    },
    { id: "decided_by", header: t("access.blacklist.decided_by"), cell: (entry) => entry.decidedBy ?? "—" },
    {
      id: "user",
      header: t("access.blacklist.user"),
      cell: (entry) =>
        entry.outsideScope ? (
          <span className="text-muted-foreground">{t("access.blacklist.user_outside_scope")}</span>
        ) : entry.user ? (
          <>
            {`${entry.user.name} (${entry.user.email})`}
            {entry.user.emailLookalike && <EmailLookalikeFlag lookalike={entry.user.emailLookalike} />}
          </>
        ) : (
          "—"
        ),
    },
    {
      id: "actions",
      header: t("access.users.actions"),
      headerHidden: true,
      actions: true,
      cell: (entry) =>
        can.manage &&
        !entry.outsideScope &&
        (entry.user !== null || can.liftUnlinked) && (
          <IconButton
            danger
            label={`${t("access.blacklist.remove")} ${entry.documentNumber}`}
            onClick={() => void remove(entry)}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </IconButton>
        ),
    },
  ];
  return (
    <div className="space-y-6">
      <Head title={t("access.blacklist.title")} />
      <PageHeader
        title={t("access.blacklist.title")}
        description={t("access.blacklist.description")}
        actions={
          can.manage && (
            <Button onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {t("access.blacklist.new")}
            </Button>
          )
        }
      />
      <DataTable
        caption={t("access.blacklist.title")}
        storageKey="blacklist"
        columns={columns}
        page={entries}
        rowKey={(entry) => entry.id}
        empty={t("access.blacklist.none")}
        toolbar={<SearchBox value={filters.search} label={t("access.blacklist.search")} />}
      />
      <FormDialog
        open={adding}
        title={t("access.blacklist.new")}
        description={t("access.blacklist.user_hint")}
        words="access.users"
        form={form}
        fields={["document_type", "document_number", "name", "reason", "user_email"]}
        send={{ method: "post", url: route("blacklist.store") }}
        onSaved={() => form.reset()}
        onClose={() => setAdding(false)}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <DocumentFields
            form={form}
            dniLength={dniLength}
            labels={{ type: t("access.blacklist.document_type"), number: t("access.blacklist.document") }}
            numberRequired
          />
        </div>
        {knownName !== null && knownName !== form.data.name.trim() && (
          <p
            role="status"
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-muted/40 px-3 py-2 text-sm"
            data-testid="blacklist-known-name"
          >
            <span>{t("access.blacklist.known_name", { name: knownName })}</span>
            <Button type="button" size="sm" variant="outline" onClick={() => form.setData("name", knownName)}>
              {t("access.blacklist.use_name")}
            </Button>
          </p>
        )}
        <Field label={t("access.blacklist.name")} required {...textField(form, "name")} />
        <Field label={t("access.blacklist.reason")} required {...textField(form, "reason")} />
        <Field
          label={t("access.blacklist.user_id")}
          type="email"
          {...textField(form, "user_email")}
          hint={t("access.blacklist.user_email_hint")}
        />
      </FormDialog>
    </div>
  );
}
