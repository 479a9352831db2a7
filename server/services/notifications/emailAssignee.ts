import type { Logger } from "pino";
import type { HostClient } from "../../connect/hostClient.js";
import { type Mailer, sendWithRetry } from "../../mail/mailer.js";
import type { DomainEvents } from "../events.js";
import { assigneeEmail, newAssigneeOf } from "./assigneeEmail.js";
import { requirementPageUrl } from "../../../common/requirementLink.js";

type RequirementSaved = DomainEvents["requirementSaved"][0];

/**
 * Emails a newly assigned user. The address comes from Jira (the app may read it; a user who
 * hides it gets no mail, which is logged). Never rejects: see sendWithRetry.
 */
export async function emailAssignee(
  hostClient: HostClient,
  mailer: Mailer,
  logger: Logger,
  siteUrl: string,
  event: RequirementSaved,
  retryDelaysMs?: readonly number[],
): Promise<void> {
  const accountId = newAssigneeOf(event.before, event.after);
  if (!accountId || !event.after) return;
  const log = logger.child({ tenantId: event.tenantId, requirementId: event.requirementId, accountId });
  let emailAddress: string | undefined;
  try {
    const user = await hostClient.call<{ emailAddress?: string }>(event.tenantId, "jira", {
      method: "GET",
      path: `/rest/api/3/user?accountId=${encodeURIComponent(accountId)}`,
    });
    emailAddress = user?.emailAddress;
  } catch (err) {
    log.warn({ err }, "could not look up the assignee to email");
    return;
  }
  if (!emailAddress) {
    log.info("the assignee's email address is not visible to the app; no email sent");
    return;
  }
  const url = requirementPageUrl(siteUrl, {
    jiraProjectId: event.after.projectId,
    projectId: event.after.projectId,
    requirementId: event.requirementId,
  });
  await sendWithRetry(mailer, assigneeEmail(emailAddress, event.after.label, url), log, retryDelaysMs);
}
