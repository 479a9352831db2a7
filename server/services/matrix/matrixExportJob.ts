import { z } from "zod";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { defineJob, JobFailure } from "../../jobs/defineJob.js";
import { storageKey } from "../../storage/objectStorage.js";
import { requireProjectAccessForJob } from "../access/jobAccess.js";
import { writeMatrixExport } from "./exportMatrix.js";

/**
 * The Word export of a traceability matrix. A delivery that dies half way (its worker stopped)
 * is tried again from the start and writes the same file again, so the job finishes once, with
 * one file. Jira failures that outlast the export's own retries (rate limits, resets) end the job
 * with Jira's message at once: trying the whole document again would only meet them again.
 */
export const matrixExportJob = defineJob({
  name: "matrix-export",
  payload: z.object({
    projectId: z.number().int().min(0),
    selectedIssueTypes: z.array(z.string()),
    fileName: z.string(),
  }),
  retry: { expireInSeconds: 30 * 60 },
  handler: async (deps, payload, job) => {
    const actor = { tenantId: job.tenantId, accountId: job.accountId };
    await requireProjectAccessForJob(deps, actor, payload.projectId, "browse");
    try {
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
    } catch (error) {
      if (error instanceof HostCallError) throw new JobFailure(`Jira could not be read: ${error.message}`);
      throw error;
    }
  },
});
