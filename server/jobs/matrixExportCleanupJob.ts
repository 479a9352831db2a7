import { MatrixExportCleanupJobPayloadSchema } from "../../common/schemas/matrix.js";
import { cleanUpMatrixExports } from "../services/matrix/cleanUpMatrixExports.js";
import { defineBackgroundJob } from "./defineJob.js";

/**
 * Hourly, so an export's file is gone between MATRIX_EXPORT_RETENTION_HOURS and one hour more after
 * its job ended. Deleting is idempotent: a retried or doubled run does no harm.
 */
export const matrixExportCleanupJob = defineBackgroundJob({
  name: "matrix-export-cleanup",
  payload: MatrixExportCleanupJobPayloadSchema,
  cron: "15 * * * *",
  handler: async (deps) => {
    const removed = await cleanUpMatrixExports(deps);
    if (removed > 0) deps.logger.info({ removed }, "old matrix exports deleted");
  },
});
