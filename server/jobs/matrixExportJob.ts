import { requireProjectAccess } from "../services/access/projectAccess.js";
import { randomUUID } from "node:crypto";
import { type MatrixExportResponse, MatrixExportJobPayloadSchema } from "../../common/schemas/matrix.js";
import type { AppDeps } from "../deps.js";
import type { Actor } from "../services/context.js";
import { writeMatrixExport } from "../services/matrix/exportMatrix.js";
import { storageKey } from "../storage/objectStorage.js";
import { defineJob } from "./defineJob.js";
import { startJob } from "./startJob.js";

/**
 * The Word export of a traceability matrix. A delivery that dies half way (its worker stopped)
 * is tried again from the start and writes the same file again, so the job finishes once, with
 * one file. Jira failures that outlast the export's own retries (rate limits, resets) end the job
 * with Jira's message at once (runJob's failureOf): trying the whole document again would only meet them again.
 */
export const matrixExportJob = defineJob({
  name: "matrix-export",
  payload: MatrixExportJobPayloadSchema,
  retry: { expireInSeconds: 30 * 60 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    // The job works for the person who started it: a permission revoked since fails it with the reason.
    await requireProjectAccess(deps, actor, payload.projectId, "browse");
    const { totalRows } = await writeMatrixExport(
      deps,
      actor,
      {
        projectId: payload.projectId,
        selectedIssueTypes: payload.selectedIssueTypes,
        storageKey: storageKey(job.tenantId, "exports", payload.fileName),
      },
      async (completed, total) => job.progress({ completed, total }),
    );
    return { file_name: payload.fileName, total_rows: totalRows };
  },
});

/** The download link outlives a long export: it is handed out before the file exists. */
const DOWNLOAD_URL_LIFETIME_SECONDS = 2 * 60 * 60;

/**
 * Starts the Word export of a project's matrix with the chosen issue-type columns: the job, and
 * the presigned URL its file will be downloaded from once the job is finished.
 */
export async function startMatrixExport(
  deps: Pick<AppDeps, "db" | "jobs" | "storage">,
  actor: Actor,
  request: { projectId: number; selectedIssueTypes: string[] },
  now = new Date(),
): Promise<MatrixExportResponse> {
  const fileName = `${randomUUID()}.docx`;
  const presignedUrl = await deps.storage.presignGet(storageKey(actor.tenantId, "exports", fileName), {
    downloadName: `traceability-matrix-${request.projectId === 0 ? "global" : request.projectId}-${now.toISOString().slice(0, 10)}.docx`,
    expiresInSeconds: DOWNLOAD_URL_LIFETIME_SECONDS,
  });
  const jobId = await startJob(deps, actor, matrixExportJob, {
    projectId: request.projectId,
    selectedIssueTypes: [...new Set(request.selectedIssueTypes)],
    fileName,
  });
  return { job_id: jobId, presigned_url: presignedUrl };
}
