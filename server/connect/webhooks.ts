import type { AppDeps } from "../deps.js";
import { findInstallationByClientKey } from "../db/installationStore.js";
import { issueDeletedJob } from "../jobs/issueDeletedJob.js";

/**
 * A verified `jira:issue_deleted` webhook (ACE checked its JWT against the installation's shared
 * secret): the tenant comes from the verified clientKey, the issue from the payload. The links are
 * removed on the job queue (issueDeletedJob), which tries again when removing them fails.
 */
export async function dispatchJiraIssueDeleted(
  deps: Pick<AppDeps, "db" | "jobs" | "logger">,
  clientKey: string,
  body: unknown,
): Promise<void> {
  const issueId = (body as { issue?: { id?: unknown } } | undefined)?.issue?.id;
  if (typeof issueId !== "string" && typeof issueId !== "number") {
    deps.logger.warn({ clientKey }, "jira:issue_deleted webhook without an issue id");
    return;
  }
  const installation = await findInstallationByClientKey(deps.db, clientKey);
  if (!installation?.enabled) return;
  await deps.jobs.send(deps.db, issueDeletedJob, { tenantId: installation.tenantId, issueId: String(issueId) });
}
