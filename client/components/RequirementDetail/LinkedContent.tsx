import type { ReactNode } from "react";
import DynamicTable from "@atlaskit/dynamic-table";
import Heading from "@atlaskit/heading";
import SectionMessage from "@atlaskit/section-message";
import Spinner from "@atlaskit/spinner";
import { token } from "@atlaskit/tokens";
import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { useCurrentUser } from "../../api/user.js";
import { useContentDetails } from "../../api/confluence.js";
import { formatDate } from "../../format/date.js";
import { contentUrl, NONE } from "./detailValues.js";

const HEAD = {
  cells: [
    { key: "title", content: "Title" },
    { key: "updated", content: "Last updated" },
    { key: "contributors", content: "Contributors" },
  ],
};

/**
 * Linked Confluence Content, only when the site has rmCloud on Confluence (spec section 6): title
 * (opening the page in a new tab), last update and contributors, which our server reads from
 * Confluence as the app. A page Confluence does not answer for (deleted, hidden from the app, or
 * outside the space filter) stays listed by its id.
 */
export function LinkedContent({ contentIds, markerOf }: { contentIds: readonly string[]; markerOf?: (contentId: string) => ReactNode }) {
  const user = useCurrentUser();
  const installed = user.data?.installed_on_confluence === true;
  const details = useContentDetails(contentIds, installed);
  if (!installed || !user.data) return null;
  const siteUrl = user.data.atlassian_base_url;
  const byId = new Map((details.data ?? []).map((content) => [content.atlassian_content_id, content]));
  const body = () => {
    if (contentIds.length === 0) return <p>{NONE}</p>;
    if (details.isError) return <SectionMessage appearance="error">{WIKI_DATA_PROBLEM}</SectionMessage>;
    if (details.isLoading) return <Spinner size="small" label="Loading linked content" />;
    return (
      <DynamicTable
        label="Linked Confluence Content"
        head={HEAD}
        rows={contentIds.map((contentId) => {
          const content = byId.get(contentId);
          return {
            key: contentId,
            cells: [
              {
                key: "title",
                content: (
                  <>
                    <a href={content?.url || contentUrl(siteUrl, contentId)} target="_blank" rel="noopener noreferrer">
                      {content?.title ?? `Confluence page ${contentId}`}
                    </a>{" "}
                    {markerOf?.(contentId)}
                  </>
                ),
              },
              { key: "updated", content: formatDate(content?.last_updated) },
              { key: "contributors", content: content?.contributors.map((c) => c.display_name).join(", ") || NONE },
            ],
          };
        })}
      />
    );
  };
  return (
    <section aria-label="Linked Confluence Content" style={{ marginTop: token("space.300") }}>
      <Heading size="small">Linked Confluence Content</Heading>
      {body()}
    </section>
  );
}
