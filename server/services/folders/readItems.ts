import type { Folder } from "../../../common/schemas/folder.js";
import type { FolderItem, Item } from "../../../common/schemas/item.js";
import { findFolder, type FolderRow, listFolderChildren } from "../../db/folderStore.js";
import { listRequirementChildren } from "../../db/requirementListStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { toListItem } from "../requirements/requirementViews.js";

const toFolderItem = (row: FolderRow): FolderItem => ({
  folder_id: row.folder_id,
  name: row.name,
  description: row.description,
  type: "folder",
  parent_folder_id: row.parent_folder_id,
  issues: row.issue_ids.map((id) => ({ atlassian_issue_id: id })),
  has_descendant_folders: row.has_descendant_folders,
  has_descendant_requirements: row.has_descendant_requirements,
  descendants: [],
});

/**
 * Folders (by name) then requirements (by id) under the given parent, with the children of every
 * expanded folder nested as `descendants`: folders and requirements queried side by
 * side where the pool has more than one connection, however many folders are open.
 */
export async function listItems(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  parentFolderId: number | null,
  expand: number[] = [],
): Promise<Item[]> {
  const expanded = new Set(expand.filter((id) => id !== parentFolderId));
  const parents = [parentFolderId, ...expanded];
  const [folderRows, requirementRows] = await Promise.all([
    listFolderChildren(deps.db, actor.tenantId, projectId, parents),
    listRequirementChildren(deps.db, actor.tenantId, projectId, parents),
  ]);
  const folders = folderRows.map(toFolderItem);

  const children = new Map<number | null, Item[]>();
  const add = (parent: number | null, item: Item) => {
    const siblings = children.get(parent);
    if (siblings) siblings.push(item);
    else children.set(parent, [item]);
  };
  for (const folder of folders) add(folder.parent_folder_id, folder);
  for (const row of requirementRows) add(row.parent_folder_id, toListItem(row));

  const visited = new Set<number>();
  const build = (parent: number | null): Item[] =>
    (children.get(parent) ?? []).map((item) => {
      if (item.type !== "folder" || !expanded.has(item.folder_id) || visited.has(item.folder_id)) return item;
      visited.add(item.folder_id);
      return { ...item, descendants: build(item.folder_id) };
    });
  return build(parentFolderId);
}

/** The folder must exist in this tenant (and in the project, when the caller names one). */
export async function getFolderRow(
  deps: ServiceDeps,
  actor: Actor,
  folderId: number,
  projectId?: number,
): Promise<FolderRow> {
  const row = await findFolder(deps.db, actor.tenantId, folderId);
  if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFound("Folder");
  return row;
}

export async function getFolder(deps: ServiceDeps, actor: Actor, folderId: number): Promise<Folder> {
  const row = await getFolderRow(deps, actor, folderId);
  return { ...toFolderItem(row), project: row.project_id };
}

/** Folders only, for the move dialogs' folder pickers. */
export async function listFolders(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  parentFolderId: number | null,
): Promise<FolderItem[]> {
  return (await listFolderChildren(deps.db, actor.tenantId, projectId, [parentFolderId])).map(toFolderItem);
}
