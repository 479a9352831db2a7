import { requireProjectAccessForJob } from "../access/jobAccess.js";
import { z } from "zod";
import type { ImportRequest, ImportResult } from "../../../common/schemas/csvImport.js";
import { flattenErrorBody } from "../../../common/errors.js";
import { setJobProgress } from "../../db/jobStore.js";
import type { AppDeps } from "../../deps.js";
import { AppError } from "../../errors.js";
import { defineJob, JobFailure } from "../../jobs/defineJob.js";
import { startJob } from "../../jobs/startJob.js";
import type { Actor } from "../context.js";
import { checkImportRequest, runImport } from "./importRequirements.js";

/** The request as the route parsed it (host lists already read from their JSON). */
const ImportJobPayloadSchema = z.object({
  file_name: z.string(),
  requirement_type: z.number(),
  location: z.number().nullable(),
  atlassian_project_id: z.number(),
  atlassian_component_json: z.array(z.unknown()),
  atlassian_statuses_json: z.array(z.unknown()),
  additional_headers: z.array(z.string()),
  assign_based_on_component: z.boolean(),
});

/** Row reasons shown in the dialog's error toast: the first few, then how many more. */
const SHOWN_IN_MESSAGE = 10;

function importFailureMessage(result: ImportResult): string {
  const shown = result.errors.slice(0, SHOWN_IN_MESSAGE).map((error) => `Row ${error.row}: ${error.reason}`);
  const more = result.error_count - shown.length;
  return [...shown, ...(more > 0 ? [`and ${more} more`] : [])].join("; ");
}

/**
 * A CSV import on the job queue. A retried delivery (its worker died) runs runImport again: the
 * transaction of a dead try was rolled back, and one that committed also marked the job
 * finished (job.finish in the same transaction), so rows are written exactly once.
 */
export const importRequirementsJob = defineJob({
  name: "import-requirements",
  payload: ImportJobPayloadSchema,
  retry: { expireInSeconds: 3600 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    await requireProjectAccessForJob(deps, actor, payload.atlassian_project_id, "edit");
    const result = await runImport(deps, actor, payload, {
      progress: job.progress,
      // The last progress with the rows: on PGlite the background progress write waits for this transaction, then finds the job over.
      beforeCommit: async (trx, done) => {
        await setJobProgress(trx, job.tenantId, job.id, { completed: done.imported, total: done.imported });
        await job.finish(trx, done);
      },
    }).catch(failOnRefusedRequest);
    if (result.error_count > 0) throw new JobFailure(importFailureMessage(result), result);
    return result;
  },
});

/**
 * The request no longer holds when the job runs (its type or folder was deleted after it was
 * queued): no retry can help, so the job fails at once with the reason.
 */
function failOnRefusedRequest(error: unknown): never {
  throw error instanceof AppError && error.status === 400 ? new JobFailure(flattenErrorBody(error.body)) : error;
}

/** POST /api/import-issues: refuses a bad request (400) before any job exists, then answers the job id. */
export async function startImport(deps: Pick<AppDeps, "db" | "jobs">, actor: Actor, request: ImportRequest): Promise<string> {
  await checkImportRequest(deps.db, actor, request);
  return startJob(deps, actor, importRequirementsJob, request);
}
