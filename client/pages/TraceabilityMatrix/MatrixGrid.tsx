import { scrollPaneStyle } from "../../components/ScrollPane/scrollPaneStyle.js";
import Lozenge from "@atlaskit/lozenge";
import { token } from "@atlaskit/tokens";
import Tooltip from "@atlaskit/tooltip";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import type { MatrixRow } from "../../../common/schemas/matrix.js";
import type { RequirementType } from "../../../common/schemas/requirementType.js";
import type { JiraIssue } from "../../api/jira/issues.js";
import type { JiraIssueType } from "../../api/jira/projectData.js";
import { idOf, issuesOfType, lozengeAppearance, requirementOf } from "./matrixView.js";

const ESTIMATED_ROW_HEIGHT = 40;

type MatrixGridProps = {
  rows: readonly MatrixRow[];
  requirementTypes: readonly RequirementType[];
  headings: readonly string[];
  issueTypes: readonly JiraIssueType[];
  issues: ReadonlyMap<string, JiraIssue> | undefined;
  issuesLoading: boolean;
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

/**
 * The matrix as a table whose rows are virtualised: however many requirements, only the
 * rows in view (and a few around them) are in the DOM. Rows grow with their cells, so each is
 * measured once rendered.
 */
export function MatrixGrid({ rows, requirementTypes, headings, issueTypes, issues, issuesLoading, siteUrl }: MatrixGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => requirementOf(rows[index] as MatrixRow)?.requirement_id ?? index,
    overscan: 10,
  });
  const typeNames = new Map(requirementTypes.map((type) => [type.requirement_type_id, type.name]));
  const template = `120px minmax(200px, 2fr) 120px${" minmax(220px, 1.5fr)".repeat(issueTypes.length)}`;
  const minWidth = 440 + 220 * issueTypes.length;

  return (
    <div
      ref={scrollRef}
      style={scrollPaneStyle(240)}
    >
      <table aria-label="Traceability matrix" aria-rowcount={rows.length + 1} style={{ display: "grid", minWidth, borderCollapse: "collapse" }}>
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
                {issuesLoading ? "…" : ""}
              </th>
            ))}
          </tr>
        </thead>
        <tbody style={{ display: "grid", height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((virtualRow) => {
            const row = rows[virtualRow.index];
            const requirement = row && requirementOf(row);
            if (!row || !requirement) return null;
            return (
              <tr
                key={virtualRow.key}
                ref={virtualizer.measureElement}
                data-index={virtualRow.index}
                aria-rowindex={virtualRow.index + 2}
                style={{
                  display: "grid",
                  gridTemplateColumns: template,
                  position: "absolute",
                  width: "100%",
                  transform: `translateY(${virtualRow.start}px)`,
                }}
              >
                <td style={cellStyle}>{idOf(requirement)}</td>
                <td style={cellStyle}>{requirement.name}</td>
                <td style={cellStyle}>{typeNames.get(requirement.requirement_type_id) ?? ""}</td>
                {issueTypes.map((type) => (
                  <td key={type.id} style={cellStyle}>
                    {issues
                      ? issuesOfType(row, type.id, issues).map((issue) => <IssueEntry key={issue.id} issue={issue} siteUrl={siteUrl} />)
                      : null}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function IssueEntry({ issue, siteUrl }: { issue: JiraIssue; siteUrl: string }) {
  const status = issue.fields.status;
  return (
    <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: token("space.050"), padding: "2px 0" }}>
      <a href={`${siteUrl.replace(/\/+$/, "")}/browse/${issue.key}`} target="_blank" rel="noopener noreferrer">
        {issue.key}
      </a>
      <span>{issue.fields.summary}</span>
      {status ? (
        <Tooltip content={status.name}>
          <Lozenge appearance={lozengeAppearance(status.statusCategory?.key)}>{status.name}</Lozenge>
        </Tooltip>
      ) : null}
    </div>
  );
}
