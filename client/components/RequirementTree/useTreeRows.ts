import { useEffect, useMemo, useState } from "react";
import { useFolderChildren, useTopLevelItems } from "../../api/items.js";
import { expandedFolderIds, flattenTree } from "./flattenTree.js";

function sameIds(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/**
 * The tree's rows for a project: the top level, plus the children of each open folder that is
 * actually on show. A folder's children are fetched the first time it shows expanded; folders
 * left open inside a closed parent cost nothing until the parent opens again.
 */
export function useTreeRows(projectId: number, openFolders: ReadonlySet<number>) {
  const topLevel = useTopLevelItems(projectId);
  const [fetchedFolders, setFetchedFolders] = useState<readonly number[]>([]);
  const children = useFolderChildren(projectId, fetchedFolders);
  const rows = useMemo(
    () => flattenTree(topLevel.data ?? [], children.loaded, openFolders),
    [topLevel.data, children.loaded, openFolders],
  );
  const shownExpanded = useMemo(() => expandedFolderIds(rows), [rows]);
  useEffect(() => {
    setFetchedFolders((previous) => (sameIds(previous, shownExpanded) ? previous : shownExpanded));
  }, [shownExpanded]);

  return {
    rows,
    isLoading: topLevel.isLoading,
    isError: topLevel.isError || children.isError,
    isEmpty: topLevel.data !== undefined && topLevel.data.length === 0,
  };
}
