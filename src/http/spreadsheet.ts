/** Sending an Excel export: the workbook as a download named after the table and the day it was made. */
import { buildWorkbook, type ExportSheet } from "../domain/spreadsheets/write";
import { dateIn } from "../shared/calendar";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** `mines` + now → `mesa-mines-2026-11-22.xlsx`, with the date in the given time zone. */
export function exportFileName(table: string, timeZone: string, now = new Date()): string {
  return `mesa-${table}-${dateIn(timeZone, now)}.xlsx`;
}

export function xlsxResponse(fileName: string, sheets: ExportSheet<any>[]): Response {
  return new Response(buildWorkbook(sheets), {
    headers: {
      "content-type": XLSX_TYPE,
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    },
  });
}
