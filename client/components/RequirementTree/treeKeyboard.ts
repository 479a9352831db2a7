import type { TreeRow, TreeRows } from "./flattenTree.js";

export type TreeKeyAction =
  | { type: "focus"; index: number }
  | { type: "expand"; folderId: number }
  | { type: "collapse"; folderId: number }
  | { type: "toggleCheck"; requirementId: number }
  | { type: "open"; row: TreeRow };

function firstChildIndex(rows: TreeRows, parentIndex: number): TreeKeyAction | undefined {
  const child = rows.at(parentIndex + 1);
  return child?.parentIndex === parentIndex && child.kind !== "loading" ? { type: "focus", index: parentIndex + 1 } : undefined;
}

/**
 * What a key press on the tree does, following the WAI-ARIA tree pattern that Atlaskit's tree
 * implements: up/down move, right opens a folder or enters it, left closes it or goes to the
 * parent, Home/End jump, space checks a requirement, Enter opens the row. `null`: not ours.
 */
export function treeKeyAction(rows: TreeRows, activeIndex: number, key: string): TreeKeyAction | null {
  const focus = (index: number | undefined): TreeKeyAction | null => (index === undefined ? null : { type: "focus", index });
  const row = rows.at(activeIndex);
  // Nothing active yet (or the active row scrolled out of the data): the first key press lands
  // on the first or last row.
  if (!row) {
    if (key === "ArrowDown" || key === "Home") return focus(rows.nextFocusable(-1, 1));
    if (key === "ArrowUp" || key === "End") return focus(rows.nextFocusable(rows.length, -1));
    return null;
  }

  switch (key) {
    case "ArrowDown":
      return focus(rows.nextFocusable(activeIndex, 1));
    case "ArrowUp":
      return focus(rows.nextFocusable(activeIndex, -1));
    case "Home":
      return focus(rows.nextFocusable(-1, 1));
    case "End":
      return focus(rows.nextFocusable(rows.length, -1));
    case "ArrowRight":
      if (row.kind !== "folder" || !row.hasChildren) return null;
      if (!row.isExpanded) return { type: "expand", folderId: row.folder.folder_id };
      return firstChildIndex(rows, activeIndex) ?? null;
    case "ArrowLeft":
      if (row.kind === "folder" && row.isExpanded) return { type: "collapse", folderId: row.folder.folder_id };
      return row.parentIndex >= 0 ? focus(row.parentIndex) : null;
    case " ":
      return row.kind === "requirement" ? { type: "toggleCheck", requirementId: row.requirement.requirement_id } : null;
    case "Enter":
      return row.kind === "loading" ? null : { type: "open", row };
    default:
      return null;
  }
}
