import { requirementIdLabel } from "../../../common/labels.js";
import type { MatrixRequirement, MatrixRow } from "../../../common/schemas/matrix.js";
import type { JiraIssue } from "../../api/jira/issues.js";

/** Spec section 2: the messages of an empty matrix and of a filter without hits. */
export const EMPTY_MATRIX_TEXT = "Please create at least one requirement to view the traceability matrix";
export const NO_HITS_TEXT = "No requirements found for your search query";
export const EXPORT_PROGRESS_TEXT = "Generating your export...";
export const EXPORT_ERROR_TEXT = "There was an error generating your exported file";
export const EXPORT_ERROR_ADVICE = 'Please try again, or contact rmCloud support via the "Get help" button.';

export const requirementOf = (row: MatrixRow): MatrixRequirement | undefined => row.requirements[0];

/** The windows (of `windowRows` rows each) that hold the rows in view, in order, once each. */
export function windowsInView(rows: readonly { index: number }[], windowRows: number): number[] {
  return [...new Set(rows.map((row) => Math.floor(row.index / windowRows)))];
}

export const idOf = (requirement: MatrixRequirement) => requirementIdLabel(requirement);

/** Every issue the matrix names, once each: the only issues whose details are asked of Jira. */
export function linkedIssueIds(rows: readonly MatrixRow[]): string[] {
  const ids = new Set<string>();
  for (const row of rows) for (const issue of row.issues) ids.add(issue.atlassian_issue_id);
  return [...ids];
}

/** The row's linked issues of one issue type, in link order; issues Jira did not answer for are left out. */
export function issuesOfType(row: MatrixRow, issueTypeId: string, issues: ReadonlyMap<string, JiraIssue>): JiraIssue[] {
  const found: JiraIssue[] = [];
  for (const { atlassian_issue_id } of row.issues) {
    const issue = issues.get(atlassian_issue_id);
    if (issue?.fields.issuetype?.id === issueTypeId) found.push(issue);
  }
  return found;
}

/** Jira's own colours for status categories: to do grey, in progress blue, done green. */
export function lozengeAppearance(categoryKey: string | undefined): "default" | "inprogress" | "success" {
  if (categoryKey === "done") return "success";
  if (categoryKey === "indeterminate") return "inprogress";
  return "default";
}

/**
 * Hidden issue-type columns per project in local storage (spec section 9). The hidden ones are
 * kept rather than the shown ones, so an issue type added to the project later shows up.
 */
const hiddenColumnsKey = (projectId: number) => `rmcloud-matrix-hidden-columns-${projectId}`;

export function loadHiddenColumns(storage: Pick<Storage, "getItem">, projectId: number): string[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(hiddenColumnsKey(projectId)) ?? "[]");
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

export function saveHiddenColumns(storage: Pick<Storage, "setItem">, projectId: number, hidden: readonly string[]): void {
  storage.setItem(hiddenColumnsKey(projectId), JSON.stringify(hidden));
}

export function exportProgressText(job: { completed_rows: number; total_rows: number } | undefined): string {
  return job && job.total_rows > 0 ? `${job.completed_rows} of ${job.total_rows}` : "";
}
