/** How much of an uploaded sheet is read: the rows of one sheet, and its columns from the first. */
export const MAX_SHEET_ROWS = 20_000;
export const MAX_SHEET_COLUMNS = 64;
