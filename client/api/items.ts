import { queryOptions, type UseQueryResult, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Item, ItemsResponse, RequirementListItem } from "../../common/schemas/item.js";
import { api } from "./client.js";

export type { FolderItem } from "../../common/schemas/item.js";
/** A requirement as the item endpoints list it. */
export type RequirementItem = RequirementListItem;
/** A row of the tree as the item endpoints answer it: a folder or a requirement. */
export type TreeItem = Item;

export const itemKeys = {
  all: (projectId: number) => ["items", projectId] as const,
  topLevel: (projectId: number) => ["items", projectId, "top"] as const,
  children: (projectId: number, folderId: number) => ["items", projectId, "folder", folderId] as const,
};

/**
 * The tree's top level; also fetched ahead, as the page loads (client/firstScreen.ts). That answer is
 * still fresh when the tree mounts a moment later, so the tree does not ask again; a change the app
 * makes invalidates it at once whatever its age.
 */
export const topLevelItemsQuery = (projectId: number) =>
  queryOptions({
    queryKey: itemKeys.topLevel(projectId),
    staleTime: 5000,
    queryFn: async () => (await api.get<ItemsResponse>("/api/item/primary", { atlassian_project_id: projectId })).items,
  });

export function useTopLevelItems(projectId: number) {
  return useQuery(topLevelItemsQuery(projectId));
}

/**
 * The children of every open folder the tree shows, one query per folder so that opening a
 * folder fetches only that folder (a folder may hold thousands of requirements).
 */
export function useFolderChildren(projectId: number, folderIds: readonly number[]) {
  // A stable combine keeps the Map the same object until a result changes, so the tree
  // flattens again only when something arrived.
  const combine = useCallback(
    (results: UseQueryResult<TreeItem[]>[]) => {
      const loaded = new Map<number, readonly TreeItem[]>();
      results.forEach((result, index) => {
        const folderId = folderIds[index];
        if (folderId !== undefined && result.data) loaded.set(folderId, result.data);
      });
      return { loaded, isError: results.some((result) => result.isError) };
    },
    [folderIds],
  );
  return useQueries({
    queries: folderIds.map((folderId) => ({
      queryKey: itemKeys.children(projectId, folderId),
      queryFn: async () =>
        (
          await api.get<ItemsResponse>(`/api/item/${folderId}/descendant`, {
            atlassian_project_id: projectId,
          })
        ).items,
    })),
    combine,
  });
}
