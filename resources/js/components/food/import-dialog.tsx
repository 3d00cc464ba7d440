/**
 * Loading ingredients from a workbook, shown before it is written: choose the file and check it (nothing is written),
 * read what it would create, change or leave alone and which categories it adds — or every row to fix, by row and
 * column — then import exactly that, all or nothing. The file is sent again with the preview's fingerprint; if the
 * ingredients changed meanwhile, the new preview is shown instead. Its pieces are workbook-import.tsx's, shared
 * with the dishes' DishImportDialog.
 */
import { useForm, usePage } from "@inertiajs/react";
import { useEffect, useState, type FormEvent } from "react";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { useFoodWords } from "./use-food-words";
import { ConfirmActions, TemplateLink, WorkbookFileField, WorkbookResult } from "./workbook-import";

/** What the server flashes back (src/http/routes/ingredients.ts, ImportView). */
export interface ImportView {
  step: "preview" | "problems" | "done";
  fileName: string;
  rows: number;
  counts: { created: number; updated: number; unchanged: number };
  newCategories: string[];
  problems: string[];
  moreProblems: number;
  fingerprint: string | null;
  changed: boolean;
}

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useFoodWords();
  const route = useRoute();
  const flash = usePage().flash as Record<string, unknown> | undefined;
  const [view, setView] = useState<ImportView | null>(null);
  const form = useForm<{ file: File | null; confirm: string }>({ file: null, confirm: "" });
  useEffect(() => {
    const result = flash?.ingredientsImport as ImportView | undefined;
    if (result) setView(result);
  }, [flash]);

  const send = (confirm: string) => {
    form.transform((d) => ({ file: d.file, ...(confirm ? { confirm } : {}) }));
    form.post(route("ingredients.import"), { preserveScroll: true, preserveState: true, forceFormData: true });
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    setView(null);
    send("");
  };
  const errors = form.errors as Record<string, string | undefined>;
  const done = view?.step === "done";
  const total = view ? view.counts.created + view.counts.updated : 0;
  const counts = view
    ? [
        t("food.import.counts.rows", { count: view.rows }),
        t("food.import.counts.created", { count: view.counts.created }),
        t("food.import.counts.updated", { count: view.counts.updated }),
        t("food.import.counts.unchanged", { count: view.counts.unchanged }),
        ...(view.newCategories.length > 0
          ? [
              t("food.import.counts.categories", {
                count: view.newCategories.length,
                names: view.newCategories.join(", "),
              }),
            ]
          : []),
      ]
    : [];

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={t("food.import.title")}
      description={t("food.import.description")}
      closeLabel={t("food.close")}
    >
      <form onSubmit={check} className="space-y-4" noValidate>
        <WorkbookFileField
          id="ingredients-file"
          label={t("food.import.file")}
          hint={t("food.import.file_hint")}
          error={errors.file}
          onChoose={(file) => {
            form.setData("file", file);
            setView(null);
          }}
        />
        <TemplateLink href={route("ingredients.import_template")} label={t("food.import.template")} />

        {view && (
          <WorkbookResult
            testId="ingredients-import-result"
            title={
              done
                ? t("food.import.done_title")
                : view.step === "problems"
                  ? t("food.import.problems_title")
                  : t("food.import.preview_title")
            }
            changed={view.changed ? t("food.import.changed") : null}
            nothingWritten={t("food.import.nothing_written")}
            problems={
              view.step === "problems"
                ? {
                    title: t("food.import.problems_title"),
                    lines: view.problems,
                    more: view.moreProblems > 0 ? t("food.import.more_problems", { count: view.moreProblems }) : null,
                  }
                : null
            }
            counts={counts}
          />
        )}

        <OtherErrors errors={errors} fields={["file", "confirm"]} />
        {view?.step === "preview" && view.fingerprint && !done ? (
          <ConfirmActions
            cancelLabel={t("food.cancel")}
            onCancel={onClose}
            confirmLabel={total === 0 ? t("food.import.nothing_to_import") : t("food.import.confirm", { count: total })}
            disabled={form.processing || total === 0}
            onConfirm={() => send(view.fingerprint!)}
          />
        ) : (
          <DialogActions
            onCancel={onClose}
            cancelLabel={done ? t("food.close") : t("food.cancel")}
            submitLabel={t("food.import.check")}
            busy={form.processing || form.data.file === null}
          />
        )}
      </form>
    </Dialog>
  );
}
