import { type PageFields, type PageQuery, pageOf } from "../../../common/schemas/paging.js";
import type { Folder } from "../../../common/schemas/folder.js";
import type { FolderItem, Item } from "../../../common/schemas/item.js";
import type { ItemPosition } from "../../../common/schemas/item.js";
import {
  countFolderChildren,
  countFoldersBefore,
  findFolder,
  folderPath,
  type FolderRow,
  listFolderChildren,
  type PathFolder,
} from "../../db/folderStore.js";
import type { ListWindow } from "../../db/queryHelpers.js";
import {
  countRequirementChildren,
  countRequirementsBefore,
  findRequirementPlace,
  listRequirementChildren,
} from "../../db/requirements/index.js";
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

/** One level of the tree: a window of its items and how many it holds in all. */
export type ItemsWindow = { items: Item[]; total: number };

/**
 * `window.limit` items from `window.offset` of the parent's children, folders (by name) then
 * requirements (by id), as one list: the folders' count says where the requirements start. Each
 * part is one index range scan; the counts are index-only.
 */
async function levelWindow(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  parentFolderId: number | null,
  window: ListWindow,
): Promise<ItemsWindow> {
  const { db } = deps;
  const { tenantId } = actor;
  const [folderCount, requirementCount] = await Promise.all([
    countFolderChildren(db, tenantId, projectId, parentFolderId),
    countRequirementChildren(db, tenantId, projectId, parentFolderId),
  ]);
  const folders = window.offset < folderCount ? await listFolderChildren(db, tenantId, projectId, [parentFolderId], window) : [];
  const requirementWindow = { offset: Math.max(0, window.offset - folderCount), limit: window.limit - folders.length };
  const requirements =
    requirementWindow.limit > 0 && requirementWindow.offset < requirementCount
      ? await listRequirementChildren(db, tenantId, projectId, [parentFolderId], requirementWindow)
      : [];
  return { items: [...folders.map(toFolderItem), ...requirements.map(toListItem)], total: folderCount + requirementCount };
}

/**
 * A window of the parent's children (issue 37: never a whole level in one answer), with the first
 * `window.limit` children of every expanded folder nested as `descendants`: every level is read
 * side by side where the pool has more than one connection, however many folders are open.
 */
export async function listItems(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  parentFolderId: number | null,
  window: ListWindow,
  expand: number[] = [],
): Promise<ItemsWindow> {
  const expanded = [...new Set(expand.filter((id) => id !== parentFolderId))];
  const [level, ...expandedLevels] = await Promise.all([
    levelWindow(deps, actor, projectId, parentFolderId, window),
    ...expanded.map((folderId) => levelWindow(deps, actor, projectId, folderId, { offset: 0, limit: window.limit })),
  ]);
  const children = new Map<number, Item[]>(expanded.map((folderId, n) => [folderId, expandedLevels[n]?.items ?? []]));

  const visited = new Set<number>();
  const build = (items: Item[]): Item[] =>
    items.map((item) => {
      const nested = item.type === "folder" ? children.get(item.folder_id) : undefined;
      if (item.type !== "folder" || !nested || visited.has(item.folder_id)) return item;
      visited.add(item.folder_id);
      return { ...item, descendants: build(nested) };
    });
  return { items: build(level?.items ?? []), total: level?.total ?? 0 };
}

/**
 * Where a requirement or a folder sits in its project's tree, for a deep link (issue 37): each level
 * from the top down with the position in it of the folder on the way there, the item's own level
 * last. The tree opens those folders and asks for the one window of each level that holds the
 * position, wherever in a level of 100,000 it is. Index range counts in the order of levelWindow.
 */
export async function itemPosition(
  deps: ServiceDeps,
  actor: Actor,
  item: { requirementId: number } | { folderId: number },
): Promise<ItemPosition> {
  const { db } = deps;
  const { tenantId } = actor;
  const foldersAbove = async (folderId: number | null): Promise<PathFolder[]> =>
    folderId === null ? [] : (await folderPath(db, tenantId, folderId)).reverse();
  const folderLevels = (folders: PathFolder[]) =>
    Promise.all(
      folders.map(async (folder) => ({
        parent_folder_id: folder.parent_folder_id,
        position: await countFoldersBefore(db, tenantId, folder),
      })),
    );

  if ("folderId" in item) {
    const folder = await getFolderRow(deps, actor, item.folderId);
    return { project: folder.project_id, levels: await folderLevels(await foldersAbove(folder.folder_id)) };
  }
  const place = await findRequirementPlace(db, tenantId, item.requirementId);
  if (!place) throw notFound("Requirement");
  const [levels, foldersFirst, before] = await Promise.all([
    foldersAbove(place.parent_folder_id).then(folderLevels),
    countFolderChildren(db, tenantId, place.project_id, place.parent_folder_id),
    countRequirementsBefore(db, tenantId, place),
  ]);
  return { project: place.project_id, levels: [...levels, { parent_folder_id: place.parent_folder_id, position: foldersFirst + before }] };
}

/** The folder must exist in this tenant (and in the project, when the caller names one). */
export async function getFolderRow(deps: ServiceDeps, actor: Actor, folderId: number, projectId?: number): Promise<FolderRow> {
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
  page: PageQuery,
): Promise<{ folders: FolderItem[] } & PageFields> {
  const rows = await listFolderChildren(deps.db, actor.tenantId, projectId, [parentFolderId], {
    offset: page.offset,
    limit: page.limit + 1,
  });
  const { items, ...paging } = pageOf(rows, page);
  return { folders: items.map(toFolderItem), ...paging };
}
