import { IssueDeletedJobPayloadSchema } from "../../common/schemas/job.js";
import { appActor } from "../services/context.js";
import { removeLinksOfDeletedIssue } from "../services/issueLinks/removeLinksOfDeletedIssue.js";
import { defineBackgroundJob } from "./defineJob.js";

/**
 * A Jira issue was deleted on a site: its links to requirements and folders go. On the queue, so
 * a failure (the database restarting, a lock timeout) is tried again instead of being logged and
 * lost while Jira, which has its answer, never sends the webhook again. Safe to repeat.
 */
export const issueDeletedJob = defineBackgroundJob({
  name: "jira-issue-deleted",
  payload: IssueDeletedJobPayloadSchema,
  retry: { retryLimit: 5, retryDelaySeconds: 10 },
  handler: async (deps, payload) => {
    await removeLinksOfDeletedIssue(deps, appActor(payload.tenantId), payload.issueId);
  },
});
