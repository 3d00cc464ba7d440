/**
 * The report dialog of the Dinners and Sales pages: a date range (service dates) and the filters of the Sales page
 * (cafe, dealership, subdealership, service, sale type, other unit), a preview of the totals the workbook will hold
 * (sales, meals, base, IGV, total, and the voided sales left out), "Generate", the job's progress, and "Download".
 *
 * It talks to src/http/routes/sales-report.ts as JSON: the preview (asked again a moment after each change, the
 * earlier question abandoned), starting the `sales.report` job, and the download. The workbook is built on the
 * server in the background: progress arrives on the person's private channel (`JobUpdated`) and is asked for again
 * every few seconds in case a message was missed. Once the workbook is ready it downloads by itself ("Download"
 * stays for a second copy). The dialog may be closed meanwhile: opened again while the report is being made it shows
 * its progress (and downloads it when ready); opened after it is done, it shows the form, with a link to the last
 * report while the server keeps it. Dates are typed or picked (report-date-field.tsx), or chosen by a preset — this
 * month, last month, the last 7 days — counted in the cafe's time zone (report-dates.ts).
 *
 *   <SalesReportButton initial={{ cafe_ids: String(cafe.id) }} />
 */
import { usePage } from "@inertiajs/react";
import { AlertTriangle, CheckCircle2, Download, FileSpreadsheet, Loader2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { isRunning, useFollowedJob } from "../../hooks/use-followed-job";
import { useRoute } from "../../hooks/use-route";
import type { SharedProps } from "../../types";
import { fieldErrors, requestJson } from "../../lib/json-client";
import { Button, buttonClasses } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { SelectField } from "../ui/select-field";
import { ReportDateField } from "./report-date-field";
import { presetOf, presetRange, REPORT_PRESETS, type ReportPreset } from "./report-dates";
import type { SalesTotals } from "../../../../src/shared/sales/types";

/** The filter's fields as the server reads them (parseSalesFilter); "" does not filter. */
export interface ReportFilterFields {
  from: string;
  to: string;
  cafe_ids: string;
  dealership_id: string;
  subdealership_id: string;
  service_ids: string;
  sale_type: string;
  other_unit: string;
}

const EMPTY_FILTER: ReportFilterFields = {
  from: "",
  to: "",
  cafe_ids: "",
  dealership_id: "",
  subdealership_id: "",
  service_ids: "",
  sale_type: "",
  other_unit: "",
};

type Totals = SalesTotals;

interface Options {
  cafes: { id: number; name: string; unit: string; mine: string }[];
  dealerships: { id: number; name: string }[];
  subdealerships: { id: number; name: string; dealershipId: number }[];
  services: { id: number; code: string; name: string }[];
}

/** A report job as the server words it (src/http/routes/sales-report.ts, ReportJobView). */
interface ReportJob {
  id: number;
  state: "queued" | "running" | "succeeded" | "failed";
  progress: { done: number; total: number; label: string; text: string };
  filter: Record<string, string>;
  result: { lines: number; sheets: string[]; bytes: number; fileName: string; totals: Totals } | null;
  downloadUrl: string | null;
  expiresAt: string | null;
  error: string | null;
}

interface Preview {
  filter: Record<string, string>;
  totals: Totals;
  job: ReportJob | null;
  options?: Options;
}

/** How long the preview waits after a change before asking. */
const PREVIEW_DELAY_MS = 300;

/** The filter fields a page hands the dialog (its own cafe, the Sales page's filter); other fields are left out. */
type InitialFilter = Partial<Record<string, string | undefined>>;

function fieldsFrom(initial: InitialFilter = {}): ReportFilterFields {
  const fields = { ...EMPTY_FILTER };
  for (const key of Object.keys(EMPTY_FILTER) as (keyof ReportFilterFields)[]) {
    const value = initial[key];
    if (typeof value === "string") fields[key] = value;
  }
  return fields;
}

/** The button that opens the report dialog, and the dialog. `initial` fills the filters (a page's own cafe). */
export function SalesReportButton({ initial }: { initial?: InitialFilter }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} data-testid="sales-report-open">
        <FileSpreadsheet className="size-4" aria-hidden="true" />
        {t("reports.dialog.open")}
      </Button>
      {open && <SalesReportDialog initial={initial} onClose={() => setOpen(false)} />}
    </>
  );
}

export function SalesReportDialog({ initial, onClose }: { initial?: InitialFilter; onClose: () => void }) {
  const { t, money, number, dateTime } = useI18n();
  const route = useRoute();
  const timeZone = usePage<SharedProps>().props.settings.timezone;
  const [fields, setFields] = useState<ReportFilterFields>(() => fieldsFrom(initial));
  const [options, setOptions] = useState<Options | null>(null);
  const [totals, setTotals] = useState<Totals | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(true);
  const [job, setJob] = useState<ReportJob | null>(null);
  const [showForm, setShowForm] = useState(true);
  const [sending, setSending] = useState(false);
  const [typedInvalid, setTypedInvalid] = useState({ from: false, to: false });
  // The job whose workbook downloads by itself once ready: the one started here, or running when the dialog opened.
  const downloadWhenReady = useRef<number | null>(null);
  const [downloaded, setDownloaded] = useState(false);
  const running = isRunning(job);

  const query = (withOptions: boolean) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== "") params.set(key, value);
    if (withOptions) params.set("options", "1");
    return `${route("sales.report.preview")}?${params}`;
  };

  // The preview: at once when the dialog opens (with what the filters offer), then a moment after each change.
  useEffect(() => {
    const controller = new AbortController();
    // What the filters offer is asked for once, with the first preview that arrives.
    const withOptions = options === null;
    const timer = setTimeout(
      async () => {
        setLoading(true);
        try {
          const { status, body } = await requestJson<Preview>("GET", query(withOptions), undefined, {
            signal: controller.signal,
          });
          if (status === 422) {
            setErrors(fieldErrors(body));
            setTotals(null);
          } else if (status === 200 && body) {
            setErrors({});
            setTotals(body.totals);
            if (body.options) setOptions(body.options);
            if (withOptions) {
              // The server's defaults (this month up to today) fill the empty dates.
              setFields((current) => ({ ...current, from: body.filter.from, to: body.filter.to }));
              // Opened again: a report still being made shows its progress (and downloads when ready); a finished
              // one stays behind the form, as a link.
              setJob(body.job);
              if (isRunning(body.job)) {
                downloadWhenReady.current = body.job!.id;
                setShowForm(false);
              }
            }
          }
        } catch (error) {
          if ((error as Error).name !== "AbortError") setErrors({ form: t("reports.dialog.failed") });
        } finally {
          if (!controller.signal.aborted) setLoading(false);
        }
      },
      withOptions ? 0 : PREVIEW_DELAY_MS,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [fields]);

  // A running job: its progress heard live, and asked for again every few seconds; once finished, read in full.
  useFollowedJob(job, setJob, async () => (await requestJson<Preview>("GET", query(false))).body?.job);

  // The workbook of the report asked for here downloads as soon as it is ready.
  useEffect(() => {
    if (job === null || job.state !== "succeeded" || !job.downloadUrl || !job.result) return;
    if (downloadWhenReady.current !== job.id) return;
    downloadWhenReady.current = null;
    const link = document.createElement("a");
    link.href = job.downloadUrl;
    link.download = job.result.fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setDownloaded(true);
  }, [job?.id, job?.state, job?.downloadUrl]);

  const set = (name: keyof ReportFilterFields) => (value: string) =>
    setFields((current) => ({
      ...current,
      [name]: value,
      // A subdealership belongs to its dealership.
      ...(name === "dealership_id" ? { subdealership_id: "" } : {}),
    }));

  const generate = async () => {
    setSending(true);
    try {
      const body = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ""));
      const answer = await requestJson<{ job: ReportJob }>("POST", route("sales.report.store"), body);
      if (answer.status === 202 && answer.body) {
        downloadWhenReady.current = answer.body.job.id;
        setDownloaded(false);
        setJob(answer.body.job);
        setShowForm(false);
        setErrors({});
      } else if (answer.status === 422) setErrors(fieldErrors(answer.body));
      else setErrors({ form: t("reports.dialog.failed") });
    } catch {
      setErrors({ form: t("reports.dialog.failed") });
    } finally {
      setSending(false);
    }
  };

  const newReport = () => {
    if (job && !running) void requestJson("POST", route("jobs.dismiss", { job: job.id }), {});
    setJob(null);
    setShowForm(true);
  };

  const cafeOptions = useMemo(
    () => [
      { value: "", label: t("reports.dialog.all_cafes") },
      ...(options?.cafes ?? []).map((c) => ({ value: String(c.id), label: c.name, group: `${c.mine} › ${c.unit}` })),
    ],
    [options, t],
  );
  const subdealershipOptions = [
    { value: "", label: t("reports.dialog.all_subdealerships") },
    ...(options?.subdealerships ?? [])
      .filter((s) => fields.dealership_id === "" || String(s.dealershipId) === fields.dealership_id)
      .map((s) => ({ value: String(s.id), label: s.name })),
  ];

  const describedError = (name: string): string | undefined => errors[name];

  // A preset's dates, counted in the cafe's time zone; the preset the dates are now, if any.
  const activePreset = presetOf(fields.from, fields.to, new Date(), timeZone);
  const choosePreset = (preset: ReportPreset) =>
    setFields((current) => ({ ...current, ...presetRange(preset, new Date(), timeZone) }));
  // A finished report the server still keeps, behind the form.
  const lastReport =
    job !== null && !running && job.state === "succeeded" && job.downloadUrl !== null && job.result !== null
      ? job
      : null;

  return (
    <Dialog
      open
      onClose={onClose}
      title={t("reports.dialog.title")}
      description={t("reports.dialog.description")}
      closeLabel={t("reports.dialog.close")}
      wide
    >
      {showForm ? (
        <form
          className="space-y-4"
          data-testid="sales-report-form"
          onSubmit={(event) => {
            event.preventDefault();
            void generate();
          }}
        >
          {lastReport && (
            <p
              className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground"
              data-testid="report-last"
            >
              <span>
                {t("reports.dialog.last_report", { file: lastReport.result!.fileName })}
                {lastReport.expiresAt && ` ${t("reports.dialog.kept_until", { time: dateTime(lastReport.expiresAt) })}`}
              </span>
              <a
                href={lastReport.downloadUrl!}
                download={lastReport.result!.fileName}
                className="inline-flex items-center gap-1 font-medium text-foreground underline underline-offset-4"
                data-testid="report-last-download"
              >
                <Download className="size-4" aria-hidden="true" />
                {t("reports.dialog.download")}
              </a>
            </p>
          )}
          <div role="group" aria-label={t("reports.dialog.presets")} className="flex flex-wrap gap-2">
            {REPORT_PRESETS.map((preset) => (
              <Button
                key={preset}
                type="button"
                size="sm"
                variant={activePreset === preset ? "primary" : "outline"}
                aria-pressed={activePreset === preset}
                onClick={() => choosePreset(preset)}
                data-testid={`report-preset-${preset}`}
              >
                {t(`reports.dialog.preset_${preset}`)}
              </Button>
            ))}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <ReportDateField
              label={t("reports.dialog.from")}
              value={fields.from}
              onChange={set("from")}
              onInvalid={(invalid) => setTypedInvalid((current) => ({ ...current, from: invalid }))}
              max={fields.to || undefined}
              error={describedError("from")}
              testId="report-from"
            />
            <ReportDateField
              label={t("reports.dialog.to")}
              value={fields.to}
              onChange={set("to")}
              onInvalid={(invalid) => setTypedInvalid((current) => ({ ...current, to: invalid }))}
              min={fields.from || undefined}
              error={describedError("to")}
              testId="report-to"
            />
            <SelectField
              label={t("reports.dialog.cafe")}
              value={fields.cafe_ids}
              onValueChange={set("cafe_ids")}
              options={cafeOptions}
              searchable={cafeOptions.length > 12}
              error={describedError("cafe_ids")}
              data-testid="report-cafe"
            />
            <SelectField
              label={t("reports.dialog.service")}
              value={fields.service_ids}
              onValueChange={set("service_ids")}
              options={[
                { value: "", label: t("reports.dialog.all_services") },
                ...(options?.services ?? []).map((s) => ({ value: String(s.id), label: s.name })),
              ]}
              error={describedError("service_ids")}
              data-testid="report-service"
            />
            <SelectField
              label={t("reports.dialog.dealership")}
              value={fields.dealership_id}
              onValueChange={set("dealership_id")}
              options={[
                { value: "", label: t("reports.dialog.all_dealerships") },
                ...(options?.dealerships ?? []).map((d) => ({ value: String(d.id), label: d.name })),
              ]}
              searchable={(options?.dealerships.length ?? 0) > 12}
              error={describedError("dealership_id")}
              data-testid="report-dealership"
            />
            <SelectField
              label={t("reports.dialog.subdealership")}
              value={fields.subdealership_id}
              onValueChange={set("subdealership_id")}
              options={subdealershipOptions}
              searchable={subdealershipOptions.length > 12}
              error={describedError("subdealership_id")}
              data-testid="report-subdealership"
            />
            <SelectField
              label={t("reports.dialog.sale_type")}
              value={fields.sale_type}
              onValueChange={set("sale_type")}
              options={[
                { value: "", label: t("reports.dialog.all_sale_types") },
                { value: "credit", label: t("reports.sale_types.credit") },
                { value: "cash", label: t("reports.sale_types.cash") },
              ]}
              error={describedError("sale_type")}
              data-testid="report-sale-type"
            />
            <SelectField
              label={t("reports.dialog.other_unit")}
              value={fields.other_unit}
              onValueChange={set("other_unit")}
              options={[
                { value: "", label: t("reports.dialog.other_unit_any") },
                { value: "1", label: t("reports.dialog.other_unit_yes") },
                { value: "0", label: t("reports.dialog.other_unit_no") },
              ]}
              error={describedError("other_unit")}
              data-testid="report-other-unit"
            />
          </div>

          <section
            aria-label={t("reports.dialog.preview")}
            aria-busy={loading}
            className="space-y-2 rounded-md border bg-muted/40 px-4 py-3 text-sm"
            data-testid="report-preview"
          >
            <h3 className="font-medium">{t("reports.dialog.preview")}</h3>
            {totals ? (
              <>
                <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-5">
                  {(
                    [
                      ["sales", number(totals.sales)],
                      ["meals", number(totals.meals)],
                      ["base", money(totals.baseCents)],
                      ["igv", money(totals.igvCents)],
                      ["total", money(totals.totalCents)],
                    ] as const
                  ).map(([key, value]) => (
                    <div key={key} className="min-w-0">
                      <dt className="text-xs text-muted-foreground">{t(`reports.dialog.${key}`)}</dt>
                      <dd className="font-medium tabular-nums" data-testid={`report-total-${key}`}>
                        {value}
                      </dd>
                    </div>
                  ))}
                </dl>
                {totals.sales === 0 && <p className="text-muted-foreground">{t("reports.dialog.nothing")}</p>}
                {totals.voidedSales > 0 && (
                  <p className="text-muted-foreground" data-testid="report-voided">
                    {t("reports.dialog.voided", { count: totals.voidedSales, total: money(totals.voidedCents) })}
                  </p>
                )}
              </>
            ) : (
              <p className="text-muted-foreground">{loading ? t("reports.dialog.preview_loading") : "\u00a0"}</p>
            )}
            <p role="status" aria-live="polite" className="sr-only">
              {loading
                ? t("reports.dialog.preview_loading")
                : totals
                  ? `${t("reports.dialog.total")}: ${money(totals.totalCents)}`
                  : ""}
            </p>
          </section>

          {errors.form && (
            <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {errors.form}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onClose}>
              {t("reports.dialog.cancel")}
            </Button>
            <Button
              type="submit"
              disabled={
                sending || typedInvalid.from || typedInvalid.to || Object.keys(errors).some((k) => k !== "form")
              }
              data-testid="report-generate"
            >
              {sending && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
              {t("reports.dialog.generate")}
            </Button>
          </div>
        </form>
      ) : (
        job && (
          <JobPanel
            job={job}
            onNew={newReport}
            onClose={onClose}
            running={running}
            downloaded={downloaded}
            dateTime={dateTime}
          />
        )
      )}
    </Dialog>
  );
}

function JobPanel({
  job,
  running,
  downloaded,
  onNew,
  onClose,
  dateTime,
}: {
  job: ReportJob;
  running: boolean;
  downloaded: boolean;
  onNew: () => void;
  onClose: () => void;
  dateTime: (value: string) => string;
}) {
  const { t } = useI18n();
  if (running) {
    const { done, total, text } = job.progress;
    const label =
      job.state === "queued"
        ? t("jobs.queued")
        : total > 0
          ? t("jobs.progress_count", { label: text, done, total })
          : `${text}…`;
    return (
      <section className="space-y-3 text-sm" data-testid="report-job" data-state="running">
        <p className="flex items-center gap-2 font-medium">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {t("reports.dialog.generating")}
        </p>
        <progress
          className="h-2 w-full accent-primary"
          aria-label={label}
          {...(total > 0 ? { value: done, max: total } : {})}
        />
        <p role="status" aria-live="polite" className="text-xs text-muted-foreground">
          {label}
        </p>
        <p className="text-xs text-muted-foreground">{t("reports.dialog.in_background")}</p>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            {t("reports.dialog.close")}
          </Button>
        </div>
      </section>
    );
  }
  const ready = job.state === "succeeded" && job.downloadUrl !== null && job.result !== null;
  return (
    <section className="space-y-3 text-sm" data-testid="report-job" data-state={ready ? "ready" : "failed"}>
      {ready ? (
        <>
          <p role="status" className="flex items-start gap-2 font-medium">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
            {t("reports.dialog.ready", { lines: job.result!.lines, sheets: job.result!.sheets.length })}
          </p>
          <p className="text-muted-foreground">{job.result!.fileName}</p>
          {downloaded && (
            <p className="text-muted-foreground" data-testid="report-downloaded">
              {t("reports.dialog.downloaded")}
            </p>
          )}
          {job.expiresAt && (
            <p className="text-xs text-muted-foreground">
              {t("reports.dialog.kept_until", { time: dateTime(job.expiresAt) })}
            </p>
          )}
        </>
      ) : (
        <p role="alert" className="flex items-start gap-2 text-destructive">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {job.error ?? t("reports.dialog.failed")}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onNew} data-testid="report-new">
          {t("reports.dialog.new_report")}
        </Button>
        {ready && (
          <a
            href={job.downloadUrl!}
            download={job.result!.fileName}
            className={buttonClasses("primary")}
            data-testid="report-download"
          >
            <Download className="size-4" aria-hidden="true" />
            {t("reports.dialog.download")}
          </a>
        )}
      </div>
    </section>
  );
}
