import Heading from "@atlaskit/heading";
import { Stack } from "@atlaskit/primitives";
import SectionMessage from "@atlaskit/section-message";

/** Spec section 2: how requirements and Confluence content come together (text only). */
export function ConfluenceInfoSection() {
  return (
    <Stack space="space.200">
      <Heading size="medium" as="h2">
        Link Confluence Content
      </Heading>
      <SectionMessage title="Link requirements to Confluence pages">
        <p>
          Install rmCloud on the Confluence site of this Jira site as well. Requirements then show their linked Confluence content (title,
          last update and contributors), and pages can hold two rmCloud macros: one shows a table of the requirements you pick, the other
          shows every requirement linked to the page.
        </p>
        <p>
          To keep pickers short, list the keys of the spaces to offer under "Confluence spaces to filter" below. With the field empty, pages
          of every space are offered. A requirement can link up to 20 pieces of content.
        </p>
      </SectionMessage>
    </Stack>
  );
}
