import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { requirementLabel } from "../../../common/labels.js";
import { type RequirementLite, useSuspectRequirements } from "../../api/requirements.js";
import { useRequirementHref } from "../../hooks/useRequirementHref.js";

export const NO_SUSPECT_REQUIREMENTS_TEXT = "No requirement of this project has suspect links.";

/**
 * The tree filtered to requirements with suspect links (issue 34): a flat list, by id, each
 * opening its requirement as a tree row does.
 */
export function SuspectRequirementList({
  projectId,
  currentRequirementId,
  onOpen,
}: {
  projectId: number;
  currentRequirementId: number | undefined;
  onOpen(requirement: RequirementLite): void;
}) {
  const suspect = useSuspectRequirements(projectId, true);
  // As the detail's linked requirements: opens in the app, and in a new tab on the requirement's Jira page.
  const hrefOf = useRequirementHref();
  if (suspect.isLoading) return <Spinner label="Loading requirements with suspect links" />;
  if (suspect.isError) return <p role="alert">There was an error loading your requirements</p>;
  const requirements = suspect.data ?? [];
  if (requirements.length === 0) return <p>{NO_SUSPECT_REQUIREMENTS_TEXT}</p>;
  return (
    <ul aria-label="Requirements with suspect links" style={{ listStyle: "none", margin: 0, padding: 0 }}>
      {requirements.map((requirement) => {
        const current = requirement.requirement_id === currentRequirementId;
        return (
          <li key={requirement.requirement_id} style={{ padding: `${token("space.050")} 0` }}>
            <a
              href={hrefOf(requirement) ?? "#"}
              aria-current={current ? "true" : undefined}
              style={current ? { fontWeight: 600 } : undefined}
              onClick={(event) => {
                event.preventDefault();
                onOpen(requirement);
              }}
            >
              {requirementLabel(requirement)}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
