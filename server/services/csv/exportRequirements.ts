import { EXPORT_HEADERS, FOLDER_PATH_SEPARATOR, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { requirementIdLabel, requirementLabel } from "../../../common/labels.js";
import { listAttributes } from "../../db/attributeStore.js";
import { exportPage, mostComponentsOfOneRequirement, projectFolders } from "../../db/csvExportStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { JiraNames } from "./jiraNames.js";

/** Requirements read per query: enough to keep round trips few, small enough to keep memory flat. */
const PAGE = 500;

/**
 * The rows of GET /api/requirement/export, header first, produced page by page as the response
 * drains (no whole-file buffer): ID, Name, Description, Type, Status, Assignee, one Component/s
 * column per component (as Jira writes them), Linked issues (keys), Linked requirements (labels),
 * each custom field by name, Folder. Active requirements of the caller's site and project only.
 * Every cell is spreadsheet-safe.
 */
export async function* exportRequirementRows(deps: ServiceDeps, actor: Actor, projectId: number): AsyncGenerator<string[]> {
  const { tenantId } = actor;
  const fields = await listAttributes(deps.db, tenantId, projectId);
  const componentColumns = Math.max(1, await mostComponentsOfOneRequirement(deps.db, tenantId, projectId));
  const folderPath = folderPaths(await projectFolders(deps.db, tenantId, projectId));
  const names = await JiraNames.forProject(deps, tenantId, projectId);
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
  ].map(toSpreadsheetSafe);

  let after = 0;
  for (;;) {
    const page = await exportPage(deps.db, tenantId, projectId, after, PAGE);
    const last = page[page.length - 1];
    if (!last) return;
    after = last.requirement_id;
    await names.load(
      page.flatMap((requirement) => requirement.issues),
      page.flatMap((requirement) => (requirement.assigned_to ? [requirement.assigned_to] : [])),
    );
    for (const requirement of page) {
      const components = requirement.components.map(names.component);
      yield [
        requirementIdLabel(requirement),
        requirement.name,
        requirement.description,
        requirement.type_name,
        requirement.status_id ? names.status(requirement.status_id) : "",
        requirement.assigned_to ? names.userName(requirement.assigned_to) : "",
        ...Array.from({ length: componentColumns }, (_, index) => components[index] ?? ""),
        requirement.issues.map(names.issueKey).join(", "),
        requirement.linked.map(requirementLabel).join("\n"),
        ...fields.map((field) => {
          const value = requirement.attributes[field.attribute_id] ?? "";
          return field.type === "select" ? (optionNames.get(value) ?? value) : value;
        }),
        requirement.parent_folder_id === null ? "" : folderPath(requirement.parent_folder_id),
      ].map(toSpreadsheetSafe);
    }
  }
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
