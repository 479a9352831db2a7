import type { JobStatus } from "../../common/schemas/job.js";
import type { Db } from "./knex.js";

export type JobRow = {
  job_id: string;
  name: string;
  status: JobStatus;
  completed_rows: number;
  total_rows: number;
  result: unknown;
  error: string | null;
  /** Who started it (null for the app's own jobs). */
  account_id: string | null;
};

const columns = ["job_id", "name", "status", "completed_rows", "total_rows", "result", "error", "account_id"];
const open: JobStatus[] = ["queued", "started"];
const ended: JobStatus[] = ["finished", "failed"];

export async function insertJob(db: Db, tenantId: string, job: { jobId: string; name: string; accountId: string }) {
  await db("jobs").insert({ tenant_id: tenantId, job_id: job.jobId, name: job.name, account_id: job.accountId });
}

export async function findJob(db: Db, tenantId: string, jobId: string): Promise<JobRow | undefined> {
  return db("jobs").where({ tenant_id: tenantId, job_id: jobId }).first(columns);
}

/** Answers false when the job is already over (a repeated delivery). */
export async function markJobStarted(db: Db, tenantId: string, jobId: string): Promise<boolean> {
  const updated = await db("jobs")
    .where({ tenant_id: tenantId, job_id: jobId })
    .whereIn("status", open)
    .update({ status: "started", updated_at: db.fn.now() });
  return updated === 1;
}

export async function setJobProgress(db: Db, tenantId: string, jobId: string, rows: { completed?: number; total?: number }): Promise<void> {
  await db("jobs")
    .where({ tenant_id: tenantId, job_id: jobId, status: "started" })
    .update({
      ...(rows.completed === undefined ? {} : { completed_rows: rows.completed }),
      ...(rows.total === undefined ? {} : { total_rows: rows.total }),
      updated_at: db.fn.now(),
    });
}

/**
 * Ends a job that is still open; answers false when it was already over, so of two deliveries
 * racing to end it exactly one wins (the row is locked by the first update until its commit).
 */
export async function endJob(
  db: Db,
  tenantId: string,
  jobId: string,
  end: { status: "finished" | "failed"; result?: unknown; error?: string },
): Promise<boolean> {
  const updated = await db("jobs")
    .where({ tenant_id: tenantId, job_id: jobId })
    .whereIn("status", open)
    .update({
      status: end.status,
      result: end.result === undefined ? null : JSON.stringify(end.result),
      error: end.error ?? null,
      updated_at: db.fn.now(),
    });
  return updated === 1;
}

/**
 * The sites with jobs of this kind that ended before `endedBefore`: their ids only, so that a
 * clean-up then reads and deletes one site's rows at a time. `updated_at` of an ended job is its end.
 */
export async function tenantsWithJobsEndedBefore(db: Db, name: string, endedBefore: Date): Promise<string[]> {
  const rows: { tenant_id: string }[] = await db("jobs")
    .distinct("tenant_id")
    .where({ name })
    .whereIn("status", ended)
    .where("updated_at", "<", endedBefore);
  return rows.map((row) => row.tenant_id);
}

/** Up to `limit` of the site's jobs of this kind that ended before `endedBefore`, oldest first. */
export async function findJobsEndedBefore(
  db: Db,
  tenantId: string,
  name: string,
  endedBefore: Date,
  limit: number,
): Promise<Pick<JobRow, "job_id" | "result">[]> {
  return db("jobs")
    .where({ tenant_id: tenantId, name })
    .whereIn("status", ended)
    .where("updated_at", "<", endedBefore)
    .orderBy("updated_at")
    .limit(limit)
    .select("job_id", "result");
}

export async function deleteJobs(db: Db, tenantId: string, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await db("jobs").where({ tenant_id: tenantId }).whereIn("job_id", jobIds).delete();
}
