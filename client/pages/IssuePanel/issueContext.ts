import type { HostContext } from "../../host/types.js";

export type IssueContext = { issueId: string; projectId: number };

/**
 * The issue a panel or dialog is about: the descriptor puts `issueId` and `projectId` in the
 * iframe URL; a host that does not substitute them still names the issue in its context.
 */
export async function issueContextOf(search: string, getContext: () => Promise<HostContext>): Promise<IssueContext> {
  const params = new URLSearchParams(search);
  let issueId = params.get("issueId") ?? undefined;
  let projectId = params.get("projectId") ?? undefined;
  if (!issueId || !projectId) {
    const context = await getContext();
    issueId ||= context.issueId;
    projectId ||= context.projectId;
  }
  if (!issueId || !/^\d+$/.test(issueId) || !projectId || !/^\d+$/.test(projectId)) {
    throw new Error("The host did not say which issue this is");
  }
  return { issueId, projectId: Number(projectId) };
}

/** The project and the global one: the requirements an issue of that project can link to. */
export const linkableProjectIds = (projectId: number) => (projectId === 0 ? [0] : [projectId, 0]);

/**
 * The requirement on the add-on's project page in Jira, for a new tab: Connect passes `ac.*`
 * parameters on to the page's iframe, where `projectId` and `requirementId` deep-link (spec section 2).
 * A global requirement opens on the issue's project page with project 0 chosen.
 */
export function requirementPageUrl(
  jiraBaseUrl: string,
  target: { jiraProjectId: number; projectId: number; requirementId: number },
  page = { appKey: "rmcloud", moduleKey: "rmcloud-requirements" },
): string {
  const params = new URLSearchParams({
    "project.id": String(target.jiraProjectId),
    "ac.projectId": String(target.projectId),
    "ac.requirementId": String(target.requirementId),
  });
  return `${jiraBaseUrl.replace(/\/$/, "")}/plugins/servlet/ac/${page.appKey}/${page.moduleKey}?${params.toString()}`;
}
