/** The headings of the not-found state (what the server answers a missing or hidden object, spelled for people). */
export const NOT_FOUND_TITLES = { requirement: "Requirement not found", project: "Project not found" } as const;
export const NOT_FOUND_TEXT = "It does not exist, or you don't have permission to see it in Jira.";
