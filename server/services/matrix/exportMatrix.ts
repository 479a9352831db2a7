import { requirementIdLabel, SUSPECT_MARKER } from "../../../common/labels.js";
import { MATRIX_HEADER_ROW } from "../../../common/schemas/matrix.js";
import type { HostClient } from "../../connect/hostClient.js";
import { countMatrixRows, type ExportRow, matrixRowsPage } from "../../db/matrixStore.js";
import type { ObjectStorage } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { readWithHostRetries, type Sleep } from "../../connect/hostClientImpl.js";
import { type IssueDetails, issueDetailsReader } from "../jira/issueDetails.js";
import { linkedIssuesUserMayBrowse } from "../jira/jiraPermissions.js";
import { pagesReadAhead } from "../pagesReadAhead.js";
import { streamWordTable, type WordCell } from "./wordDocument.js";

export const DOCX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const GLOBAL_PROJECT_NAME = "Global Requirements";
/** Requirements read (and their issues looked up) per step; progress moves after each. */
export const EXPORT_PAGE_ROWS = 1000;
/**
 * Pages read ahead of the one being written. Requirements are read one page after another (keyset),
 * but each page's Jira read starts as soon as its rows are in, so Jira answers for several pages
 * while earlier ones are written; a page of 1000 rows and its issues is a few hundred kB.
 */
export const EXPORT_READ_AHEAD_PAGES = 3;

export type MatrixExportInput = { projectId: number; selectedIssueTypes: readonly string[]; storageKey: string };
/** Called as rows are written; `completedRows` only grows. */
export type ReportProgress = (completedRows: number, totalRows: number) => Promise<void>;
export type MatrixExportDeps = ServiceDeps & { hostClient: HostClient; storage: ObjectStorage };

type IssueTypeAnswer = { id: string; name: string }[];

/** The exported columns: the selected issue types in the project's own order, named as Jira names them. */
async function exportedIssueTypes(deps: MatrixExportDeps, tenantId: string, projectId: number, selected: readonly string[], sleep?: Sleep) {
  if (selected.length === 0) return [];
  const path = projectId === 0 ? "/rest/api/3/issuetype" : `/rest/api/3/issuetype/project?projectId=${projectId}`;
  const types = await readWithHostRetries(() => deps.hostClient.call<IssueTypeAnswer>(tenantId, "jira", { method: "GET", path }), sleep);
  const wanted = new Set(selected);
  const seen = new Set<string>();
  return types.filter((type) => wanted.has(String(type.id)) && !seen.has(String(type.id)) && seen.add(String(type.id)));
}

async function projectName(deps: MatrixExportDeps, tenantId: string, projectId: number, sleep?: Sleep): Promise<string> {
  if (projectId === 0) return GLOBAL_PROJECT_NAME;
  const project = await readWithHostRetries(
    () =>
      deps.hostClient.call<{ name?: string; key?: string }>(tenantId, "jira", { method: "GET", path: `/rest/api/3/project/${projectId}` }),
    sleep,
  );
  return project.key ? `${project.name} (${project.key})` : String(project.name ?? projectId);
}

/**
 * Writes the project's traceability matrix as a .docx straight into object storage: requirements
 * are read a page at a time (keyset), a few pages' issues looked up in Jira while an earlier page
 * is being written, and each row streamed into the document, so memory stays flat however many
 * rows. Writing to the same key again replaces the file, so a retried job is harmless.
 * Jira is read as the app, so only the issues the exporting person may browse (asked of Jira once
 * for the whole project before the first row) are looked up and shown; the others are left out as
 * if they were not linked.
 */
export async function writeMatrixExport(
  deps: MatrixExportDeps,
  actor: Actor,
  input: MatrixExportInput,
  reportProgress: ReportProgress,
  options: { now?: Date; sleep?: Sleep } = {},
): Promise<{ totalRows: number }> {
  const { tenantId } = actor;
  const now = options.now ?? new Date();
  const [totalRows, issueTypes, project, browsable] = await Promise.all([
    countMatrixRows(deps.db, tenantId, input.projectId),
    exportedIssueTypes(deps, tenantId, input.projectId, input.selectedIssueTypes, options.sleep),
    projectName(deps, tenantId, input.projectId, options.sleep),
    // Without issue-type columns no issue is shown, and none needs asking about.
    input.selectedIssueTypes.length === 0 ? new Set<string>() : linkedIssuesUserMayBrowse(deps, actor, input.projectId, options.sleep),
  ]);
  await reportProgress(0, totalRows);
  const typeIds = issueTypes.map((type) => String(type.id));

  const readIssues = issueDetailsReader(deps.hostClient, tenantId, typeIds, options.sleep);
  const pages = pagesReadAhead({
    pageRows: EXPORT_PAGE_ROWS,
    readAhead: EXPORT_READ_AHEAD_PAGES,
    readPage: (last: ExportRow | undefined) =>
      matrixRowsPage(deps.db, tenantId, input.projectId, last?.requirementId ?? 0, EXPORT_PAGE_ROWS),
    lookUp: (rows) => readIssues(rows.flatMap((row) => row.issueIds.filter((id) => browsable.has(id)))),
  });

  async function* tableRows(): AsyncGenerator<WordCell[]> {
    let completed = 0;
    for await (const page of pages) {
      for (const row of page.rows) yield rowCells(row, typeIds, page.found);
      completed += page.rows.length;
      await reportProgress(completed, Math.max(totalRows, completed));
    }
  }

  const document = streamWordTable(
    {
      title: "Traceability Matrix",
      subtitle: [`Project: ${project}`, `Exported: ${now.toISOString().slice(0, 10)}`],
      columns: [
        { heading: MATRIX_HEADER_ROW[0] },
        { heading: MATRIX_HEADER_ROW[1], weight: 2 },
        { heading: MATRIX_HEADER_ROW[2] },
        ...issueTypes.map((type) => ({ heading: type.name, weight: 2 })),
      ],
    },
    tableRows(),
    now,
  );
  await deps.storage.putStream(input.storageKey, document, DOCX_CONTENT_TYPE);
  return { totalRows };
}

function rowCells(row: ExportRow, typeIds: readonly string[], issues: ReadonlyMap<string, IssueDetails>): WordCell[] {
  const id = requirementIdLabel({ prefix: row.prefix, display_id: row.displayId, requirement_id: row.requirementId });
  const byType = new Map<string, WordCell>(typeIds.map((typeId) => [typeId, []]));
  for (const issueId of row.issueIds) {
    const issue = issues.get(issueId);
    const cell = issue && byType.get(issue.issueTypeId);
    if (!issue || !cell) continue;
    const suspect = row.suspectIssueIds.includes(issueId) ? [{ text: `${SUSPECT_MARKER} `, bold: true }] : [];
    cell.push([
      ...suspect,
      { text: issue.key, bold: true },
      { text: ` ${issue.summary}` },
      ...(issue.status ? [{ text: ` (${issue.status})` }] : []),
    ]);
  }
  const idCell = [{ text: id }, ...(row.hasSuspectLinks ? [{ text: ` ${SUSPECT_MARKER}`, bold: true }] : [])];
  return [[idCell], [[{ text: row.name }]], [[{ text: row.typeName }]], ...typeIds.map((typeId) => byType.get(typeId) ?? [])];
}
