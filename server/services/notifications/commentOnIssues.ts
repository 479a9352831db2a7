import { requirementPageUrl } from "../../../common/requirementLink.js";
import { writeWithHostRetries } from "../../connect/hostClientImpl.js";
import { isPermanentRefusal, type NotificationContext, deliveryKey, sendOnce } from "./delivery.js";
import { commentDocument, issueCommentsFor, statusIdsOf } from "./issueComments.js";
import type { RequirementSaved } from "../../../common/schemas/requirementSaved.js";

/**
 * Posts the comments of one saved revision as the app. Each issue is tried on its own (a rate limit
 * waited out and tried again, writeWithHostRetries): a deleted or forbidden issue is logged and
 * skipped; any other failure fails the delivery after the others had their turn, so the job retries
 * just the comments not yet posted.
 */
export async function commentOnIssues(context: NotificationContext, saved: RequirementSaved): Promise<void> {
  const comments = issueCommentsFor(saved.before, saved.after);
  const state = saved.after ?? saved.before;
  if (comments.length === 0 || !state) return;
  const url = requirementPageUrl(context.siteUrl, {
    jiraProjectId: state.projectId,
    projectId: state.projectId,
    requirementId: saved.requirementId,
  });
  const statusNames = await lookUpStatusNames(context, saved.tenantId, statusIdsOf(comments));
  const statusName = (id: string | null) => (id === null ? "None" : (statusNames.get(id) ?? id));

  const failures: unknown[] = [];
  await Promise.all(
    comments.map(async (comment) => {
      try {
        await sendOnce(context, saved, deliveryKey(saved, "comment", comment.issueId), async () => {
          // Jira rate limiting: waited out here (its Retry-After), before the job's own retries.
          await writeWithHostRetries(() =>
            context.hostClient.call(saved.tenantId, "jira", {
              method: "POST",
              path: `/rest/api/3/issue/${encodeURIComponent(comment.issueId)}/comment`,
              body: { body: commentDocument(comment, url, statusName) },
            }),
          );
        });
      } catch (err) {
        context.logger.warn({ err, issueId: comment.issueId }, "could not comment on a linked issue");
        if (!isPermanentRefusal(err)) failures.push(err);
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}

/** Names for the comment text; an unknown status is shown by its id rather than dropping the comment. */
async function lookUpStatusNames(context: NotificationContext, tenantId: string, statusIds: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    statusIds.map(async (id) => {
      try {
        const status = await context.hostClient.call<{ name?: string }>(tenantId, "jira", {
          method: "GET",
          path: `/rest/api/3/status/${encodeURIComponent(id)}`,
        });
        if (status?.name) names.set(id, status.name);
      } catch (err) {
        context.logger.debug({ err, statusId: id }, "status name lookup failed");
      }
    }),
  );
  return names;
}
