/**
 * Loading dishes and their recipes from a workbook, shown before it is written: choose the file and check it (nothing
 * is written), read which dishes it would create, change or leave alone and which recipes it would create or replace —
 * or every row to fix, by row and column — then write exactly that, all or nothing. The file is sent again with the
 * preview's fingerprint; if the dishes changed meanwhile, the new preview is shown instead. The Food page opens it
 * (`<DishImportDialog onClose={…} />`, like the ingredients' ImportDialog).
 */
import { useForm, usePage } from "@inertiajs/react";
import { Download } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { buttonClasses } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { ScrollRegion } from "../ui/scroll-region";
import type { KeysUnder, TranslationParams } from "../../../../src/shared/i18n";

/** What the server flashes back (src/http/routes/food-import.ts, DishImportView). */
export interface DishImportView {
  step: "preview" | "problems" | "done";
  fileName: string;
  rows: number;
  counts: {
    dishesCreated: number;
    dishesUpdated: number;
    dishesUnchanged: number;
    recipesCreated: number;
    recipesReplaced: number;
    recipesUnchanged: number;
  };
  problems: string[];
  moreProblems: number;
  fingerprint: string | null;
  changed: boolean;
}

const ACCEPT =
  ".xlsx,.xls,.ods,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel,application/vnd.oasis.opendocument.spreadsheet,text/csv";

export function DishImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const w = (key: KeysUnder<"foodImportDishes">, params?: TranslationParams) => t(`foodImportDishes.${key}`, params);
  const route = useRoute();
  const flash = usePage().flash as Record<string, unknown> | undefined;
  const [view, setView] = useState<DishImportView | null>(null);
  const form = useForm<{ file: File | null; fingerprint: string }>({ file: null, fingerprint: "" });
  useEffect(() => {
    const result = flash?.dishesImport as DishImportView | undefined;
    if (result) setView(result);
  }, [flash]);

  const options = { preserveScroll: true, preserveState: true, forceFormData: true } as const;
  const check = (event: FormEvent) => {
    event.preventDefault();
    setView(null);
    form.transform((d) => ({ file: d.file }));
    form.post(route("food.dishes.import.preview"), options);
  };
  const confirm = (fingerprint: string) => {
    form.transform((d) => ({ file: d.file, fingerprint }));
    form.post(route("food.dishes.import.store"), options);
  };
  const errors = form.errors as Record<string, string | undefined>;
  const done = view?.step === "done";
  const c = view?.counts;
  const total = c ? c.dishesCreated + c.dishesUpdated + c.recipesCreated + c.recipesReplaced : 0;

  return (
    <Dialog open wide onClose={onClose} title={w("title")} description={w("description")} closeLabel={t("food.close")}>
      <form onSubmit={check} className="space-y-4" noValidate>
        <div className="space-y-1">
          <label htmlFor="dishes-file" className="text-sm font-medium">
            {w("file")}
          </label>
          <input
            id="dishes-file"
            type="file"
            name="file"
            accept={ACCEPT}
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby="dishes-file-hint"
            onChange={(e) => {
              form.setData("file", e.target.files?.[0] ?? null);
              setView(null);
            }}
          />
          <p
            id="dishes-file-hint"
            className={errors.file ? "text-sm text-destructive" : "text-xs text-muted-foreground"}
          >
            {errors.file ?? w("file_hint")}
          </p>
        </div>
        <a href={route("food.dishes.template")} download className={buttonClasses("outline", undefined, "sm")}>
          <Download className="size-4" aria-hidden="true" />
          {w("template")}
        </a>

        {view && c && (
          <section className="space-y-2 rounded-lg border p-3" aria-live="polite" data-testid="dishes-import-result">
            <h3 className="text-sm font-semibold">
              {done ? w("done_title") : view.step === "problems" ? w("problems_title") : w("preview_title")}
            </h3>
            {view.changed && <p className="text-sm text-destructive">{w("changed")}</p>}
            {view.step === "problems" ? (
              <>
                <p className="text-sm">{w("nothing_written")}</p>
                <ScrollRegion aria-label={w("problems_title")} className="max-h-56 border p-2">
                  <ul className="list-disc space-y-1 pl-5 text-sm text-destructive">
                    {view.problems.map((problem, i) => (
                      <li key={i}>{problem}</li>
                    ))}
                    {view.moreProblems > 0 && <li>{w("more_problems", { count: view.moreProblems })}</li>}
                  </ul>
                </ScrollRegion>
              </>
            ) : (
              <ul className="space-y-1 text-sm">
                <li>{w("counts.rows", { count: view.rows })}</li>
                <li>{w("counts.dishes_created", { count: c.dishesCreated })}</li>
                <li>{w("counts.dishes_updated", { count: c.dishesUpdated })}</li>
                <li>{w("counts.dishes_unchanged", { count: c.dishesUnchanged })}</li>
                <li>{w("counts.recipes_created", { count: c.recipesCreated })}</li>
                <li>{w("counts.recipes_replaced", { count: c.recipesReplaced })}</li>
                <li>{w("counts.recipes_unchanged", { count: c.recipesUnchanged })}</li>
              </ul>
            )}
          </section>
        )}

        <OtherErrors errors={errors} fields={["file", "fingerprint"]} />
        {view?.step === "preview" && view.fingerprint && !done ? (
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <button type="button" className={buttonClasses("outline")} onClick={onClose}>
              {t("food.cancel")}
            </button>
            <button
              type="button"
              className={buttonClasses("primary")}
              disabled={form.processing || total === 0}
              onClick={() => confirm(view.fingerprint!)}
            >
              {total === 0 ? w("nothing_to_import") : w("confirm", { count: total })}
            </button>
          </div>
        ) : (
          <DialogActions
            onCancel={onClose}
            cancelLabel={done ? t("food.close") : t("food.cancel")}
            submitLabel={w("check")}
            busy={form.processing || form.data.file === null}
          />
        )}
      </form>
    </Dialog>
  );
}
