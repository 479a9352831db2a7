import type { FolderItem, LoadedLevel, RequirementItem, TreeItem } from "../../api/items.js";
import type { TreeRow, TreeRows } from "./flattenTree.js";

export function folder(folderId: number, name: string, parent: number | null, hasChildren = true): FolderItem {
  return {
    type: "folder",
    folder_id: folderId,
    name,
    description: "",
    parent_folder_id: parent,
    issues: [],
    has_descendant_folders: hasChildren,
    has_descendant_requirements: false,
    descendants: [],
  };
}

export function requirement(requirementId: number, name: string, parent: number | null): RequirementItem {
  return {
    type: "requirement",
    requirement_id: requirementId,
    display_id: null,
    prefix: "SYS",
    name,
    category: "HIGH_LEVEL",
    parent_folder_id: parent,
  };
}

/** A level whose every item has come, in one window. */
export function wholeLevel(items: readonly TreeItem[]): LoadedLevel {
  return { total: items.length, windowItems: Math.max(items.length, 1), windows: new Map([[0, items]]) };
}

/** Every row of the tree, placeholders included, as the virtualised tree would reach them one by one. */
export function everyRow(rows: TreeRows): TreeRow[] {
  return Array.from({ length: rows.length }, (_, index) => rows.at(index) as TreeRow);
}
