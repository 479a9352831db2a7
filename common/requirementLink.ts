/** The Jira app's key and the key of its project page module (the main requirements screen). */
export const JIRA_APP_KEY = "rmcloud";
export const REQUIREMENTS_PAGE_MODULE_KEY = "rmcloud-requirements";
/** Spec section 2: the issue panel's Edit dialog. Connect shows it in the dialog's header; a Forge modal has none, so the page shows it. */
export const LINK_REQUIREMENTS_DIALOG_TITLE = "Update linked requirements";

/** A Jira issue's own page, for links a person may open in a new tab (the matrix, the requirement detail). */
export function issuePageUrl(jiraBaseUrl: string, issueKey: string): string {
  return `${jiraBaseUrl.replace(/\/+$/, "")}/browse/${encodeURIComponent(issueKey)}`;
}

/**
 * A requirement on the add-on's project page in Jira, for links in new tabs, comments and emails.
 * Jira passes `ac.*` page parameters on to the page's iframe, where `ac.projectId` and
 * `ac.requirementId` deep-link the main screen (spec section 2). A global requirement (project 0)
 * opens on some Jira project's page (`jiraProjectId`) with Global Requirements chosen.
 */
export function requirementPageUrl(
  jiraBaseUrl: string,
  target: { jiraProjectId: number; projectId: number; requirementId: number },
): string {
  const params = new URLSearchParams({
    "project.id": String(target.jiraProjectId),
    "ac.projectId": String(target.projectId),
    "ac.requirementId": String(target.requirementId),
  });
  // Joined as text, not resolved with URL(), so a site under a context path keeps it.
  return `${jiraBaseUrl.replace(/\/+$/, "")}/plugins/servlet/ac/${JIRA_APP_KEY}/${REQUIREMENTS_PAGE_MODULE_KEY}?${params}`;
}
