import { scrollPaneRect, scrollPaneStyle } from "../../components/ScrollPane/scrollPaneStyle.js";
import Lozenge from "@atlaskit/lozenge";
import { token } from "@atlaskit/tokens";
import Tooltip from "@atlaskit/tooltip";
import { type UseQueryResult, useQueries } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { SUSPECT_MARKER } from "../../../common/labels.js";
import { issuePageUrl } from "../../../common/requirementLink.js";
import type { MatrixRow } from "../../../common/schemas/matrix.js";
import type { RequirementType } from "../../../common/schemas/requirementType.js";
import { HOST_DATA_ERROR } from "../../api/jira/hostData.js";
import { type JiraIssue, lookupIssues } from "../../api/jira/issues.js";
import type { JiraIssueType } from "../../api/jira/projectData.js";
import { MATRIX_WINDOW_ROWS, type MatrixFilter, useMatrixWindows } from "../../api/matrix.js";
import { useHost } from "../../host/index.js";
import { idOf, issuesOfType, linkedIssueIds, lozengeAppearance, requirementOf, windowsInView } from "./matrixView.js";

const ESTIMATED_ROW_HEIGHT = 40;
/** The screen's height above and below the scrolling pane. */
const PANE_CHROME = 240;

type MatrixGridProps = {
  projectId: number;
  /** The filter the server applies; `totalRows` is how many rows it leaves. */
  filter: MatrixFilter;
  totalRows: number;
  requirementTypes: readonly RequirementType[];
  headings: readonly string[];
  issueTypes: readonly JiraIssueType[];
  siteUrl: string;
};

const cellStyle = {
  textAlign: "left" as const,
  padding: `${token("space.075")} ${token("space.100")}`,
  borderBottom: `1px solid ${token("color.border")}`,
  borderRight: `1px solid ${token("color.border")}`,
  overflowWrap: "anywhere" as const,
  minWidth: 0,
};

const headingStyle = { ...cellStyle, fontWeight: 600 };

/** Stable, so the merged map is rebuilt only when an answer changes. */
function mergeIssueAnswers(answers: UseQueryResult<Map<string, JiraIssue>>[]) {
  return {
    byId: new Map(answers.flatMap((answer) => (answer.data ? [...answer.data] : []))),
    isFetching: answers.some((answer) => answer.isFetching),
    isError: answers.some((answer) => answer.isError),
  };
}

/**
 * The matrix as a table whose rows are virtualised and fetched a window at a time: however many
 * requirements, only the rows in view (and a few around them) are in the DOM, only their windows
 * are asked of the server, and only their issues of Jira. Rows grow with their cells, so each is
 * measured once rendered.
 */
export function MatrixGrid({ projectId, filter, totalRows, requirementTypes, headings, issueTypes, siteUrl }: MatrixGridProps) {
  const host = useHost();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: totalRows,
    getScrollElement: () => scrollRef.current,
    initialRect: scrollPaneRect(PANE_CHROME),
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 10,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const windows = windowsInView(virtualRows, MATRIX_WINDOW_ROWS);
  const windowAnswers = useMatrixWindows(projectId, filter, windows);
  // Only the issues the windows in view name, 50 ids a search with 10 searches in flight (spec section 9).
  const issues = useQueries({
    queries: windows.map((window, n) => {
      const answer = windowAnswers[n];
      const ids = linkedIssueIds(answer?.data?.rows ?? []);
      return {
        queryKey: ["jira", "issues", "matrix", projectId, filter.words, filter.suspect, window, answer?.dataUpdatedAt ?? 0],
        queryFn: () => lookupIssues(host, ids),
        enabled: ids.length > 0,
        retry: false,
      };
    }),
    combine: mergeIssueAnswers,
  });
  const rowsByWindow = new Map(windows.map((window, n) => [window, windowAnswers[n]?.data?.rows]));
  const rowAt = (index: number): MatrixRow | undefined =>
    rowsByWindow.get(Math.floor(index / MATRIX_WINDOW_ROWS))?.[index % MATRIX_WINDOW_ROWS];
  const typeNames = new Map(requirementTypes.map((type) => [type.requirement_type_id, type.name]));
  const template = `120px minmax(200px, 2fr) 120px${" minmax(220px, 1.5fr)".repeat(issueTypes.length)}`;
  const minWidth = 440 + 220 * issueTypes.length;

  return (
    <>
      {issues.isError ? <p role="alert">{HOST_DATA_ERROR}</p> : null}
      <div ref={scrollRef} style={scrollPaneStyle(PANE_CHROME)}>
        <table
          aria-label="Traceability matrix"
          aria-rowcount={totalRows + 1}
          style={{ display: "grid", minWidth, borderCollapse: "collapse" }}
        >
          <thead style={{ display: "grid", position: "sticky", top: 0, zIndex: 1, background: token("elevation.surface.sunken") }}>
            <tr aria-rowindex={1} style={{ display: "grid", gridTemplateColumns: template }}>
              {headings.map((heading) => (
                <th key={`requirement-${heading}`} style={headingStyle}>
                  {heading}
                </th>
              ))}
              {issueTypes.map((type) => (
                <th key={type.id} style={headingStyle}>
                  {type.name}
                  {issues.isFetching ? "…" : ""}
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ display: "grid", height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualRows.map((virtualRow) => {
              const row = rowAt(virtualRow.index);
              const requirement = row && requirementOf(row);
              const placement = {
                display: "grid",
                gridTemplateColumns: template,
                position: "absolute" as const,
                width: "100%",
                transform: `translateY(${virtualRow.start}px)`,
              };
              if (!row || !requirement)
                return (
                  <tr
                    key={virtualRow.key}
                    aria-rowindex={virtualRow.index + 2}
                    aria-busy="true"
                    style={{ ...placement, height: ESTIMATED_ROW_HEIGHT }}
                  >
                    <td style={cellStyle}>…</td>
                  </tr>
                );
              return (
                <tr
                  key={virtualRow.key}
                  ref={virtualizer.measureElement}
                  data-index={virtualRow.index}
                  aria-rowindex={virtualRow.index + 2}
                  style={placement}
                >
                  <td style={cellStyle}>
                    {idOf(requirement)}
                    {row.has_suspect_links ? (
                      <Tooltip content="A link of this requirement is suspect: it changed since the link was last reviewed">
                        <span style={suspectStyle}> {SUSPECT_MARKER}</span>
                      </Tooltip>
                    ) : null}
                  </td>
                  <td style={cellStyle}>{requirement.name}</td>
                  <td style={cellStyle}>{typeNames.get(requirement.requirement_type_id) ?? ""}</td>
                  {issueTypes.map((type) => {
                    const entries = issuesOfType(row, type.id, issues.byId);
                    const suspectIds = suspectIssueIds(row);
                    const isSuspect = entries.some((issue) => suspectIds.has(issue.id));
                    return (
                      <td
                        key={type.id}
                        data-suspect={isSuspect ? "true" : undefined}
                        style={isSuspect ? { ...cellStyle, background: token("color.background.warning") } : cellStyle}
                      >
                        {entries.map((issue) => (
                          <IssueEntry key={issue.id} issue={issue} siteUrl={siteUrl} suspect={suspectIds.has(issue.id)} />
                        ))}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

const suspectStyle = { color: token("color.text.warning"), fontWeight: 600, whiteSpace: "nowrap" as const };

/** The row's issues whose link is suspect (issue 34). */
const suspectIssueIds = (row: MatrixRow) => new Set(row.issues.filter((issue) => issue.suspect).map((issue) => issue.atlassian_issue_id));

function IssueEntry({ issue, siteUrl, suspect }: { issue: JiraIssue; siteUrl: string; suspect: boolean }) {
  const status = issue.fields.status;
  return (
    <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: token("space.050"), padding: "2px 0" }}>
      <a href={issuePageUrl(siteUrl, issue.key)} target="_blank" rel="noopener noreferrer">
        {issue.key}
      </a>
      <span>{issue.fields.summary}</span>
      {suspect ? (
        <Tooltip content="The requirement changed since this link was last reviewed">
          <span style={suspectStyle}>{SUSPECT_MARKER}</span>
        </Tooltip>
      ) : null}
      {status ? (
        <Tooltip content={status.name}>
          <Lozenge appearance={lozengeAppearance(status.statusCategory?.key)}>{status.name}</Lozenge>
        </Tooltip>
      ) : null}
    </div>
  );
}
