import { z } from "zod";
import { deleteJobs, findJobsEndedBefore, tenantsWithJobsEndedBefore } from "../../db/jobStore.js";
import type { AppDeps } from "../../deps.js";
import { storageKey } from "../../storage/objectStorage.js";
import { matrixExportJob } from "../../jobs/matrixExportJob.js";

/**
 * How long an exported Word file is kept after its job ended. Its download link lives 2 hours from
 * the export's start (startMatrixExport), so no link that still works ever points at a deleted file.
 */
export const MATRIX_EXPORT_RETENTION_HOURS = 24;

/** Rows read, files deleted and rows deleted per round, per site. */
const BATCH_SIZE = 200;

const FinishedExport = z.object({ file_name: z.string() });

/**
 * Deletes the files of matrix exports that ended more than MATRIX_EXPORT_RETENTION_HOURS ago, then
 * their status rows (the job's status then answers 404, as for any unknown job). Site by site:
 * across sites only their ids are read; each site's rows are read, and its files named, with its own
 * tenant id. The file goes first, so a clean-up that dies half way leaves a row whose file is gone
 * (deleting it again is no error), never a file nothing refers to. A failed export wrote no file.
 */
export async function cleanUpMatrixExports(deps: Pick<AppDeps, "db" | "storage">, now = new Date()): Promise<number> {
  const endedBefore = new Date(now.getTime() - MATRIX_EXPORT_RETENTION_HOURS * 60 * 60 * 1000);
  let removed = 0;
  for (const tenantId of await tenantsWithJobsEndedBefore(deps.db, matrixExportJob.name, endedBefore)) {
    for (;;) {
      const exports = await findJobsEndedBefore(deps.db, tenantId, matrixExportJob.name, endedBefore, BATCH_SIZE);
      await Promise.all(
        exports.map(async ({ result }) => {
          const finished = FinishedExport.safeParse(result);
          if (finished.success) await deps.storage.delete(storageKey(tenantId, "exports", finished.data.file_name));
        }),
      );
      await deleteJobs(
        deps.db,
        tenantId,
        exports.map((row) => row.job_id),
      );
      removed += exports.length;
      if (exports.length < BATCH_SIZE) break;
    }
  }
  return removed;
}
