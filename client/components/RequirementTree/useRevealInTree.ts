import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { folderAndAncestors, useFolder } from "../../api/folders.js";
import { useRequirement } from "../../api/requirements.js";
import type { TreeSelection } from "./flattenTree.js";

/**
 * The requirement or folder the screen opens (a deep link from the issue panel or a shared URL,
 * back/forward, a linked requirement) is shown in the tree: every folder above it is opened, once
 * each time another item is opened, so closing its folder afterwards is left alone. The tree then
 * selects its row and scrolls it into view as it does for any current item.
 */
export function useRevealInTree(current: TreeSelection, setFolderOpen: (folderId: number, open: boolean) => void): void {
  const queryClient = useQueryClient();
  const requirement = useRequirement(current.requirementId);
  const folder = useFolder(current.requirementId === undefined ? current.folderId : undefined);
  const parentFolderId = current.requirementId !== undefined ? requirement.data?.parent_folder_id : folder.data?.parent_folder_id;
  const itemKey = `${current.requirementId}/${current.folderId}`;
  const revealed = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (parentFolderId === undefined || revealed.current === itemKey) return;
    let cancelled = false;
    const openAncestors = async () => {
      const ancestors = parentFolderId === null ? [] : await folderAndAncestors(queryClient, parentFolderId);
      if (cancelled) return;
      revealed.current = itemKey;
      for (const folderId of ancestors) setFolderOpen(folderId, true);
    };
    // A folder that cannot be read leaves the tree as it is; the detail says what went wrong.
    openAncestors().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [itemKey, parentFolderId, queryClient, setFolderOpen]);
}
