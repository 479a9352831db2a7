import type { FolderItem, RequirementItem, TreeItem } from "../../api/items.js";

export function isFolderItem(item: TreeItem): item is FolderItem {
  return item.type === "folder";
}

type RowBase = {
  /** Stable across renders and unique in the tree: also the DOM id suffix of the row. */
  key: string;
  /** 1-based depth, as aria-level wants it. */
  level: number;
  /** Index of the parent folder's row, or -1 at the top level. */
  parentIndex: number;
  /** aria-posinset and aria-setsize: a virtualised tree renders only some siblings. */
  positionInSet: number;
  setSize: number;
};

export type FolderRow = RowBase & {
  kind: "folder";
  folder: FolderItem;
  hasChildren: boolean;
  isExpanded: boolean;
};

export type RequirementRow = RowBase & { kind: "requirement"; requirement: RequirementItem };

/**
 * Placeholder under an open folder whose children are still on their way, or for an item of a
 * level whose window has not come yet (`slot` says which, so the tree can ask for it).
 */
export type LoadingRow = RowBase & { kind: "loading"; slot?: { parentFolderId: number | null; position: number } };

export type TreeRow = FolderRow | RequirementRow | LoadingRow;

export function folderHasChildren(folder: FolderItem): boolean {
  return folder.has_descendant_folders || folder.has_descendant_requirements;
}

/**
 * The rows the tree shows, in screen order: the top level, and under each open folder its
 * children once they are loaded. A level may have holes (windows not loaded yet): each becomes a
 * loading row in its place. Only this flat list is virtualised, so its cost is what decides how a
 * folder of thousands of requirements scrolls.
 */
export function flattenTree(
  topLevel: readonly (TreeItem | undefined)[],
  childrenByFolder: ReadonlyMap<number, readonly (TreeItem | undefined)[]>,
  openFolders: ReadonlySet<number>,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (items: readonly (TreeItem | undefined)[], level: number, parentIndex: number, parentFolderId: number | null) => {
    const setSize = items.length;
    // A plain loop: forEach would skip the holes.
    for (let position = 0; position < items.length; position++) {
      const item = items[position];
      const placement = { level, parentIndex, positionInSet: position + 1, setSize };
      if (item === undefined) {
        rows.push({ kind: "loading", key: `l${parentFolderId ?? "top"}-${position}`, ...placement, slot: { parentFolderId, position } });
        continue;
      }
      if (!isFolderItem(item)) {
        rows.push({ kind: "requirement", key: `r${item.requirement_id}`, ...placement, requirement: item });
        continue;
      }
      const hasChildren = folderHasChildren(item);
      const isExpanded = hasChildren && openFolders.has(item.folder_id);
      const index = rows.length;
      rows.push({ kind: "folder", key: `f${item.folder_id}`, ...placement, folder: item, hasChildren, isExpanded });
      if (!isExpanded) continue;
      const children = childrenByFolder.get(item.folder_id);
      if (children) visit(children, level + 1, index, item.folder_id);
      else
        rows.push({
          kind: "loading",
          key: `l${item.folder_id}`,
          level: level + 1,
          parentIndex: index,
          positionInSet: 1,
          setSize: 1,
        });
    }
  };
  visit(topLevel, 1, -1, null);
  return rows;
}

/** The windows (of `windowItems` items) that hold the placeholders among these rows, once each. */
export function windowsOfPlaceholders(rows: readonly TreeRow[], windowItems: number): { parentFolderId: number | null; window: number }[] {
  const seen = new Map<string, { parentFolderId: number | null; window: number }>();
  for (const row of rows) {
    if (row.kind !== "loading" || !row.slot) continue;
    const window = Math.floor(row.slot.position / windowItems);
    seen.set(`${row.slot.parentFolderId}:${window}`, { parentFolderId: row.slot.parentFolderId, window });
  }
  return [...seen.values()];
}

/** Folders shown expanded: the ones whose children the tree must fetch. */
export function expandedFolderIds(rows: readonly TreeRow[]): number[] {
  const ids: number[] = [];
  for (const row of rows) if (row.kind === "folder" && row.isExpanded) ids.push(row.folder.folder_id);
  return ids;
}

export type TreeSelection = { requirementId?: number; folderId?: number };

export function rowIsCurrent(row: TreeRow, current: TreeSelection): boolean {
  if (row.kind === "folder") return row.folder.folder_id === current.folderId;
  if (row.kind === "requirement") return row.requirement.requirement_id === current.requirementId;
  return false;
}

export function indexOfCurrent(rows: readonly TreeRow[], current: TreeSelection): number {
  return rows.findIndex((row) => rowIsCurrent(row, current));
}
