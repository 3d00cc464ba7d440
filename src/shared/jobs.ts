/** Background jobs as pages follow them. */
import type { TranslationKey } from "./i18n";

/** Where a background job stands. */
export const JOB_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** How far a job got: `done` of `total`, and what it is doing as a translation key ("" before its first step). */
export interface JobProgress {
  done: number;
  total: number;
  label: TranslationKey | "";
}
