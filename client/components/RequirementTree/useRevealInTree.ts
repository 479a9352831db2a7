import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { folderQuery, useFolder } from "../../api/folders.js";
import { useRequirement } from "../../api/requirements.js";
import type { TreeSelection } from "./flattenTree.js";

/** Deeper than any tree a person builds; guards the walk up against a cycle. */
const MAX_DEPTH = 100;

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
  const parentFolderId =
    current.requirementId !== undefined ? requirement.data?.parent_folder_id : folder.data?.parent_folder_id;
  const itemKey = `${current.requirementId}/${current.folderId}`;
  const revealed = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (parentFolderId === undefined || revealed.current === itemKey) return;
    let cancelled = false;
    const openAncestors = async () => {
      const ancestors: number[] = [];
      for (let folderId = parentFolderId; folderId !== null && ancestors.length < MAX_DEPTH; ) {
        ancestors.push(folderId);
        folderId = (await queryClient.fetchQuery(folderQuery(folderId))).parent_folder_id;
      }
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
