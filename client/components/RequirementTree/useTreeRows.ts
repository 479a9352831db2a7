import { useCallback, useEffect, useMemo, useState } from "react";
import { TREE_WINDOW_ITEMS } from "../../../common/firstReads.js";
import { type LevelWindow, useLevelWindows } from "../../api/items.js";
import { expandedFolderIds, flattenTree, windowsOfPlaceholders } from "./flattenTree.js";

const TOP_LEVEL: LevelWindow = { parentFolderId: null, window: 0 };

/** The windows asked for so far and the new ones among `wanted`; the same array when none is new. */
const withWindows = (previous: readonly LevelWindow[], wanted: readonly LevelWindow[]) => {
  const next = [...previous];
  for (const window of wanted) {
    if (!next.some((known) => known.parentFolderId === window.parentFolderId && known.window === window.window)) next.push(window);
  }
  return next.length === previous.length ? previous : next;
};

/**
 * The tree's rows for a project: the top level, plus the children of each open folder that is
 * actually on show, a window (TREE_WINDOW_ITEMS) at a time. A level's first window comes when it
 * shows; the others when their placeholder rows scroll into view (`showRows`). Folders left open
 * inside a closed parent cost nothing until the parent opens again. A deep link's item may sit in
 * any window of its level: `loadWindows` asks for that one at once.
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
    setWindows((previous) => withWindows(previous, wanted));
  }, [rows, inView]);

  const showRows = useCallback((first: number, last: number) => {
    setInView((previous) => (previous.first === first && previous.last === last ? previous : { first, last }));
  }, []);

  /** Windows wanted before their rows are in view: the ones that hold a deep link's item (useRevealInTree). */
  const loadWindows = useCallback((wanted: readonly LevelWindow[]) => {
    setWindows((previous) => withWindows(previous, wanted));
  }, []);

  return {
    rows,
    showRows,
    loadWindows,
    isLoading: loaded.isLoading,
    isError: loaded.isError,
    isEmpty: !loaded.isLoading && loaded.levels.has(null) && (loaded.levels.get(null)?.length ?? 0) === 0,
  };
}
