import { requirementPageUrl } from "../../common/requirementLink.js";
import { useCurrentUser } from "../api/user.js";
import { useJiraProjectForLinks } from "../api/confluence.js";

/**
 * Where a requirement opens on the add-on's page in Jira, for links a person may open in a new tab
 * (a global requirement opens on the Jira project the site chose for such links); undefined until
 * the site's address is known.
 */
export function useRequirementHref(): (requirement: { project: number; requirement_id: number }) => string | undefined {
  const user = useCurrentUser();
  const jiraProject = useJiraProjectForLinks();
  return (requirement) => {
    const jiraProjectId = requirement.project === 0 ? jiraProject.data : requirement.project;
    if (!user.data || jiraProjectId === null || jiraProjectId === undefined) return undefined;
    return requirementPageUrl(user.data.atlassian_base_url, {
      jiraProjectId,
      projectId: requirement.project,
      requirementId: requirement.requirement_id,
    });
  };
}
