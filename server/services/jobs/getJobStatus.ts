import { JobIdSchema, type JobStatusResponse } from "../../../common/schemas/job.js";
import { findJob } from "../../db/jobStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * A job is its starter's: another person, like another site, is told it does not exist (an export's
 * file and an import's report are of a project they may not see). A malformed id names no job either.
 */
export async function getJobStatus(deps: ServiceDeps, actor: Actor, jobId: string): Promise<JobStatusResponse> {
  const job = JobIdSchema.safeParse(jobId).success ? await findJob(deps.db, actor.tenantId, jobId) : undefined;
  if (!job || job.account_id !== actor.accountId) throw notFound("Job");
  return {
    status: job.status,
    completed_rows: job.completed_rows,
    total_rows: job.total_rows,
    result: job.result ?? null,
    error: job.error,
  };
}
