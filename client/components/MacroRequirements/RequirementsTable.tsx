import DynamicTable from "@atlaskit/dynamic-table";
import { requirementIdLabel } from "../../../common/labels.js";
import { requirementPageUrl } from "../../../common/requirementLink.js";
import type { RequirementLite } from "../../../common/schemas/requirement.js";
import { useUser } from "../../api/user.js";
import { useJiraProjectForLinks } from "../../api/confluence.js";

const HEAD = {
  cells: [
    { key: "id", content: "ID", width: 15 },
    { key: "name", content: "Name", width: 30 },
    { key: "description", content: "Description", width: 55 },
  ],
};

/**
 * The macros' table: ID (label), Name and Description, each requirement linking to its page in Jira
 * (a new tab: the macro sits inside a Confluence page).
 */
export function RequirementsTable({ requirements, emptyText }: { requirements: readonly RequirementLite[]; emptyText: string }) {
  const user = useUser();
  const jiraProject = useJiraProjectForLinks();
  const hrefOf = (requirement: RequirementLite) => {
    const jiraProjectId = requirement.project === 0 ? jiraProject.data : requirement.project;
    if (!user.data || jiraProjectId === null || jiraProjectId === undefined) return undefined;
    return requirementPageUrl(user.data.atlassian_base_url, {
      jiraProjectId,
      projectId: requirement.project,
      requirementId: requirement.requirement_id,
    });
  };
  const link = (requirement: RequirementLite, text: string) => {
    const href = hrefOf(requirement);
    return href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : (
      text
    );
  };
  return (
    <DynamicTable
      caption="Requirements"
      head={HEAD}
      rows={requirements.map((requirement) => ({
        key: String(requirement.requirement_id),
        cells: [
          { key: "id", content: link(requirement, requirementIdLabel(requirement)) },
          { key: "name", content: link(requirement, requirement.name) },
          { key: "description", content: requirement.description },
        ],
      }))}
      emptyView={<p>{emptyText}</p>}
    />
  );
}
