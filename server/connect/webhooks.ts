import type { AppDeps } from "../deps.js";
import { findInstallationByClientKey } from "../db/installationStore.js";
import { appActor } from "../services/context.js";
import { removeLinksOfDeletedIssue } from "../services/issueLinks/removeLinksOfDeletedIssue.js";

/** A Jira issue was deleted on the tenant's site: its links to requirements go (Jira integration issue). */
export async function onJiraIssueDeleted(deps: AppDeps, tenantId: string, issueId: string): Promise<void> {
  await removeLinksOfDeletedIssue(deps, appActor(tenantId), issueId);
}

/**
 * A verified `jira:issue_deleted` webhook (ACE checked its JWT against the installation's shared
 * secret): the tenant comes from the verified clientKey, the issue from the payload.
 */
export async function dispatchJiraIssueDeleted(deps: AppDeps, clientKey: string, body: unknown): Promise<void> {
  const issueId = (body as { issue?: { id?: unknown } } | undefined)?.issue?.id;
  if (typeof issueId !== "string" && typeof issueId !== "number") {
    deps.logger.warn({ clientKey }, "jira:issue_deleted webhook without an issue id");
    return;
  }
  const installation = await findInstallationByClientKey(deps.db, clientKey);
  if (!installation?.enabled) return;
  await onJiraIssueDeleted(deps, installation.tenantId, String(issueId));
}
