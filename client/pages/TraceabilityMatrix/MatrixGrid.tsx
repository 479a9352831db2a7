import Lozenge from "@atlaskit/lozenge";
import { token } from "@atlaskit/tokens";
import Tooltip from "@atlaskit/tooltip";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useRef } from "react";
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
  padding: `${token("space.075")} ${token("space.100")}`,
  borderBottom: `1px solid ${token("color.border")}`,
  borderRight: `1px solid ${token("color.border")}`,
  overflowWrap: "anywhere" as const,
  minWidth: 0,
};

/**
 * The matrix as an ARIA table whose rows are virtualised: however many requirements, only the
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
      style={{
        height: "calc(100vh - 240px)",
        minHeight: 320,
        overflow: "auto",
        border: `1px solid ${token("color.border")}`,
        borderRadius: token("radius.small"),
      }}
    >
      <div role="table" aria-label="Traceability matrix" aria-rowcount={rows.length + 1} style={{ minWidth }}>
        <div role="rowgroup" style={{ position: "sticky", top: 0, zIndex: 1, background: token("elevation.surface.sunken") }}>
          <div role="row" aria-rowindex={1} style={{ display: "grid", gridTemplateColumns: template }}>
            {[...headings, ...issueTypes.map((type) => type.name)].map((heading, index) => (
              <div key={`${index}-${heading}`} role="columnheader" style={{ ...cellStyle, fontWeight: 600 }}>
                {heading}
                {index >= headings.length && issuesLoading ? "…" : ""}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((virtualRow) => {
            const row = rows[virtualRow.index];
            if (!row) return null;
            return (
              <div
                key={virtualRow.key}
                ref={virtualizer.measureElement}
                data-index={virtualRow.index}
                style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${virtualRow.start}px)` }}
              >
                <MatrixRowView
                  row={row}
                  rowIndex={virtualRow.index + 2}
                  template={template}
                  typeName={typeNames.get(requirementOf(row)?.requirement_type_id ?? -1) ?? ""}
                  issueTypes={issueTypes}
                  issues={issues}
                  siteUrl={siteUrl}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

type MatrixRowViewProps = {
  row: MatrixRow;
  rowIndex: number;
  template: string;
  typeName: string;
  issueTypes: readonly JiraIssueType[];
  issues: ReadonlyMap<string, JiraIssue> | undefined;
  siteUrl: string;
};

const MatrixRowView = memo(function MatrixRowView({ row, rowIndex, template, typeName, issueTypes, issues, siteUrl }: MatrixRowViewProps) {
  const requirement = requirementOf(row);
  if (!requirement) return null;
  return (
    <div role="row" aria-rowindex={rowIndex} style={{ display: "grid", gridTemplateColumns: template }}>
      <div role="cell" style={cellStyle}>
        {idOf(requirement)}
      </div>
      <div role="cell" style={cellStyle}>
        {requirement.name}
      </div>
      <div role="cell" style={cellStyle}>
        {typeName}
      </div>
      {issueTypes.map((type) => (
        <div key={type.id} role="cell" style={cellStyle}>
          {issues
            ? issuesOfType(row, type.id, issues).map((issue) => <IssueEntry key={issue.id} issue={issue} siteUrl={siteUrl} />)
            : null}
        </div>
      ))}
    </div>
  );
});

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
