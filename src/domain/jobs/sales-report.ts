/**
 * The sales report workbook as a job (src/domain/sales/report-workbook.ts): started from the report dialog of the
 * Dinners and Sales pages with a filter, it writes the workbook into the file the route reserved for it under
 * STORAGE_PATH/jobs (never a public folder), reporting the detail rows written of all of them. The finished job keeps
 * that file for its owner to download (the jobs' kept-upload rule: until they dismiss it, start another report, or
 * UPLOAD_KEPT_MS is up); a failed job's file is deleted. Every range goes through the job, small or large: one path.
 *
 * `./mesa report:sales` runs the same handler in its own process with a progress bar, writing to the file it was
 * given. Result: the totals, the billing totals, the sheets and the file's size and name.
 */
import type { Locale } from "../../shared/i18n";
import type { SalesFilter } from "../sales/report";
import { reportFileName, writeSalesReport, type ReportSummary } from "../sales/report-workbook";
import type { JobHandler } from "./runner";

export const SALES_REPORT = "sales.report";

export interface SalesReportInput {
  /** What the person asked for (parsed by parseSalesFilter); voided sales are always left out and counted apart. */
  filter: SalesFilter;
  /** The file to write: the job's reserved file, or the one named on the command line. */
  path: string;
  /** The workbook's language, and who asked for it (the Report sheet). */
  locale: Locale;
  generatedBy: string;
  /** The time zone the Report sheet says when it was made in (APP_TIMEZONE). */
  timeZone: string;
}

export interface SalesReportResult extends ReportSummary {
  /** The name the workbook is downloaded as. */
  fileName: string;
}

/** Progress labels (translation keys). */
export const REPORT_PROGRESS = {
  totals: "reports.progress_totals",
  detail: "reports.progress_detail",
} as const;

export const salesReportJob: JobHandler<SalesReportInput, SalesReportResult> = {
  kind: SALES_REPORT,
  async run({ db, scope, input, progress, checkpoint, keepUpload }) {
    progress(0, 0, REPORT_PROGRESS.totals);
    await checkpoint();
    const summary = await writeSalesReport(db, scope, input.filter, input.path, {
      locale: input.locale,
      generatedBy: input.generatedBy,
      timeZone: input.timeZone,
      progress: (done, total) => progress(done, total, REPORT_PROGRESS.detail),
    });
    // The workbook is the job's result: kept for its owner to download.
    keepUpload();
    return { ...summary, fileName: reportFileName(input.filter, input.locale) };
  },
};
