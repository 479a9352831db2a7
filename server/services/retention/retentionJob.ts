import { z } from "zod";
import { defineBackgroundJob } from "../../jobs/defineJob.js";
import { pruneExpired } from "./pruneExpired.js";

/** Daily (03:40 UTC): what is older than RETENTION_DAYS goes. Deleting is idempotent, so a retried or doubled run does no harm. */
export const retentionJob = defineBackgroundJob({
  name: "retention",
  payload: z.object({}),
  cron: "40 3 * * *",
  retry: { expireInSeconds: 60 * 60 },
  handler: async (deps) => {
    const pruned = await pruneExpired(deps, { retentionDays: deps.config.retentionDays });
    if (pruned.deliveries + pruned.jobs + pruned.importFiles > 0) deps.logger.info(pruned, "expired rows and files deleted");
  },
});
