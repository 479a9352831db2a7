import SectionMessage from "@atlaskit/section-message";

/** Spec section 8's wording for a baseline that could not be read. */
export function RetrieveError({ error }: { error: Error }) {
  return <SectionMessage appearance="error">There was a problem retrieving your baseline: {error.message}</SectionMessage>;
}
