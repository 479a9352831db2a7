import { queryOptions, type UseQueryResult, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { levelWindowAddress, TREE_WINDOW_ITEMS } from "../../common/firstReads.js";
import type { Item, ItemPosition, ItemsResponse, RequirementListItem } from "../../common/schemas/item.js";
import { api } from "./client.js";

export type { FolderItem } from "../../common/schemas/item.js";
/** A requirement as the item endpoints list it. */
export type RequirementItem = RequirementListItem;
/** A row of the tree as the item endpoints answer it: a folder or a requirement. */
export type TreeItem = Item;

export const itemKeys = {
  all: (projectId: number) => ["items", projectId] as const,
  window: (projectId: number, parentFolderId: number | null, window: number) =>
    ["items", projectId, parentFolderId ?? "top", window] as const,
};

/** Window `window` of a level (the top level, or a folder's children): items window*500 to window*500+499. */
export type LevelWindow = { parentFolderId: number | null; window: number };

/**
 * One level of the tree as far as it is loaded: how many items it holds (total_items) and the
 * windows that have come, so the tree can size itself and show placeholders for the rest.
 */
export type LoadedLevel = {
  total: number;
  /** Window w holds the level's items w*windowItems to (w+1)*windowItems-1. */
  windowItems: number;
  windows: ReadonlyMap<number, readonly TreeItem[]>;
};

export type LoadedLevels = ReadonlyMap<number | null, LoadedLevel>;

function levelsOf(windows: readonly LevelWindow[], results: UseQueryResult<ItemsResponse>[]): LoadedLevels {
  const levels = new Map<number | null, { total: number; windowItems: number; windows: Map<number, readonly TreeItem[]> }>();
  results.forEach((result, n) => {
    const asked = windows[n];
    if (!asked || !result.data) return;
    let level = levels.get(asked.parentFolderId);
    if (!level) {
      level = { total: result.data.total_items, windowItems: TREE_WINDOW_ITEMS, windows: new Map() };
      levels.set(asked.parentFolderId, level);
    }
    level.windows.set(asked.window, result.data.items);
  });
  return levels;
}

/**
 * One window of a level. The top level's first is also fetched ahead, as the page loads
 * (client/firstScreen.ts, which takes the answer to the same request the page's head sent as soon as
 * it had a token, common/firstReads.ts): that answer is still fresh when the tree mounts a moment
 * later, so the tree does not ask again; a change the app makes invalidates it at once whatever its
 * age. Only the page's first tree trusts that freshness: a tree mounted again (back from another tab)
 * asks anew, since requirements may have been made elsewhere meanwhile (useLevelWindows).
 */
const levelWindowQuery = (projectId: number, { parentFolderId, window }: LevelWindow) =>
  queryOptions({
    queryKey: itemKeys.window(projectId, parentFolderId, window),
    staleTime: 5000,
    queryFn: () => api.get<ItemsResponse>(levelWindowAddress(projectId, parentFolderId, window)),
  });

/** The tree's first window of its top level, as the tree asks for it. */
export const topLevelItemsQuery = (projectId: number) => levelWindowQuery(projectId, { parentFolderId: null, window: 0 });

/** Whether a tree has mounted on this page yet (see useLevelWindows). */
let treeShown = false;

/**
 * The windows the tree shows, one query each (issue 37: a level of 100,000 requirements is never
 * one answer): opening a folder fetches its first window only, scrolling fetches the windows in view.
 */
export function useLevelWindows(projectId: number, windows: readonly LevelWindow[]) {
  // The page's first tree may use the first screen's prefetched answer; any later one refetches on mount.
  const [firstTree] = useState(() => {
    const first = !treeShown;
    treeShown = true;
    return first;
  });
  // A stable combine keeps the levels the same object until a result changes, so the tree
  // flattens again only when something arrived.
  const combine = useCallback(
    (results: UseQueryResult<ItemsResponse>[]) => ({
      levels: levelsOf(windows, results),
      isLoading: results[0]?.isLoading ?? true,
      isError: results.some((result) => result.isError),
    }),
    [windows],
  );
  return useQueries({
    queries: windows.map((window) => ({ ...levelWindowQuery(projectId, window), refetchOnMount: firstTree ? true : ("always" as const) })),
    combine,
  });
}

/**
 * Where the open requirement or folder sits in the tree (GET /api/item/…/position): the folders to
 * open and, in each level on the way, the window that holds it. Asked afresh each time an item is
 * to be revealed (nothing kept once no screen reveals it), and not again on later changes to the
 * tree: the reveal has happened by then, and the item may be gone.
 */
export function useItemPosition(projectId: number, item: { requirementId?: number; folderId?: number }, enabled: boolean) {
  const path =
    item.requirementId !== undefined
      ? `/api/item/requirement/${item.requirementId}/position`
      : item.folderId !== undefined
        ? `/api/item/folder/${item.folderId}/position`
        : undefined;
  return useQuery({
    queryKey: ["item-position", projectId, path ?? "none"],
    queryFn: () => api.get<ItemPosition>(path ?? ""),
    enabled: enabled && path !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/** The window of a level that holds the item at `position`. */
export const windowAt = (parentFolderId: number | null, position: number): LevelWindow => ({
  parentFolderId,
  window: Math.floor(position / TREE_WINDOW_ITEMS),
});
