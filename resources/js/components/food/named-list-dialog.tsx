/**
 * A dialog that keeps a short list of named things (ingredient categories, cities): each row with what uses it and
 * its edit and delete buttons, and a form below to add one or rename the one being edited. A delete is confirmed
 * first; one that is in use is refused by the server, which says why.
 */
import { router, useForm } from "@inertiajs/react";
import { Download, Pencil, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useConfirm } from "../ui/alert-dialog";
import { Button, IconButton, buttonClasses } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";

export interface NamedRow {
  id: number;
  name: string;
  /** The second field (a category's description, a city's region). */
  detail: string;
  /** What uses it, in words ("12 insumos"). */
  usage: string;
}

export function NamedListDialog({
  title,
  description,
  rows,
  labels,
  urls,
  onClose,
}: {
  title: string;
  description: string;
  rows: NamedRow[];
  labels: { name: string; detail: string; add: string; empty: string; listLabel: string; detailField: string };
  /** `export`: the whole list as a workbook. */
  urls: { store: string; update: (id: number) => string; destroy: (id: number) => string; export: string };
  onClose: () => void;
}) {
  const { t } = useI18n();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<NamedRow | null>(null);
  const form = useForm({ name: "", detail: "" });
  const edit = (row: NamedRow | null) => {
    setEditing(row);
    form.clearErrors();
    form.setData({ name: row?.name ?? "", detail: row?.detail ?? "" });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((d) => ({ name: d.name, [labels.detailField]: d.detail }));
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => edit(null) };
    if (editing) form.put(urls.update(editing.id), options);
    else form.post(urls.store, options);
  };
  const remove = async (row: NamedRow) => {
    if (
      !(await confirm({
        title: t("food.confirm_delete", { name: row.name }),
        description: t("ui.consequences.permanent"),
      }))
    )
      return;
    router.delete(urls.destroy(row.id), { preserveScroll: true, preserveState: true });
  };
  const errors = form.errors as Record<string, string | undefined>;
  return (
    <Dialog open wide onClose={onClose} title={title} description={description} closeLabel={t("food.close")}>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{labels.empty}</p>
      ) : (
        // Its items hold buttons, which take the focus: the list scrolls to them.
        <div className="max-h-72 overflow-y-auto rounded-md border">
          <ul className="divide-y" aria-label={labels.listLabel}>
            {rows.map((row) => (
              <li key={row.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{row.name}</span>
                  {row.detail && <span className="block truncate text-xs text-muted-foreground">{row.detail}</span>}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground">{row.usage}</span>
                <IconButton label={t("food.edit_named", { name: row.name })} onClick={() => edit(row)}>
                  <Pencil className="size-4" aria-hidden="true" />
                </IconButton>
                <IconButton danger label={t("food.delete_named", { name: row.name })} onClick={() => remove(row)}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </IconButton>
              </li>
            ))}
          </ul>
        </div>
      )}
      {rows.length > 0 && (
        <a href={urls.export} download className={buttonClasses("outline", "w-fit")}>
          <Download className="size-4" aria-hidden="true" />
          {t("export.button")}
        </a>
      )}
      <form onSubmit={submit} className="space-y-3 rounded-lg border p-3" noValidate>
        <p className="text-sm font-medium">{editing ? t("food.rename", { name: editing.name }) : labels.add}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={labels.name}
            name="name"
            required
            maxLength={80}
            value={form.data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={errors.name}
          />
          <Field
            label={labels.detail}
            name={labels.detailField}
            maxLength={labels.detailField === "description" ? 255 : 80}
            value={form.data.detail}
            onChange={(e) => form.setData("detail", e.target.value)}
            error={errors[labels.detailField]}
          />
        </div>
        <OtherErrors errors={errors} fields={["name", labels.detailField]} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {editing && (
            <Button variant="outline" onClick={() => edit(null)}>
              {t("food.cancel")}
            </Button>
          )}
          <Button type="submit" disabled={form.processing}>
            {editing ? t("food.save") : t("food.add")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
