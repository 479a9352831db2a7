import { JobIdSchema, type JobStatusResponse } from "../../../common/schemas/job.js";
import { findJob } from "../../db/jobStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/** Only the actor's own site sees a job; a malformed id names no job, like another site's. */
export async function getJobStatus(deps: ServiceDeps, actor: Actor, jobId: string): Promise<JobStatusResponse> {
  const job = JobIdSchema.safeParse(jobId).success ? await findJob(deps.db, actor.tenantId, jobId) : undefined;
  if (!job) throw notFound("Job");
  return {
    status: job.status,
    completed_rows: job.completed_rows,
    total_rows: job.total_rows,
    result: job.result ?? null,
    error: job.error,
  };
}
