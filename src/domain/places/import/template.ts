/**
 * The template to fill in and the sheets an export writes, exactly as the import reads them.
 */
import type { ServiceType } from "../../../../db/schema";
import type { ExportSheet } from "../../spreadsheets/write";
import { COLUMNS, SHEET_COLUMNS, SHEETS, TYPE_NAMES, type ColumnKey, type Language, type SheetKind } from "./format";

/** One row of a sheet of the places workbook, by column. */
export type WorkbookRow = Partial<Record<ColumnKey, string | number>>;

export type PlacesSheetKind = SheetKind;

/**
 * A sheet of the places workbook exactly as the import reads it: its name and headers in `language`, its columns
 * in order; the Example column only when `withExamples`. A price is written as a number of soles.
 */
export function workbookSheet(
  kind: SheetKind,
  language: Language,
  rows: WorkbookRow[],
  withExamples = false,
): ExportSheet<WorkbookRow> {
  return {
    name: SHEETS[kind][language],
    columns: SHEET_COLUMNS[kind]
      .filter(({ key }) => withExamples || key !== "example")
      .map(({ key }) => ({
        header: COLUMNS[key][language],
        value: (row: WorkbookRow) => row[key] ?? null,
        format: key === "price" ? "0.00" : undefined,
        width: key === "description" || key === "business" || key === "example" ? 30 : 18,
      })),
    rows,
  };
}

/** The sheets in the order they are applied (and written). */
export const PLACES_SHEETS: readonly SheetKind[] = Object.keys(SHEETS) as SheetKind[];

/** A service's type as a workbook names it. */
export function serviceTypeName(type: ServiceType, language: Language): string {
  return TYPE_NAMES[type][language];
}

/** Yes or no as a workbook writes it. */
export function yesNo(value: boolean, language: Language): string {
  return value ? (language === "es" ? "sí" : "yes") : "no";
}

/** An existing service the template's example rows use, so the example shows a real code. */
export interface TemplateService {
  code: string;
  name: string;
  type: ServiceType;
  description: string;
}

/**
 * The workbook to fill in: the five sheets with their headers in `language` and one example row each, marked in
 * the first column (Ejemplo / Example) so it is never imported: the import skips marked rows and says so. The
 * example cafe has `business`; the example service is `service` when given (an existing one), else a breakfast.
 */
export function placesTemplate(
  language: Language,
  example: { business: string; timeZone: string; service?: TemplateService },
): ExportSheet<WorkbookRow>[] {
  const service = example.service ?? {
    code: "DES",
    name: language === "es" ? "Desayuno" : "Breakfast",
    type: "breakfast" as const,
    description: language === "es" ? "Desayuno del turno día" : "Day shift breakfast",
  };
  const sample: WorkbookRow = {
    example: EXAMPLE_MARK[language],
    services: service.code,
    mine: language === "es" ? "Mina Ejemplo" : "Example Mine",
    unit: language === "es" ? "Unidad Norte" : "North Unit",
    cafe: language === "es" ? "Comedor Principal" : "Main Cafe",
    business: example.business,
    timeZone: example.timeZone,
    code: service.code,
    type: TYPE_NAMES[service.type][language],
    description: service.description,
    active: yesNo(true, language),
    service: service.code,
    price: 12.5,
  };
  const rowFor: Record<SheetKind, WorkbookRow> = {
    services: { ...sample, name: service.name },
    mines: { ...sample, name: sample.mine },
    units: { ...sample, name: sample.unit },
    cafes: { ...sample, name: sample.cafe },
    prices: sample,
  };
  return PLACES_SHEETS.map((kind) => workbookSheet(kind, language, [rowFor[kind]], true));
}

/** What the template writes in the Example column of its example rows. */
export const EXAMPLE_MARK: Record<Language, string> = {
  es: "EJEMPLO (no se importa)",
  en: "EXAMPLE (not imported)",
};
