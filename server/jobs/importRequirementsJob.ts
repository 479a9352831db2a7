import { type ImportRequest, ImportJobPayloadSchema, type ImportResult, isXlsxFileName } from "../../common/schemas/csvImport.js";
import { setJobProgress } from "../db/jobStore.js";
import type { AppDeps } from "../deps.js";
import { requireProjectAccess } from "../services/access/projectAccess.js";
import type { Actor } from "../services/context.js";
import { checkImportFileSize } from "../services/csv/importFileSize.js";
import { checkImportRequest, runImport } from "../services/csv/importRequirements.js";
import { checkIsXlsx } from "../services/csv/xlsxRecords.js";
import { storageKey } from "../storage/objectStorage.js";
import { defineJob, JobFailure } from "./defineJob.js";
import { startJob } from "./startJob.js";

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
 * finished (job.finish in the same transaction), so rows are written exactly once. A request that
 * no longer holds when the job runs (its type or folder deleted after it was queued) fails the job
 * at once with the reason (runJob's failureOf).
 */
export const importRequirementsJob = defineJob({
  name: "import-requirements",
  payload: ImportJobPayloadSchema,
  retry: { expireInSeconds: 3600 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    // The job works for the person who started it: a permission revoked since fails it with the reason.
    await requireProjectAccess(deps, actor, payload.atlassian_project_id, "edit");
    const result = await runImport(deps, actor, payload, {
      progress: job.progress,
      // The last progress with the rows: on PGlite the background progress write waits for this transaction, then finds the job over.
      beforeCommit: async (trx, done) => {
        await setJobProgress(trx, job.tenantId, job.id, { completed: done.imported, total: done.imported });
        await job.finish(trx, done);
      },
    });
    if (result.error_count > 0) throw new JobFailure(importFailureMessage(result), result);
    return result;
  },
});

/** POST /api/import-issues: refuses a bad request (400) before any job exists, then answers the job id. */
export async function startImport(deps: Pick<AppDeps, "db" | "jobs" | "storage">, actor: Actor, request: ImportRequest): Promise<string> {
  await checkImportRequest(deps.db, actor, request);
  await checkImportFileSize(deps.storage, actor.tenantId, request.file_name);
  if (isXlsxFileName(request.file_name)) {
    await checkIsXlsx(await deps.storage.getObject(storageKey(actor.tenantId, "imports", request.file_name)));
  }
  return startJob(deps, actor, importRequirementsJob, request);
}
