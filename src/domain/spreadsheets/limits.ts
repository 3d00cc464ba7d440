/** How much of an uploaded sheet is read: the rows of one sheet, and its columns from the first. */
export const MAX_SHEET_ROWS = 20_000;
export const MAX_SHEET_COLUMNS = 64;
/**
 * The most cells SheetJS is asked to keep for one sheet of an imported file (30 columns of 100,000 rows), counted
 * from the sheet's XML before it is parsed (sheet-size.ts): a few MiB of zip may otherwise hold many millions.
 */
export const MAX_SHEET_CELLS = 3_000_000;
