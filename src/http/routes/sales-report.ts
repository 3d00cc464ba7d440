/**
 * The report dialog of the Dinners and Sales pages (resources/js/components/sales/report-dialog.tsx), as JSON:
 *
 * - `sales.report.preview` (GET): the totals a filter's workbook would hold (sales, lines, meals, base, IGV, total,
 *   the voided sales left out), the person's latest report and, with `options=1`, what the filters offer (the cafes of
 *   their scope, dealerships, subdealerships, services);
 * - `sales.report.store` (POST): starts the `sales.report` job with the filter (src/domain/jobs/sales-report.ts) and
 *   answers 202 with it; the workbook is written into a file reserved for the job under STORAGE_PATH/jobs, one report
 *   per person at a time (a second one while the first runs is refused on the `form` field);
 * - `sales.report.download` (GET): the finished workbook, only for the person who made it (anyone else's job, like a
 *   missing or expired one, is 404), while the job keeps it: until they dismiss it (`jobs.dismiss`), start another
 *   report, or UPLOAD_KEPT_MS (30 minutes) is up.
 *
 * The dialog follows the job on the owner's private channel (`JobUpdated`) and asks `jobs.show` again every few
 * seconds; a request without `Accept: application/json` is sent back to the page it came from.
 */
import { message } from "../../shared/message";
import { holdsUpload, latestJob, uploadExpiresAt, type Job, type JobState } from "../../domain/jobs/jobs";
import { SALES_REPORT, type SalesReportInput, type SalesReportResult } from "../../domain/jobs/sales-report";
import { dateIn } from "../../shared/calendar";
import {
  parseSalesFilter,
  requireFilterInScope,
  salesFilterOptions,
  salesFilterQuery,
  salesTotals,
  type SalesTotals,
} from "../../domain/sales/report";
import { reportFilter } from "../../domain/sales/report-workbook";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";
import { JOB_ID, startWorkbookJob, workbookDownload } from "../workbook-jobs";

/** A report job as the dialog shows it, worded in the viewer's language. */
export interface ReportJobView {
  id: number;
  state: JobState;
  progress: { done: number; total: number; label: string; text: string };
  /** The query string of the filter it was made with (the dialog shows it was this filter). */
  filter: ReturnType<typeof salesFilterQuery>;
  /** Once it succeeded: its totals and its file, and until when it may be downloaded. */
  result: Pick<SalesReportResult, "totals" | "billing" | "lines" | "sheets" | "bytes" | "fileName"> | null;
  downloadUrl: string | null;
  expiresAt: string | null;
  /** Why it failed, or that its file is gone. */
  error: string | null;
}

export function reportJobView(ctx: RequestContext, job: Job): ReportJobView {
  const input = job.input as SalesReportInput;
  const result = job.state === "succeeded" ? (job.result as SalesReportResult) : null;
  const available = result !== null && holdsUpload(job);
  const { done, total, label } = job.progress;
  return {
    id: job.id,
    state: job.state,
    progress: {
      done,
      total,
      label,
      text: job.state === "queued" || !label ? ctx.t("jobs.queued") : ctx.t(label),
    },
    filter: salesFilterQuery(input.filter),
    result: result && {
      totals: result.totals,
      billing: result.billing,
      lines: result.lines,
      sheets: result.sheets,
      bytes: result.bytes,
      fileName: result.fileName,
    },
    downloadUrl: available ? ctx.urlFor("sales.report.download", { job: job.id }) : null,
    expiresAt: available ? (uploadExpiresAt(job)?.toISOString() ?? null) : null,
    error: job.error ? ctx.say(job.error) : result !== null && !available ? ctx.t("reports.expired") : null,
  };
}

/** The signed-in person's latest report they have not dismissed, as the dialog shows it, or null. */
export function latestReportView(ctx: RequestContext): ReportJobView | null {
  const job = latestJob(ctx.db, ctx.user!.id, SALES_REPORT);
  return job ? reportJobView(ctx, job) : null;
}

const noStore = { "cache-control": "no-store" };

export const salesReportRoutes = defineRoutes([
  {
    name: "sales.report.preview",
    methods: ["GET"],
    uri: "/sales/report/preview",
    access: access.can("sales.view"),
    handle: (ctx) => {
      const filter = parseSalesFilter(ctx.query, dateIn(ctx.config.timezone));
      requireFilterInScope(ctx.db, ctx.scope, filter);
      const totals: SalesTotals = salesTotals(ctx.db, ctx.scope, reportFilter(filter));
      return Response.json(
        {
          filter: salesFilterQuery(filter),
          totals,
          job: latestReportView(ctx),
          ...(ctx.query.options === "1" ? { options: salesFilterOptions(ctx.db, ctx.scope) } : {}),
        },
        { headers: noStore },
      );
    },
  },
  {
    name: "sales.report.store",
    methods: ["POST"],
    uri: "/sales/report",
    access: access.can("sales.view"),
    handle: (ctx) => {
      const filter = reportFilter(parseSalesFilter(ctx.body, dateIn(ctx.config.timezone)));
      requireFilterInScope(ctx.db, ctx.scope, filter);
      const job = startWorkbookJob(ctx, SALES_REPORT, message("reports.busy"), (path): SalesReportInput => ({
        filter,
        path,
        locale: ctx.locale,
        generatedBy: ctx.user!.name,
        timeZone: ctx.config.timezone,
      }));
      if (ctx.wantsJson) return Response.json({ job: reportJobView(ctx, job) }, { status: 202, headers: noStore });
      return ctx.back(ctx.urlFor("dinners.index"));
    },
  },
  {
    name: "sales.report.download",
    methods: ["GET"],
    uri: "/sales/report/{job}/download",
    wheres: { job: JOB_ID },
    access: access.can("sales.view"),
    // Only the person's own finished report, while its file is kept; anything else reads as missing.
    handle: (ctx) => workbookDownload(ctx, SALES_REPORT),
  },
]);
