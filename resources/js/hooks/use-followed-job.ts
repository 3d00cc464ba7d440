/**
 * Follows a background job the person started (a report, a shopping list): while it is queued or running, its
 * progress is heard live on the person's private channel (`JobUpdated`) and asked for again every few seconds in
 * case a message was missed; once it has finished, the caller reads it in full (its download link, its result in
 * words) with `readFinished`.
 */
import { usePage } from "@inertiajs/react";
import { useEffect, type Dispatch, type SetStateAction } from "react";
import { userChannel, type RealtimeEvents } from "../../../src/shared/realtime-events";
import { listenFor } from "../lib/realtime";
import { requestJson } from "../lib/json-client";
import type { SharedProps } from "../types";
import { useI18n } from "./use-i18n";
import { useRealtime } from "./use-realtime";
import { useRoute } from "./use-route";

const POLL_MS = 2000;

/** What a job's view holds that following it changes. */
export interface FollowedJob {
  id: number;
  state: "queued" | "running" | "succeeded" | "failed";
  progress: { done: number; total: number; label: string; text: string };
}

/** Whether a job is still to finish. */
export function isRunning(job: FollowedJob | null): boolean {
  return job !== null && (job.state === "queued" || job.state === "running");
}

export function useFollowedJob<J extends FollowedJob>(
  job: J | null,
  setJob: Dispatch<SetStateAction<J | null>>,
  /** The finished job in full, or null when the server no longer has it. */
  readFinished: (id: number) => Promise<J | null | undefined>,
): void {
  const { t } = useI18n();
  const route = useRoute();
  const realtime = useRealtime();
  const userId = usePage<SharedProps>().props.auth.user?.id ?? null;
  const running = isRunning(job);

  useEffect(() => {
    if (!running || job === null) return;
    const id = job.id;
    // What the server says of the job so far, over what the page knows of it.
    const progressed = (news: Partial<J>) =>
      setJob((current) => (current && current.id === id ? { ...current, ...news } : current));
    const finished = async () => {
      const full = await readFinished(id);
      if (full) setJob(full);
    };
    const refresh = async () => {
      const { status, body } = await requestJson<Partial<J> & Pick<J, "state">>("GET", route("jobs.show", { job: id }));
      if (status !== 200 || !body) return;
      if (body.state === "succeeded" || body.state === "failed") await finished();
      else progressed(body);
    };
    const timer = setInterval(() => void refresh(), POLL_MS);
    if (userId === null) return () => clearInterval(timer);
    const channel = realtime().private(userChannel(userId));
    const heard = (update: RealtimeEvents["JobUpdated"]) => {
      if (update.id !== id) return;
      if (update.state === "succeeded" || update.state === "failed") void refresh();
      else
        progressed({
          state: update.state,
          progress: { ...update.progress, text: update.progress.label && t(update.progress.label) },
        } as Partial<J>);
    };
    listenFor(channel, "JobUpdated", heard);
    return () => {
      clearInterval(timer);
      channel.stopListening("JobUpdated", heard);
    };
    // Whether the job runs, which job and whose channel decide the subscription; the rest is read when it starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, job?.id, userId]);
}
