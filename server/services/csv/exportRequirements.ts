import { EXPORT_HEADERS, toSpreadsheetSafe } from "../../../common/csvHeaders.js";
import { requirementIdLabel, requirementLabel } from "../../../common/labels.js";
import { listAttributes } from "../../db/attributeStore.js";
import { mostComponentsOfOneRequirement, projectFolders, requirementIdsAfter } from "../../db/csvExportStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { loadRequirementDetails } from "../requirements/requirementViews.js";
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
    const ids = await requirementIdsAfter(deps.db, tenantId, projectId, after, PAGE);
    if (ids.length === 0) return;
    after = ids[ids.length - 1] as number;
    const details = await loadRequirementDetails(deps, actor, ids);
    await names.load(
      details.flatMap((detail) => detail.issues.map((issue) => issue.atlassian_issue_id)),
      details.flatMap((detail) => (detail.assigned_to ? [detail.assigned_to.account_id] : [])),
    );
    for (const detail of details) {
      const components = detail.components.map((component) => names.component(component.atlassian_component_id));
      yield [
        requirementIdLabel(detail),
        detail.name,
        detail.description,
        detail.requirement_type.name,
        detail.status ? names.status(detail.status.atlassian_status_id) : "",
        detail.assigned_to ? names.userName(detail.assigned_to.account_id) : "",
        ...Array.from({ length: componentColumns }, (_, index) => components[index] ?? ""),
        detail.issues.map((issue) => names.issueKey(issue.atlassian_issue_id)).join(", "),
        detail.linked_requirements_v2.map(requirementLabel).join("\n"),
        ...fields.map((field) => {
          const value = detail.attributes[field.attribute_id] ?? "";
          return field.type === "select" ? (optionNames.get(value) ?? value) : value;
        }),
        detail.parent_folder_id === null ? "" : folderPath(detail.parent_folder_id),
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
    const path = parent === "" ? folder.name : `${parent} / ${folder.name}`;
    paths.set(folderId, path);
    return path;
  };
  return pathOf;
}
