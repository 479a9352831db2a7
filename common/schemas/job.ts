import { z } from "zod";

/** Spec section 4: queued or started means keep polling; finished is done; failed is an error. */
export const JobStatusSchema = z.enum(["queued", "started", "finished", "failed"]);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** A job id as the start of a job answered it (pg-boss and the status row share it). */
export const JobIdSchema = z.guid();

/**
 * GET /api/job/status/{jobId}: the spec's three fields, plus what the dialogs show at the end:
 * `result` (an import's row errors, an export's file) and `error` (why it failed), null until then.
 */
export const JobStatusResponseSchema = z.object({
  status: JobStatusSchema,
  completed_rows: z.number().int(),
  total_rows: z.number().int(),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
});
export type JobStatusResponse = z.infer<typeof JobStatusResponseSchema>;

/** What a verified `jira:issue_deleted` webhook puts on the queue: the site (from its JWT) and the issue. */
export const IssueDeletedJobPayloadSchema = z.object({
  tenantId: z.guid(),
  issueId: z.string().min(1),
});
export type IssueDeletedJobPayload = z.infer<typeof IssueDeletedJobPayloadSchema>;
