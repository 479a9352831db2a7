import { useEffect, useRef } from "react";
import { type LevelWindow, useItemPosition, windowAt } from "../../api/items.js";
import type { TreeRow, TreeRows, TreeSelection } from "./flattenTree.js";

/**
 * The requirement or folder the screen opens (a deep link from the issue panel or a shared URL,
 * back/forward, a linked requirement, a search hit) is shown in the tree: every folder above it is
 * opened, and in each level on the way the window that holds it is asked for, however deep in a
 * level of thousands it sits (issue 37). Once each time another item is opened, so closing its
 * folder afterwards is left alone. The tree then selects its row and scrolls it into view as it
 * does for any current item.
 *
 * Its position is asked for only when the item's row is not in the tree as it becomes current: a
 * row clicked in the tree costs no request, and an item deleted while shown is not asked about again.
 */
export function useRevealInTree(
  projectId: number,
  current: TreeSelection,
  rows: TreeRows,
  setFolderOpen: (folderId: number, open: boolean) => void,
  loadWindows: (windows: readonly LevelWindow[]) => void,
): void {
  const itemKey = `${current.requirementId}/${current.folderId}`;
  const asked = useRef<{ itemKey: string; ask: boolean } | undefined>(undefined);
  if (asked.current?.itemKey !== itemKey) asked.current = { itemKey, ask: !rows.some((row) => isRowOf(row, current)) };
  // A requirement names its item; a folder alone otherwise.
  const item = current.requirementId !== undefined ? { requirementId: current.requirementId } : { folderId: current.folderId };
  // A position that cannot be read leaves the tree as it is; the detail says what went wrong.
  const position = useItemPosition(projectId, item, asked.current.ask).data;
  const revealed = useRef<string | undefined>(undefined);

  useEffect(() => {
    // An item of another project is shown once the screen has moved to that project.
    if (!asked.current?.ask || !position || position.project !== projectId || revealed.current === itemKey) return;
    revealed.current = itemKey;
    for (const level of position.levels) if (level.parent_folder_id !== null) setFolderOpen(level.parent_folder_id, true);
    loadWindows(position.levels.map((level) => windowAt(level.parent_folder_id, level.position)));
  }, [itemKey, position, projectId, setFolderOpen, loadWindows]);
}

function isRowOf(row: TreeRow, { requirementId, folderId }: TreeSelection): boolean {
  if (requirementId !== undefined) return row.kind === "requirement" && row.requirement.requirement_id === requirementId;
  return folderId !== undefined && row.kind === "folder" && row.folder.folder_id === folderId;
}
