import { EXPORT_HEADERS, FOLDER_PATH_SEPARATOR, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { RESTRICTED_REQUIREMENT, requirementIdLabel, requirementLabel } from "../../../common/labels.js";
import { GLOBAL_PROJECT_ID } from "../../../common/constants.js";
import { listAttributes } from "../../db/attributeStore.js";
import { type ExportedRequirement, exportPage, mostComponentsOfOneRequirement, projectFolders } from "../../db/csvExportStore.js";
import { type AccessDeps, browsableProjectIds } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { askedOrUnavailable, linkedIssuesUserMayBrowse } from "../jira/jiraPermissions.js";
import { pagesReadAhead } from "../pagesReadAhead.js";
import { JiraNames } from "./jiraNames.js";

/**
 * How the export's rows are written: a BOM so Excel reads UTF-8; CRLF between records as RFC 4180
 * writes them; every cell holding a line break quoted. csv-stringify quotes only the record
 * delimiter itself once one is set, so a bare LF or CR (a multi-line description, the linked
 * requirements' one label per line) would end the record for every other reader, and a line of
 * such a cell could begin a formula in a spreadsheet.
 */
export const EXPORT_CSV_OPTIONS = { bom: true, record_delimiter: "windows", quote_record_delimiter: true } as const;

/** Requirements read per page: one Jira bulk fetch answers a page's issues; small enough to keep memory flat. */
const PAGE = 1000;
/** Pages whose rows and Jira names are read while an earlier one is written, as the matrix export does. */
const READ_AHEAD_PAGES = 3;

/**
 * The rows of GET /api/requirement/export, header first, produced page by page as the response
 * drains (no whole-file buffer): ID, Name, Description, Type, Status, Assignee, one Component/s
 * column per component (as Jira writes them), Linked issues (keys), Linked requirements (labels),
 * each custom field by name, Folder. Active requirements of the caller's site and project only.
 * Every cell is spreadsheet-safe. Linked issues are those the caller may browse in Jira (asked once
 * for the whole project before the header; the others are left out as if not linked); when Jira
 * cannot tell, the export fails before its first row (503) rather than show or hide issues unchecked.
 */
export async function* exportRequirementRows(deps: AccessDeps, actor: Actor, projectId: number): AsyncGenerator<string[]> {
  const { tenantId } = actor;
  const [fields, mostComponents, folders, names, browsable, shownProjects] = await Promise.all([
    listAttributes(deps.db, tenantId, projectId),
    mostComponentsOfOneRequirement(deps.db, tenantId, projectId),
    projectFolders(deps.db, tenantId, projectId),
    JiraNames.forProject(deps, tenantId, projectId),
    browsableIssues(deps, actor, projectId),
    projectsShown(deps, actor),
  ]);
  // Global Requirements link to every project's: those of projects the person may not browse are restricted.
  const linkedLabel = (linked: ExportedRequirement["linked"][number]) =>
    linked.project_id === projectId || linked.project_id === GLOBAL_PROJECT_ID || shownProjects.has(linked.project_id)
      ? requirementLabel(linked)
      : RESTRICTED_REQUIREMENT;
  const shownIssues = (requirement: ExportedRequirement) => requirement.issues.filter((issueId) => browsable.has(issueId));
  const componentColumns = Math.max(1, mostComponents);
  const folderPath = folderPaths(folders);
  const optionNames = new Map(
    fields.flatMap((field) => field.options.map((option) => [String(option.attribute_option_id), option.name] as const)),
  );

  yield [
    EXPORT_HEADERS.id,
    EXPORT_HEADERS.name,
    EXPORT_HEADERS.description,
    EXPORT_HEADERS.type,
    EXPORT_HEADERS.status,
    EXPORT_HEADERS.assignee,
    ...Array.from({ length: componentColumns }, () => EXPORT_HEADERS.components),
    EXPORT_HEADERS.linkedIssues,
    EXPORT_HEADERS.linkedRequirements,
    ...fields.map((field) => field.name),
    EXPORT_HEADERS.folder,
    EXPORT_HEADERS.suspectLinks,
  ].map(toSpreadsheetSafe);

  const pages = pagesReadAhead({
    pageRows: PAGE,
    readAhead: READ_AHEAD_PAGES,
    readPage: (last: ExportedRequirement | undefined) => exportPage(deps.db, tenantId, projectId, last?.requirement_id ?? 0, PAGE),
    lookUp: (page) =>
      names.forPage(
        page.flatMap(shownIssues),
        page.flatMap((requirement) => (requirement.assigned_to ? [requirement.assigned_to] : [])),
      ),
  });
  for await (const { rows, found: pageNames } of pages) {
    for (const requirement of rows) {
      const components = requirement.components.map(names.component);
      yield [
        requirementIdLabel(requirement),
        requirement.name,
        requirement.description,
        requirement.type_name,
        requirement.status_id ? names.status(requirement.status_id) : "",
        requirement.assigned_to ? pageNames.userName(requirement.assigned_to) : "",
        ...Array.from({ length: componentColumns }, (_, index) => components[index] ?? ""),
        shownIssues(requirement).map(pageNames.issueKey).join(", "),
        requirement.linked.map(linkedLabel).join("\n"),
        ...fields.map((field) => {
          const value = requirement.attributes[field.attribute_id] ?? "";
          return field.type === "select" ? (optionNames.get(value) ?? value) : value;
        }),
        requirement.parent_folder_id === null ? "" : folderPath(requirement.parent_folder_id),
        [
          ...requirement.linked.filter((linked) => linked.suspect).map(linkedLabel),
          ...requirement.suspectIssues.filter((issueId) => browsable.has(issueId)).map(pageNames.issueKey),
          ...requirement.suspectContents.map((contentId) => `Page ${contentId}`),
        ].join("\n"),
      ].map(toSpreadsheetSafe);
    }
  }
}

/** The projects whose requirements the caller may see. */
async function projectsShown(deps: AccessDeps, actor: Actor): Promise<Set<number>> {
  return new Set(await browsableProjectIds(deps, actor));
}

/** The project's linked issues the caller may browse. */
async function browsableIssues(deps: ServiceDeps<"hostClient" | "logger">, actor: Actor, projectId: number): Promise<Set<string>> {
  return askedOrUnavailable(deps, actor, "which issues the user may browse", linkedIssuesUserMayBrowse(deps, actor, projectId));
}

/** "Parent / Child / Grandchild" for each folder, from the project's folder list. */
function folderPaths(folders: { folder_id: number; parent_folder_id: number | null; name: string }[]) {
  const byId = new Map(folders.map((folder) => [folder.folder_id, folder]));
  const paths = new Map<number, string>();
  const pathOf = (folderId: number, depth = 0): string => {
    const known = paths.get(folderId);
    if (known !== undefined) return known;
    const folder = byId.get(folderId);
    if (!folder) return "";
    const parent = folder.parent_folder_id === null || depth > 100 ? "" : pathOf(folder.parent_folder_id, depth + 1);
    const path = parent === "" ? folder.name : `${parent}${FOLDER_PATH_SEPARATOR}${folder.name}`;
    paths.set(folderId, path);
    return path;
  };
  return pathOf;
}
