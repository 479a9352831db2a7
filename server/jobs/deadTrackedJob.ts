import { endJob } from "../db/jobStore.js";
import { defineBackgroundJob } from "./defineJob.js";
import { stoppedMessage, TrackedJobData } from "./runJob.js";

/**
 * Where pg-boss puts a user-visible job that ran out of tries without our handler seeing its end
 * (its worker died or it ran past its expiry on the last try), so its status does not stay "started".
 */
export const deadTrackedJob = defineBackgroundJob({
  name: "tracked-job-dead",
  payload: TrackedJobData,
  handler: async (deps, data) => {
    await endJob(deps.db, data.tenantId, data.jobId, { status: "failed", error: stoppedMessage });
  },
});
