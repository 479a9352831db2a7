import { issueRequirementsAddress } from "../../../common/firstReads.js";
import { api } from "../../api/client.js";
import { type IssueContext, linkableProjectIds } from "./issueContext.js";

/** A requirement as GET /api/requirement lists it (spec section 3, requirement list item). */
export type IssueRequirement = {
  requirement_id: number;
  prefix: string;
  display_id?: string | null;
  name: string;
  project?: number;
  /** Issue 34: the requirement changed since its link to this issue was last reviewed. */
  issue_link_suspect?: boolean;
};

type RequirementList = { requirements: IssueRequirement[] } | IssueRequirement[];
const listOf = (body: RequirementList) => (Array.isArray(body) ? body : body.requirements);

export type LinkedToIssue = IssueRequirement & { projectId: number };

/** The requirements linked to the issue, the project's first, then the global ones (each knows its project for its link). */
export async function loadIssueRequirements(issue: IssueContext): Promise<LinkedToIssue[]> {
  const perProject = await Promise.all(
    linkableProjectIds(issue.projectId).map(async (projectId) =>
      listOf(await api.get<RequirementList>(issueRequirementsAddress(projectId, issue.issueId))).map((requirement) => ({
        ...requirement,
        projectId,
      })),
    ),
  );
  return perProject.flat();
}

export async function saveIssueRequirements(issueId: string, requirementIds: number[]): Promise<void> {
  await api.put(`/api/issue/${issueId}`, { requirements: requirementIds });
}
