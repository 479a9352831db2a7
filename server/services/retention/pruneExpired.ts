import {
  deleteDeliveriesSentBefore,
  deleteImportFileRows,
  deleteJobsEndedBefore,
  importFilesCreatedBefore,
} from "../../db/retentionStore.js";
import type { AppDeps } from "../../deps.js";
import { storageKey } from "../../storage/objectStorage.js";
import { matrixExportJob } from "../../jobs/matrixExportJob.js";

/** Rows deleted per statement (and files per round): a sweep never holds or locks more at once. */
export const RETENTION_BATCH_ROWS = 1000;

export type Pruned = { deliveries: number; jobs: number; importFiles: number };

/** Runs `round` until it deletes less than a full batch; answers the total. */
async function untilDone(round: () => Promise<number>, batchRows: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await round();
    total += deleted;
    if (deleted < batchRows) return total;
  }
}

/**
 * Issue 37: what only grows is kept for `retentionDays` (RETENTION_DAYS, default 30) and then
 * deleted, in batches: the notification keys that stop a retried job from sending twice (no job is
 * retried after days), the status rows of ended jobs (matrix exports excepted: their files and rows
 * go after a day, cleanUpMatrixExports), and uploaded CSV files with their rows (an import reads
 * its file within minutes of the upload). A file goes before its row, so a sweep that dies half way
 * leaves a row whose file is gone (deleting it again is no error), never a file nothing names.
 */
export async function pruneExpired(
  deps: Pick<AppDeps, "db" | "storage">,
  { retentionDays, now = new Date(), batchRows = RETENTION_BATCH_ROWS }: { retentionDays: number; now?: Date; batchRows?: number },
): Promise<Pruned> {
  const before = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const deliveries = await untilDone(() => deleteDeliveriesSentBefore(deps.db, before, batchRows), batchRows);
  const jobs = await untilDone(() => deleteJobsEndedBefore(deps.db, before, [matrixExportJob.name], batchRows), batchRows);
  const importFiles = await untilDone(async () => {
    const files = await importFilesCreatedBefore(deps.db, before, batchRows);
    await Promise.all(files.map((file) => deps.storage.delete(storageKey(file.tenantId, "imports", file.uuidFileName))));
    await deleteImportFileRows(deps.db, files);
    return files.length;
  }, batchRows);
  return { deliveries, jobs, importFiles };
}
