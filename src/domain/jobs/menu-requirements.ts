/**
 * The purchasing workbook of a cafe's published menu as a job (src/domain/menu/requirements.ts): started from the
 * Compras page (`menu.requirements.export`) with a cafe and a date range, it works out what to buy with the scope of
 * who started it and writes the workbook into the file the route reserved for it under STORAGE_PATH/jobs. The
 * finished job keeps that file for its owner to download (the jobs' kept-upload rule); a failed job's is deleted.
 *
 * The workbook (streamed by src/domain/sales/xlsx-stream.ts: amounts are numbers in soles with the soles format,
 * columns sized, header rows bold and frozen):
 * - **Resumen / Summary**: a row per provider (RUC, contact, phone, ingredients, total net of IGV) and the grand total,
 *   then the cafe, its city, the level, the dates, who made it and when, and the dishes without a recipe;
 * - **a sheet per provider**, named after it: a row per presentation bought of each ingredient (the cheapest mix of
 *   the provider's presentations, requirements-packs.ts), with what is needed on the ingredient's first row, the
 *   presentation, how many to buy, the quantity bought, the presentation's price net of IGV and the cost, and a note
 *   when a larger presentation is cheaper per unit; the provider's total;
 * - **Sin oferta / No offer**: ingredients needed that have no offer in the cafe's city, with the dishes needing them;
 * - **Comensales / Servings**: the expected servings per day and meal service that the quantities come from.
 *
 * Text that would start a formula (a phone "+51 …", a name "=…") is written as it is, in a cell marked as text
 * (`quotePrefix`, what Excel does for text typed after an apostrophe): it shows without an apostrophe and never
 * turns into a formula, not even when the cell is edited.
 *
 * `./mesa menu:requirements` runs the same handler in its own process, writing to the file it was given.
 */
import { translate, type Locale, type KeysUnder, type TranslationParams } from "../../shared/i18n";
import type { BaseUnitCode } from "../../shared/food/composition";
import { levelLabel } from "../../shared/food/built-in-levels";
import { checkRange } from "../menu/expected-servings";
import { menuRequirements } from "../menu/requirements";
import { type Requirements } from "../../shared/menu/types";
import { largerPackNoteWords } from "../../shared/menu/requirements-note";
import { excelDate, openXlsxStream, type XlsxColumn } from "../sales/xlsx-stream";
import { ValidationFailed } from "../errors";
import { JobFailed, type JobHandler } from "./runner";
import type { MenuRequirementsResult } from "../../shared/menu/types";
export type { MenuRequirementsResult } from "../../shared/menu/types";

export const MENU_REQUIREMENTS = "menu.requirements";

export interface MenuRequirementsInput {
  cafeId: number;
  from: string;
  to: string;
  /** The file to write: the job's reserved file, or the one named on the command line. */
  path: string;
  locale: Locale;
  generatedBy: string;
  /** The time zone the Summary says when it was made in (APP_TIMEZONE). */
  timeZone: string;
  /** The IGV rate prices are netted with (IGV_RATE, basis points). */
  igvRate: number;
}

/** Progress labels (translation keys). */
export const REQUIREMENTS_PROGRESS = {
  reading: "menuRequirements.export.progress_reading",
  writing: "menuRequirements.export.progress_writing",
} as const;

/** The workbook's file name: "compras-comedor-norte-2026-12-07-2026-12-13.xlsx". */
export function requirementsFileName(cafeName: string, from: string, to: string, locale: Locale): string {
  const cafe =
    cafeName
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "comedor";
  return translate(locale, "menuRequirements.workbook.file_name", { cafe, from, to });
}

const soles = (cents: number) => cents / 100;
/** Quantities keep three decimals (a thousandth of a gram is far below any scale). */
const quantity = (value: number) => Math.round(value * 1000) / 1000;

/** Writes the requirements workbook to `path`; returns its sheets and size. The file is deleted if writing fails. */
export function writeRequirementsWorkbook(
  r: Requirements,
  path: string,
  options: { locale: Locale; generatedBy: string; timeZone: string; progress?: (done: number, total: number) => void },
): { sheets: string[]; bytes: number } {
  const t = (key: KeysUnder<"menuRequirements">, params?: TranslationParams) =>
    translate(options.locale, `menuRequirements.${key}`, params);
  const unit = (u: BaseUnitCode) => t(`units.${u}`);
  const book = openXlsxStream(path, { formulaText: "quote-prefix" });
  const sheets: string[] = [];
  const total = r.providers.length + 3;
  let done = 0;
  const step = () => options.progress?.(++done, total);
  try {
    // Summary
    sheets.push(
      book.startSheet(t("workbook.summary"), [
        { header: t("columns.provider"), width: 34 },
        { header: t("columns.ruc"), width: 14 },
        { header: t("columns.contact"), width: 22 },
        { header: t("columns.phone"), width: 14 },
        { header: t("columns.lines"), width: 12, format: "integer" },
        { header: t("columns.cost"), width: 16, format: "money" },
      ]),
    );
    for (const p of r.providers)
      book.row([p.providerName, p.ruc, p.contact, p.phone, p.lines.length, soles(p.totalCents)]);
    book.row(
      [t("workbook.total"), null, null, null, r.providers.reduce((n, p) => n + p.lines.length, 0), soles(r.totalCents)],
      { bold: true },
    );
    book.row([]);
    const generatedAt = new Intl.DateTimeFormat(options.locale === "es" ? "es-PE" : "en-GB", {
      dateStyle: "short",
      timeStyle: "short",
      hourCycle: "h23",
      timeZone: options.timeZone,
    }).format(new Date());
    book.row([t("workbook.cafe"), r.cafe.name]);
    book.row([t("workbook.city"), r.cafe.cityName]);
    book.row([t("workbook.level"), levelLabel(r.level.name, options.locale)]);
    book.row([t("workbook.range"), `${r.from} – ${r.to}`]);
    book.row([t("workbook.generated"), generatedAt]);
    book.row([t("workbook.generated_by"), options.generatedBy]);
    if (r.dishesWithoutRecipe.length) {
      book.row([]);
      book.row([t("workbook.no_recipe"), t("columns.servings")], { bold: true });
      for (const d of r.dishesWithoutRecipe) book.row([d.dishName, d.servings]);
    }
    step();

    // A sheet per provider
    const providerColumns: XlsxColumn[] = [
      { header: t("columns.category"), width: 18 },
      { header: t("columns.ingredient"), width: 30 },
      { header: t("columns.unit"), width: 8 },
      { header: t("columns.needed"), width: 13, format: "integer" },
      { header: t("columns.presentation"), width: 20 },
      { header: t("columns.presentation_quantity"), width: 11, format: "integer" },
      { header: t("columns.presentations"), width: 15, format: "integer" },
      { header: t("columns.bought"), width: 18, format: "integer" },
      { header: t("columns.unit_price"), width: 20, format: "money" },
      { header: t("columns.cost"), width: 16, format: "money" },
      { header: t("columns.note"), width: 60 },
    ];
    for (const p of r.providers) {
      sheets.push(book.startSheet(p.providerName, providerColumns));
      for (const l of p.lines) {
        const note = largerPackNoteWords(l, options.locale);
        l.packs.forEach((pack, i) =>
          book.row([
            l.categoryName,
            l.ingredientName,
            unit(l.baseUnit),
            i === 0 ? quantity(l.neededQuantity) : null,
            pack.presentation,
            quantity(pack.presentationQuantity),
            pack.presentations,
            quantity(pack.presentations * pack.presentationQuantity),
            Math.round(pack.presentationNetCents * 100) / 10_000,
            soles(pack.costCents),
            i === 0 && note ? translate(options.locale, note.key, note.params) : null,
          ]),
        );
      }
      book.row(
        [
          t("needs.provider_total", { provider: p.providerName }),
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          soles(p.totalCents),
        ],
        {
          bold: true,
        },
      );
      step();
    }

    // Without an offer
    sheets.push(
      book.startSheet(t("workbook.missing"), [
        { header: t("columns.category"), width: 18 },
        { header: t("columns.ingredient"), width: 30 },
        { header: t("columns.unit"), width: 8 },
        { header: t("columns.needed"), width: 13, format: "integer" },
        { header: t("needs.dishes"), width: 50 },
      ]),
    );
    for (const m of r.missing)
      book.row([m.categoryName, m.ingredientName, unit(m.baseUnit), quantity(m.neededQuantity), m.dishes.join(", ")]);
    step();

    // Servings
    sheets.push(
      book.startSheet(t("workbook.servings"), [
        { header: t("columns.date"), width: 12, format: "date" },
        ...r.servings.services.map((s) => ({
          header: s.name,
          width: Math.max(10, s.name.length + 2),
          format: "integer" as const,
        })),
      ]),
    );
    for (const day of r.servings.days) book.row([excelDate(day.date), ...day.cells.map((c) => c.servings)]);
    step();
    return { sheets, bytes: book.close() };
  } catch (error) {
    book.abort();
    throw error;
  }
}

export const menuRequirementsJob: JobHandler<MenuRequirementsInput, MenuRequirementsResult> = {
  kind: MENU_REQUIREMENTS,
  async run({ db, scope, input, progress, checkpoint, keepUpload }) {
    progress(0, 0, REQUIREMENTS_PROGRESS.reading);
    await checkpoint();
    let from: string, to: string, r: Requirements;
    try {
      ({ from, to } = checkRange(input.from, input.to));
      r = menuRequirements(db, scope, input.cafeId, from, to, { igvRate: input.igvRate });
    } catch (error) {
      // A range or cafe that cannot be bought for (checked again here: the job may wait its turn) fails with why.
      if (error instanceof ValidationFailed) throw new JobFailed(Object.values(error.errors)[0] ?? "errors.validation");
      throw error;
    }
    progress(0, r.providers.length + 3, REQUIREMENTS_PROGRESS.writing);
    await checkpoint();
    const { sheets, bytes } = writeRequirementsWorkbook(r, input.path, {
      locale: input.locale,
      generatedBy: input.generatedBy,
      timeZone: input.timeZone,
      progress: (done, total) => progress(done, total, REQUIREMENTS_PROGRESS.writing),
    });
    // The workbook is the job's result: kept for its owner to download.
    keepUpload();
    return {
      cafeName: r.cafe.name,
      from,
      to,
      providers: r.providers.length,
      lines: r.providers.reduce((n, p) => n + p.lines.length, 0),
      missing: r.missing.length,
      totalCents: r.totalCents,
      sheets,
      bytes,
      fileName: requirementsFileName(r.cafe.name, from, to, input.locale),
    };
  },
};
