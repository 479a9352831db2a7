import Heading from "@atlaskit/heading";
import { token } from "@atlaskit/tokens";
import { useUser } from "../../api/auth.js";
import { contentUrl, NONE } from "./detailValues.js";

/**
 * Linked Confluence Content, only when the site has rmCloud on Confluence (spec section 6). A Jira
 * page cannot ask Confluence for titles, dates or contributors through its bridge, and our API has
 * no content lookup yet, so each page is shown by its id as a link that opens it (docs/decisions.md).
 */
export function LinkedContent({ contentIds }: { contentIds: readonly string[] }) {
  const user = useUser();
  if (!user.data?.installed_on_confluence) return null;
  const siteUrl = user.data.atlassian_base_url;
  return (
    <section aria-label="Linked Confluence Content" style={{ marginTop: token("space.300") }}>
      <Heading size="small">Linked Confluence Content</Heading>
      {contentIds.length === 0 ? (
        <p>{NONE}</p>
      ) : (
        <ul>
          {contentIds.map((contentId) => (
            <li key={contentId}>
              <a href={contentUrl(siteUrl, contentId)} target="_blank" rel="noopener noreferrer">
                Confluence page {contentId}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
