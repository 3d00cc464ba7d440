/**
 * Background jobs of the signed-in person: reading one (state, progress, result, the message of a failure) as JSON,
 * and dismissing a finished one so its page stops showing it (an upload it kept for a confirmation is deleted then:
 * discarding a places import preview is dismissing it). A job is only ever its owner's: anyone else's id
 * answers 404, like a missing one. Pages show a job through their own props (the Management page's import), and
 * hear its progress on the owner's private channel (`JobUpdated`).
 */
import { dismissJob, findOwnJob } from "../../domain/jobs/jobs";
import { access, defineRoutes } from "../routing";
import type { RequestContext } from "../context";

const JOB_ID = "[1-9]\\d{0,15}";

/** The job as its owner reads it: the progress label and the failure worded in their language. */
function jobJson(ctx: RequestContext, id: number) {
  const job = findOwnJob(ctx.db, ctx.user!.id, id);
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    progress: { ...job.progress, text: job.progress.label ? ctx.t(job.progress.label) : "" },
    result: job.result,
    error: job.error ? ctx.say(job.error) : null,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

export const jobsRoutes = defineRoutes([
  {
    name: "jobs.show",
    methods: ["GET"],
    uri: "/jobs/{job}",
    wheres: { job: JOB_ID },
    access: access.signedIn,
    handle: (ctx) => Response.json(jobJson(ctx, Number(ctx.params.job)), { headers: { "cache-control": "no-store" } }),
  },
  {
    name: "jobs.dismiss",
    methods: ["POST"],
    uri: "/jobs/{job}/dismiss",
    wheres: { job: JOB_ID },
    access: access.signedIn,
    handle: (ctx) => {
      dismissJob(ctx.db, ctx.user!.id, Number(ctx.params.job));
      return ctx.back(ctx.urlFor("dashboard"));
    },
  },
]);
