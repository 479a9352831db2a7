import { useCallback, useEffect, useMemo, useState } from "react";
import { type LevelWindow, TREE_WINDOW_ITEMS, useLevelWindows } from "../../api/items.js";
import { expandedFolderIds, flattenTree, windowsOfPlaceholders } from "./flattenTree.js";

const TOP_LEVEL: LevelWindow = { parentFolderId: null, window: 0 };

const sameWindows = (left: readonly LevelWindow[], right: readonly LevelWindow[]) =>
  left.length === right.length &&
  left.every((window, n) => window.parentFolderId === right[n]?.parentFolderId && window.window === right[n]?.window);

/**
 * The tree's rows for a project: the top level, plus the children of each open folder that is
 * actually on show, a window (TREE_WINDOW_ITEMS) at a time. A level's first window comes when it
 * shows; the others when their placeholder rows scroll into view (`showRows`). Folders left open
 * inside a closed parent cost nothing until the parent opens again.
 */
export function useTreeRows(projectId: number, openFolders: ReadonlySet<number>) {
  const [windows, setWindows] = useState<readonly LevelWindow[]>([TOP_LEVEL]);
  const [inView, setInView] = useState({ first: 0, last: 0 });
  const loaded = useLevelWindows(projectId, windows);
  const rows = useMemo(() => {
    const topLevel = loaded.levels.get(null) ?? [];
    const children = new Map([...loaded.levels].filter((entry): entry is [number, typeof topLevel] => entry[0] !== null));
    return flattenTree(topLevel, children, openFolders);
  }, [loaded.levels, openFolders]);

  useEffect(() => {
    // Windows already asked for stay (their answers are what the rows show); new ones join.
    const wanted = [
      TOP_LEVEL,
      ...expandedFolderIds(rows).map((folderId) => ({ parentFolderId: folderId, window: 0 })),
      ...windowsOfPlaceholders(rows.slice(inView.first, inView.last + 1), TREE_WINDOW_ITEMS),
    ];
    setWindows((previous) => {
      const next = [...previous];
      for (const window of wanted) {
        if (!next.some((known) => known.parentFolderId === window.parentFolderId && known.window === window.window)) next.push(window);
      }
      return sameWindows(previous, next) ? previous : next;
    });
  }, [rows, inView]);

  const showRows = useCallback((first: number, last: number) => {
    setInView((previous) => (previous.first === first && previous.last === last ? previous : { first, last }));
  }, []);

  return {
    rows,
    showRows,
    isLoading: loaded.isLoading,
    isError: loaded.isError,
    isEmpty: !loaded.isLoading && loaded.levels.has(null) && (loaded.levels.get(null)?.length ?? 0) === 0,
  };
}
