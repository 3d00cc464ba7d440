/**
 * The expected servings of the Compras page: a row per day of the range and a column per meal service, each value
 * either set (by a person or the client's forecast, marked "set") or the four-week average. Holders of menu.manage
 * edit a day in a dialog (blank: back to the average; `menu.servings.update`) and load the client's forecast workbook
 * (`menu.servings.import`, all or nothing; the problems come back by row).
 */
import { useForm, usePage } from "@inertiajs/react";
import { AlertTriangle, Pencil, Upload } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import type { ExpectedServings, ServingsDay } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ScrollRegion } from "../ui/scroll-region";

export function RequirementsServings({
  cafeId,
  servings,
  canManage,
  forecastMaxRows,
}: {
  cafeId: number;
  servings: ExpectedServings;
  canManage: boolean;
  forecastMaxRows: number;
}) {
  const { t, date, number } = useI18n();
  const [editing, setEditing] = useState<ServingsDay | null>(null);
  const [loading, setLoading] = useState(false);
  const range = { from: servings.from, to: servings.to };

  return (
    <section aria-labelledby="servings-title" className="space-y-3" data-testid="requirements-servings">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="servings-title" className="text-lg font-semibold">
            {t("menuRequirements.servings.title")}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t("menuRequirements.servings.help", { from: date(servings.basis.from), to: date(servings.basis.to) })}
          </p>
        </div>
        {canManage && (
          <Button variant="outline" onClick={() => setLoading(true)} data-testid="forecast-open">
            <Upload className="size-4" aria-hidden="true" />
            {t("menuRequirements.forecast.open")}
          </Button>
        )}
      </div>
      {servings.services.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          {t("menuRequirements.servings.no_services")}
        </p>
      ) : (
        <ScrollRegion
          aria-label={t("menuRequirements.servings.table")}
          className="relative overflow-x-auto overflow-y-visible rounded-lg border"
        >
          <table className="w-full text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("menuRequirements.servings.day")}
                </th>
                {servings.services.map((s) => (
                  <th key={s.id} scope="col" className="px-3 py-2 text-right font-medium">
                    {s.name}
                  </th>
                ))}
                {canManage && (
                  <th scope="col" className="w-12 px-3 py-2">
                    <span className="sr-only">{t("menuRequirements.servings.edit")}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {servings.days.map((day) => (
                <tr key={day.date} className="border-t" data-testid={`servings-${day.date}`}>
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    {date(day.date)}
                  </th>
                  {day.cells.map((cell) => (
                    <td key={cell.serviceId} className="px-3 py-1.5 text-right tabular-nums">
                      <span className="font-medium">{number(cell.servings)}</span>
                      <span className="block text-xs text-muted-foreground">
                        {cell.set !== null
                          ? `${t("menuRequirements.servings.set")} · ${t("menuRequirements.servings.average", { count: cell.average })}`
                          : t("menuRequirements.servings.average", { count: cell.average })}
                      </span>
                    </td>
                  ))}
                  {canManage && (
                    <td className="px-2 py-1.5 text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t("menuRequirements.servings.edit_day", { date: date(day.date) })}
                        onClick={() => setEditing(day)}
                        data-testid={`servings-edit-${day.date}`}
                      >
                        <Pencil className="size-4" aria-hidden="true" />
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {editing && (
        <DayDialog cafeId={cafeId} day={editing} servings={servings} range={range} onClose={() => setEditing(null)} />
      )}
      {loading && (
        <ForecastDialog cafeId={cafeId} range={range} maxRows={forecastMaxRows} onClose={() => setLoading(false)} />
      )}
    </section>
  );
}

function DayDialog({
  cafeId,
  day,
  servings,
  range,
  onClose,
}: {
  cafeId: number;
  day: ServingsDay;
  servings: ExpectedServings;
  range: { from: string; to: string };
  onClose: () => void;
}) {
  const { t, date } = useI18n();
  const route = useRoute();
  const form = useForm({
    cafe: cafeId,
    date: day.date,
    servings: Object.fromEntries(
      day.cells.map((c) => [String(c.serviceId), c.set === null ? "" : String(c.set)]),
    ) as Record<string, string>,
    ...range,
  });
  const values = form.data.servings;
  const errors = form.errors as Record<string, string>;
  const save = (event: FormEvent) => {
    event.preventDefault();
    form.put(route("menu.servings.update"), { preserveScroll: true, onSuccess: () => onClose() });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("menuRequirements.servings.edit_day", { date: date(day.date) })}
      description={t("menuRequirements.servings.blank_is_average")}
      closeLabel={t("menuRequirements.servings.cancel")}
    >
      <form onSubmit={save} className="space-y-3" data-testid="servings-form">
        {day.cells.map((cell) => {
          const service = servings.services.find((s) => s.id === cell.serviceId)!;
          const key = String(cell.serviceId);
          return (
            <Field
              key={key}
              label={service.name}
              inputMode="numeric"
              value={values[key] ?? ""}
              placeholder={String(cell.average)}
              hint={t("menuRequirements.servings.average", { count: cell.average })}
              error={errors[`servings.${key}`]}
              onChange={(event) => {
                const value = event.target.value;
                form.setData((data) => ({ ...data, servings: { ...data.servings, [key]: value } }));
              }}
              data-testid={`servings-input-${service.code}`}
            />
          );
        })}
        {errors.date && <p className="text-sm text-destructive">{errors.date}</p>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            {t("menuRequirements.servings.cancel")}
          </Button>
          <Button type="submit" disabled={form.processing} data-testid="servings-save">
            {t("menuRequirements.servings.save")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ForecastDialog({
  cafeId,
  range,
  maxRows,
  onClose,
}: {
  cafeId: number;
  range: { from: string; to: string };
  maxRows: number;
  onClose: () => void;
}) {
  const { t, number } = useI18n();
  const route = useRoute();
  const flash = usePage().flash as Record<string, unknown> | undefined;
  const form = useForm<{ cafe: number; from: string; to: string; file: File | null }>({
    cafe: cafeId,
    ...range,
    file: null,
  });
  const [problems, setProblems] = useState<{ problems: string[]; moreProblems: number } | null>(null);
  useEffect(() => {
    const refused = flash?.menuForecast as { problems: string[]; moreProblems: number } | undefined;
    if (refused) setProblems(refused);
  }, [flash]);
  const send = (event: FormEvent) => {
    event.preventDefault();
    setProblems(null);
    form.post(route("menu.servings.import"), {
      preserveScroll: true,
      forceFormData: true,
      onSuccess: (page) => {
        if (!(page.flash as Record<string, unknown> | undefined)?.menuForecast && !page.props.errors?.file) onClose();
      },
    });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("menuRequirements.forecast.title")}
      description={t("menuRequirements.forecast.help")}
      closeLabel={t("menuRequirements.servings.cancel")}
      wide
    >
      <form onSubmit={send} className="space-y-3" data-testid="forecast-form">
        <Field
          label={t("menuRequirements.forecast.file")}
          type="file"
          accept=".xlsx,.xls,.ods,.csv"
          hint={t("menuRequirements.forecast.max_rows", { rows: number(maxRows) })}
          error={form.errors.file}
          onChange={(event) => form.setData("file", event.target.files?.[0] ?? null)}
          data-testid="forecast-file"
        />
        {problems && (
          <div
            role="alert"
            className="space-y-1 rounded-md border border-destructive/40 p-3 text-sm"
            data-testid="forecast-problems"
          >
            <p className="flex items-center gap-1 font-medium text-destructive">
              <AlertTriangle className="size-4" aria-hidden="true" />
              {t("menuRequirements.forecast.has_problems", { count: problems.problems.length + problems.moreProblems })}
            </p>
            <ul className="max-h-60 list-disc overflow-y-auto pl-5">
              {problems.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
            {problems.moreProblems > 0 && (
              <p>{t("menuRequirements.forecast.more_problems", { count: problems.moreProblems })}</p>
            )}
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            {t("menuRequirements.servings.cancel")}
          </Button>
          <Button type="submit" disabled={form.processing || form.data.file === null} data-testid="forecast-load">
            <Upload className="size-4" aria-hidden="true" />
            {t("menuRequirements.forecast.load")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
