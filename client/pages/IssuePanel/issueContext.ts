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
