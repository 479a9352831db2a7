import DynamicTable from "@atlaskit/dynamic-table";
import { requirementIdLabel } from "../../../common/labels.js";
import type { RequirementLite } from "../../../common/schemas/requirement.js";
import { useRequirementHref } from "../../hooks/useRequirementHref.js";

const HEAD = {
  cells: [
    { key: "id", content: "ID", width: 15 },
    { key: "name", content: "Name", width: 30 },
    { key: "description", content: "Description", width: 55 },
  ],
};

/**
 * The macros' table: ID (label), Name and Description, each requirement linking to its page in Jira
 * (a new tab: the macro sits inside a Confluence page), headed by what the macro shows.
 */
export function RequirementsTable({
  caption,
  requirements,
  emptyText,
}: {
  caption: string;
  requirements: readonly RequirementLite[];
  emptyText: string;
}) {
  const hrefOf = useRequirementHref();
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
      caption={caption}
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
