import type { FolderItem, RequirementItem } from "../../api/items.js";

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
