import { notFound, unavailable } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";

export type JiraIssueRef = { issueId: string; projectId: number };

export const HOST_DATA_PROBLEM = "There was a problem retrieving your project data from Atlassian.";

/** The HTTP status a host call failed with, if the host answered at all. */
function hostStatusOf(error: unknown): number | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  if (typeof status === "number") return status;
  if (typeof statusCode === "number") return statusCode;
  return undefined;
}

/**
 * Asks Jira, as the app, whether the issue exists and which project holds it: links are only
 * written for real issues, and only to requirements of that project or the global one.
 * Jira answers 404 both for a missing issue and for one the app cannot see.
 */
export async function findJiraIssue(deps: ServiceDeps<"hostClient">, actor: Actor, issueId: string): Promise<JiraIssueRef> {
  let issue: { id?: unknown; fields?: { project?: { id?: unknown } } };
  try {
    issue = await deps.hostClient.call(actor.tenantId, "jira", {
      method: "GET",
      path: `/rest/api/3/issue/${encodeURIComponent(issueId)}?fields=project`,
    });
  } catch (error) {
    if (hostStatusOf(error) === 404) throw notFound("Issue");
    throw unavailable(HOST_DATA_PROBLEM);
  }
  const projectId = Number(issue.fields?.project?.id);
  if (!Number.isInteger(projectId)) throw unavailable(HOST_DATA_PROBLEM);
  return { issueId: String(issue.id ?? issueId), projectId };
}
