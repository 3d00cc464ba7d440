/**
 * Loading ingredients from a workbook, shown before it is written: choose the file and check it (nothing is written),
 * read what it would create, change or leave alone and which categories it adds — or every row to fix, by row and
 * column — then import exactly that, all or nothing. The file is sent again with the preview's fingerprint; if the
 * ingredients changed meanwhile, the new preview is shown instead.
 */
import { useForm, usePage } from "@inertiajs/react";
import { Download } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useRoute } from "../../hooks/use-route";
import { buttonClasses } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { ScrollRegion } from "../ui/scroll-region";
import { useFoodWords } from "./use-food-words";

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
        <div className="space-y-1">
          <label htmlFor="ingredients-file" className="text-sm font-medium">
            {t("food.import.file")}
          </label>
          <input
            id="ingredients-file"
            type="file"
            name="file"
            accept=".xlsx,.xls,.ods,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel,application/vnd.oasis.opendocument.spreadsheet,text/csv"
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby="ingredients-file-hint"
            onChange={(e) => {
              form.setData("file", e.target.files?.[0] ?? null);
              setView(null);
            }}
          />
          <p
            id="ingredients-file-hint"
            className={errors.file ? "text-sm text-destructive" : "text-xs text-muted-foreground"}
          >
            {errors.file ?? t("food.import.file_hint")}
          </p>
        </div>
        <a href={route("ingredients.import_template")} download className={buttonClasses("outline", undefined, "sm")}>
          <Download className="size-4" aria-hidden="true" />
          {t("food.import.template")}
        </a>

        {view && (
          <section
            className="space-y-2 rounded-lg border p-3"
            aria-live="polite"
            data-testid="ingredients-import-result"
          >
            <h3 className="text-sm font-semibold">
              {done
                ? t("food.import.done_title")
                : view.step === "problems"
                  ? t("food.import.problems_title")
                  : t("food.import.preview_title")}
            </h3>
            {view.changed && <p className="text-sm text-destructive">{t("food.import.changed")}</p>}
            {view.step === "problems" ? (
              <>
                <p className="text-sm">{t("food.import.nothing_written")}</p>
                <ScrollRegion aria-label={t("food.import.problems_title")} className="max-h-56 border p-2">
                  <ul className="list-disc space-y-1 pl-5 text-sm text-destructive">
                    {view.problems.map((problem, i) => (
                      <li key={i}>{problem}</li>
                    ))}
                    {view.moreProblems > 0 && <li>{t("food.import.more_problems", { count: view.moreProblems })}</li>}
                  </ul>
                </ScrollRegion>
              </>
            ) : (
              <ul className="space-y-1 text-sm">
                <li>{t("food.import.counts.rows", { count: view.rows })}</li>
                <li>{t("food.import.counts.created", { count: view.counts.created })}</li>
                <li>{t("food.import.counts.updated", { count: view.counts.updated })}</li>
                <li>{t("food.import.counts.unchanged", { count: view.counts.unchanged })}</li>
                {view.newCategories.length > 0 && (
                  <li>
                    {t("food.import.counts.categories", {
                      count: view.newCategories.length,
                      names: view.newCategories.join(", "),
                    })}
                  </li>
                )}
              </ul>
            )}
          </section>
        )}

        <OtherErrors errors={errors} fields={["file", "confirm"]} />
        {view?.step === "preview" && view.fingerprint && !done ? (
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <button type="button" className={buttonClasses("outline")} onClick={onClose}>
              {t("food.cancel")}
            </button>
            <button
              type="button"
              className={buttonClasses("primary")}
              disabled={form.processing || total === 0}
              onClick={() => send(view.fingerprint!)}
            >
              {total === 0 ? t("food.import.nothing_to_import") : t("food.import.confirm", { count: total })}
            </button>
          </div>
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
