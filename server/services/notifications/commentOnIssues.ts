import type { Logger } from "pino";
import type { HostClient } from "../../connect/hostClient.js";
import type { DomainEvents } from "../events.js";
import { commentDocument, issueCommentsFor, statusIdsOf } from "./issueComments.js";
import { requirementPageUrl } from "../../../common/requirementLink.js";

type RequirementSaved = DomainEvents["requirementSaved"][0];

/**
 * Posts the comments of one save as the app. Each issue is tried on its own: a deleted or
 * forbidden issue is logged and does not keep the others from hearing of the change.
 */
export async function commentOnIssues(
  hostClient: HostClient,
  logger: Logger,
  siteUrl: string,
  event: RequirementSaved,
): Promise<void> {
  const comments = issueCommentsFor(event.before, event.after);
  if (comments.length === 0) return;
  const state = event.after ?? event.before;
  if (!state) return;
  const url = requirementPageUrl(siteUrl, {
    jiraProjectId: state.projectId,
    projectId: state.projectId,
    requirementId: event.requirementId,
  });
  const statusNames = await lookUpStatusNames(hostClient, logger, event.tenantId, statusIdsOf(comments));
  const statusName = (id: string | null) => (id === null ? "None" : (statusNames.get(id) ?? id));

  await Promise.all(
    comments.map(async (comment) => {
      try {
        await hostClient.call(event.tenantId, "jira", {
          method: "POST",
          path: `/rest/api/3/issue/${encodeURIComponent(comment.issueId)}/comment`,
          body: { body: commentDocument(comment, url, statusName) },
        });
      } catch (err) {
        logger.warn(
          { err, tenantId: event.tenantId, requirementId: event.requirementId, issueId: comment.issueId },
          "could not comment on a linked issue",
        );
      }
    }),
  );
}

/** Names for the comment text; an unknown status is shown by its id rather than dropping the comment. */
async function lookUpStatusNames(
  hostClient: HostClient,
  logger: Logger,
  tenantId: string,
  statusIds: string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    statusIds.map(async (id) => {
      try {
        const status = await hostClient.call<{ name?: string }>(tenantId, "jira", {
          method: "GET",
          path: `/rest/api/3/status/${encodeURIComponent(id)}`,
        });
        if (status?.name) names.set(id, status.name);
      } catch (err) {
        logger.debug({ err, tenantId, statusId: id }, "status name lookup failed");
      }
    }),
  );
  return names;
}
