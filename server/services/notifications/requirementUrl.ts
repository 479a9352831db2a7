/**
 * Must match the Connect descriptor: the add-on key and the key of the Jira project page
 * module that shows the main requirements screen.
 */
export const ADDON_KEY = "rmcloud";
export const REQUIREMENTS_PAGE_MODULE_KEY = "requirements";

/**
 * The requirement inside Jira: the add-on's project page on the tenant's site, deep-linked with
 * the spec's projectId and requirementId query parameters (docs/decisions.md). The page reads
 * them from its iframe URL; `project.id` gives Jira the project context of the page.
 */
export function requirementUrl(siteUrl: string, projectId: number, requirementId: number): string {
  const query = new URLSearchParams({
    "project.id": String(projectId),
    projectId: String(projectId),
    requirementId: String(requirementId),
  });
  // Joined as text, not resolved with URL(), so a site under a context path (/jira) keeps it.
  return `${siteUrl.replace(/\/+$/, "")}/plugins/servlet/ac/${ADDON_KEY}/${REQUIREMENTS_PAGE_MODULE_KEY}?${query}`;
}
