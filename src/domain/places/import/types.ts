/**
 * What a places import shows and returns: problems, counts, planned changes and the preview.
 */
import type { Message } from "../../../shared/message";

/** What the actor may change: places.manage, services.manage and prices.manage. */
export interface ImportAbilities {
  places: boolean;
  services: boolean;
  prices: boolean;
}

export const ALL_ABILITIES: ImportAbilities = { places: true, services: true, prices: true };

/** One problem of the workbook: the sheet as named in the file, its row (1-based) and column, and what is wrong. */
export interface ImportProblem {
  sheet: string;
  row: number;
  column?: string;
  message: Message;
}

/** What an import does to one kind of record named in the workbook: created, updated, or left as it is. */
export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
}

export type ImportKind = "services" | "mines" | "units" | "cafes" | "prices";

/** The kinds in the order a preview lists them. */
export const IMPORT_KINDS: readonly ImportKind[] = ["mines", "units", "cafes", "services", "prices"];

export type ImportCounts = Record<ImportKind, Tally>;

/** A field an import changes, with its value before (null on a new record) and after. */
export interface ChangedField {
  field: "name" | "type" | "description" | "active" | "business" | "timeZone" | "price";
  before: string | number | boolean | null;
  after: string | number | boolean | null;
}

/** One record the import creates or updates, as the preview lists it. */
export interface PlannedChange {
  kind: "service" | "mine" | "unit" | "cafe" | "price";
  action: "created" | "updated";
  /** A service's code and name; a place's names from its mine down; a price's cafe path and then the service code. */
  path: string[];
  /** Services a place starts offering (codes). */
  added?: string[];
  fields?: ChangedField[];
}

/** A row marked as an example in the Example column: skipped. */
export interface SkippedExample {
  sheet: string;
  row: number;
}

/**
 * What importing a workbook would do, worked out without writing: the counts per kind, the records it creates or
 * updates (the first MAX_LISTED_CHANGES), the rows skipped as examples, the problems (the first
 * MAX_LISTED_PROBLEMS; any problem means nothing can be imported), and `plan`, a fingerprint of everything it would
 * write, which confirming checks again.
 */
export interface ImportPreview {
  counts: ImportCounts;
  changes: PlannedChange[];
  moreChanges: number;
  examples: SkippedExample[];
  moreExamples: number;
  problems: ImportProblem[];
  moreProblems: number;
  plan: string;
}

/** The most problems listed; beyond that, one line says how many more there are. */
export const MAX_LISTED_PROBLEMS = 200;
/** The most changes a preview lists one by one; the counts cover them all. */
export const MAX_LISTED_CHANGES = 100;

/** Whether a preview has anything to write. */
export function previewWrites(preview: ImportPreview): boolean {
  return IMPORT_KINDS.some((kind) => preview.counts[kind].created + preview.counts[kind].updated > 0);
}

/** Whether confirming a preview could import it: no problems and something to write. */
export function canConfirm(preview: ImportPreview): boolean {
  return preview.problems.length === 0 && previewWrites(preview);
}
