import type { MouseEvent, ReactNode } from "react";
import { issuePageUrl } from "../../../common/requirementLink.js";
import { HOST_DATA_ERROR } from "../../api/jira/hostData.js";
import { type JiraIssue, useIssuesByIds } from "../../api/jira/issues.js";
import { useCurrentUser } from "../../api/user.js";
import { useHost } from "../../host/index.js";

export type LinkedIssuesProps = {
  /** The requirement's `issues[].atlassian_issue_id`, in its order. */
  issueIds: readonly string[];
  /** Shown after an issue's summary: the requirement detail's suspect-link marker (issue 34). */
  markerOf?: (issueId: string) => ReactNode;
};

/**
 * Requirement detail, Linked Issues (spec section 2): type icon, key (opens the issue in Jira) and
 * summary. A click opens the issue in the Jira page around the add-on; the key's address is the
 * issue's own Jira page, so a new tab, a copied link or a middle click get Jira, not the add-on.
 * The issues are looked up 50 ids a request with 10 requests in flight, so a requirement linked to
 * 500 issues costs 10 searches, not 500 calls.
 */
export function LinkedIssues({ issueIds, markerOf }: LinkedIssuesProps) {
  const host = useHost();
  const user = useCurrentUser();
  const issues = useIssuesByIds(issueIds);
  if (issueIds.length === 0) return <p>None</p>;
  if (issues.isError) return <p role="alert">{HOST_DATA_ERROR}</p>;
  if (issues.isPending) return <p aria-busy="true">Loading issues…</p>;
  return (
    <ul aria-label="Linked Issues" style={{ listStyle: "none", margin: 0, padding: 0 }}>
      {issueIds.map((issueId) => (
        <LinkedIssueRow
          key={issueId}
          issueId={issueId}
          issue={issues.data.get(issueId)}
          jiraBaseUrl={user.data?.atlassian_base_url}
          open={host.navigateToIssue}
          marker={markerOf?.(issueId)}
        />
      ))}
    </ul>
  );
}

function LinkedIssueRow({
  issueId,
  issue,
  jiraBaseUrl,
  open,
  marker,
}: {
  issueId: string;
  issue: JiraIssue | undefined;
  jiraBaseUrl: string | undefined;
  open: (key: string) => void;
  marker: ReactNode;
}) {
  if (!issue) {
    return (
      <li style={{ padding: "4px 0", color: "#626f86" }}>
        Issue {issueId} is no longer available in Jira {marker}
      </li>
    );
  }
  const type = issue.fields.issuetype;
  return (
    <li style={{ display: "flex", alignItems: "center", gap: 8, padding: "4px 0" }}>
      {type?.iconUrl ? <img src={type.iconUrl} alt={type.name} title={type.name} width={16} height={16} /> : null}
      <a
        href={jiraBaseUrl === undefined ? undefined : issuePageUrl(jiraBaseUrl, issue.key)}
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          open(issue.key);
        }}
      >
        {issue.key}
      </a>
      <span>{issue.fields.summary}</span>
      {marker}
    </li>
  );
}

/** A click the page takes itself; one with a modifier key (a new tab, a new window) is the browser's. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}
