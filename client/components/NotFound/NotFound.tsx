import SectionMessage from "@atlaskit/section-message";

/** The headings of the not-found state (what the server answers a missing or hidden object, spelled for people). */
export const NOT_FOUND_TITLES = { requirement: "Requirement not found", project: "Project not found" } as const;
export const NOT_FOUND_TEXT = "It does not exist, or you don't have permission to see it in Jira.";

/**
 * What a deep link to a requirement or project the user may not see shows: the same as one that
 * does not exist (the server never tells them apart), instead of an error.
 */
export function NotFound({ thing }: { thing: keyof typeof NOT_FOUND_TITLES }) {
  return (
    <SectionMessage appearance="warning" title={NOT_FOUND_TITLES[thing]}>
      {NOT_FOUND_TEXT}
    </SectionMessage>
  );
}
