import { useCallback, useEffect, useMemo, useState } from "react";
import { TREE_WINDOW_ITEMS } from "../../../common/firstReads.js";
import { type LevelWindow, type LoadedLevel, useLevelWindows } from "../../api/items.js";
import { flattenTree } from "./flattenTree.js";

const TOP_LEVEL: LevelWindow = { parentFolderId: null, window: 0 };
const NOT_LOADED: LoadedLevel = { total: 0, windowItems: TREE_WINDOW_ITEMS, windows: new Map() };

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
    const topLevel = loaded.levels.get(null) ?? NOT_LOADED;
    const children = new Map([...loaded.levels].filter((entry): entry is [number, LoadedLevel] => entry[0] !== null));
    return flattenTree(topLevel, children, openFolders);
  }, [loaded.levels, openFolders]);

  useEffect(() => {
    // Windows already asked for stay (their answers are what the rows show); new ones join.
    const wanted = [
      TOP_LEVEL,
      ...rows.expandedFolderIds().map((folderId) => ({ parentFolderId: folderId, window: 0 })),
      ...rows.windowsIn(inView.first, inView.last),
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
    isEmpty: !loaded.isLoading && loaded.levels.get(null)?.total === 0,
  };
}
