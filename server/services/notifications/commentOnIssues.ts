import { requirementPageUrl } from "../../../common/requirementLink.js";
import { readWithHostRetries, writeWithHostRetries } from "../../connect/hostClientImpl.js";
import { isPermanentRefusal, type NotificationContext, deliveryKey, sendOnce } from "./delivery.js";
import { commentDocument, issueCommentsFor, statusIdsOf } from "./issueComments.js";
import type { RequirementSaved } from "../../../common/schemas/requirementSaved.js";

/**
 * Posts the comments of one saved revision as the app. Each issue is tried on its own (a rate limit
 * waited out and tried again, writeWithHostRetries): a deleted or forbidden issue is logged and
 * skipped; any other failure fails the delivery after the others had their turn, so the job retries
 * just the comments not yet posted. A retry first looks on the issue for the comment by its delivery
 * key (DELIVERY_PROPERTY), so a comment Jira stored without our hearing of it is not posted twice.
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
        const key = deliveryKey(saved, "comment", comment.issueId);
        await sendOnce(
          context,
          saved,
          key,
          async () => {
            // Jira rate limiting: waited out here (its Retry-After), before the job's own retries.
            await writeWithHostRetries(() =>
              context.hostClient.call(saved.tenantId, "jira", {
                method: "POST",
                path: `/rest/api/3/issue/${encodeURIComponent(comment.issueId)}/comment`,
                body: {
                  body: commentDocument(comment, url, statusName),
                  properties: [{ key: DELIVERY_PROPERTY, value: { deliveryKey: key } }],
                },
              }),
            );
          },
          () => issueHasCommentOf(context, saved.tenantId, comment.issueId, key),
        );
      } catch (err) {
        context.logger.warn({ err, issueId: comment.issueId }, "could not comment on a linked issue");
        if (!isPermanentRefusal(err)) failures.push(err);
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}

/**
 * The comment property that carries a comment's delivery key. Jira may have stored a comment whose
 * answer never reached us (a 5xx after the write, a dropped connection, a worker that died before
 * recording it); a retry finds it by this property instead of posting it again.
 */
const DELIVERY_PROPERTY = "rmcloud-delivery";

/**
 * How far a retry looks: the newest COMMENT_PAGES pages of COMMENT_PAGE_SIZE comments. A retry runs
 * within about half an hour of the try it checks (the job's backoff, a dead try's expiry), and an
 * issue does not gather 500 comments in that time; past the bound the comment is posted again, a
 * repeat rather than a loss.
 */
const COMMENT_PAGE_SIZE = 100;
const COMMENT_PAGES = 5;

type CommentPage = { total?: number; comments?: { properties?: { key?: string; value?: { deliveryKey?: unknown } }[] }[] };

/** Whether the issue already has the comment of this delivery key, among its newest comments. */
async function issueHasCommentOf(context: NotificationContext, tenantId: string, issueId: string, key: string): Promise<boolean> {
  let startAt = 0;
  for (let page = 0; page < COMMENT_PAGES; page++) {
    const query = new URLSearchParams({
      orderBy: "-created",
      expand: "properties",
      startAt: String(startAt),
      maxResults: String(COMMENT_PAGE_SIZE),
    });
    const answer = await readWithHostRetries(() =>
      context.hostClient.call<CommentPage>(tenantId, "jira", {
        method: "GET",
        path: `/rest/api/3/issue/${encodeURIComponent(issueId)}/comment?${query}`,
      }),
    );
    const comments = answer?.comments ?? [];
    if (comments.some((c) => c.properties?.some((p) => p.key === DELIVERY_PROPERTY && p.value?.deliveryKey === key))) return true;
    startAt += comments.length;
    if (comments.length === 0 || startAt >= (answer?.total ?? 0)) return false;
  }
  return false;
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
