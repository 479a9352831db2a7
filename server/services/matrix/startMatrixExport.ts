import { randomUUID } from "node:crypto";
import type { MatrixExportResponse } from "../../../common/schemas/matrix.js";
import type { AppDeps } from "../../deps.js";
import { startJob } from "../../jobs/startJob.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor } from "../context.js";
import { matrixExportJob } from "./matrixExportJob.js";

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
