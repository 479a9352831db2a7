import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client.js";
import type { Folder } from "../../common/schemas/folder.js";
import type { PageFields } from "../../common/schemas/paging.js";
import { type FolderItem, itemKeys } from "./items.js";
import { usePagedList } from "./pages.js";
import { becauseOf } from "./queryClient.js";

export const folderKeys = {
  all: ["folders"] as const,
  detail: (folderId: number) => ["folders", "detail", folderId] as const,
  topLevel: (projectId: number) => ["folders", "top", projectId] as const,
  children: (projectId: number, folderId: number) => ["folders", "children", projectId, folderId] as const,
};

type FoldersResponse = { folders: FolderItem[] } & PageFields;

/** One folder, with its parent: for its detail, and to walk up to the top level. */
export const folderQuery = (folderId: number) => ({
  queryKey: folderKeys.detail(folderId),
  queryFn: () => api.get<Folder>(`/api/folder/${folderId}`),
});

export function useFolder(folderId: number | undefined) {
  return useQuery({ ...folderQuery(folderId ?? 0), enabled: folderId !== undefined });
}

/** Deeper than any tree a person builds; guards the walk up against a cycle. */
const MAX_DEPTH = 100;

/** A folder and every folder above it, innermost first, each read once into the cache. */
export async function folderAndAncestors(queryClient: QueryClient, folderId: number): Promise<number[]> {
  const folders: number[] = [];
  for (let id: number | null = folderId; id !== null && folders.length < MAX_DEPTH; ) {
    folders.push(id);
    id = (await queryClient.fetchQuery(folderQuery(id))).parent_folder_id;
  }
  return folders;
}

/** The folders above a folder, outermost first (none for a top-level folder or none at all). */
export function useFolderAncestors(folderId: number | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...folderKeys.detail(folderId ?? 0), "ancestors"],
    queryFn: async () => (await folderAndAncestors(queryClient, folderId ?? 0)).slice(1).reverse(),
    enabled: typeof folderId === "number",
  });
}

const foldersPage = async (path: string, query: Record<string, number>) => {
  const { folders, ...paging } = await api.get<FoldersResponse>(path, query);
  return { items: folders, ...paging };
};

/** Folders only, for the move-target picker, a page at a time: the top level... */
export function useTopLevelFolders(projectId: number) {
  return usePagedList(folderKeys.topLevel(projectId), (offset) =>
    foldersPage("/api/folder/primary", { atlassian_project_id: projectId, offset }),
  );
}

/** ...and a folder's child folders, fetched when the picker opens it. */
export function useChildFolders(projectId: number, folderId: number, enabled: boolean) {
  return usePagedList(
    folderKeys.children(projectId, folderId),
    (offset) => foldersPage(`/api/folder/${folderId}/descendant`, { atlassian_project_id: projectId, offset }),
    enabled,
  );
}

/** After any folder change the tree and every cached folder may be stale. */
function useInvalidateFolders(projectId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: itemKeys.all(projectId) }),
      queryClient.invalidateQueries({ queryKey: folderKeys.all }),
    ]);
}

export type CreateFolderInput = { name: string; parent_folder_id: number | null };

export function useCreateFolder(projectId: number) {
  const invalidate = useInvalidateFolders(projectId);
  return useMutation({
    mutationFn: (input: CreateFolderInput) => api.post<Folder>("/api/folder", { ...input, project: projectId }),
    onSuccess: invalidate,
    meta: { success: "Folder created successfully", failure: becauseOf("There was a problem saving your folder") },
  });
}

export type UpdateFolderInput = Pick<FolderItem, "name" | "description" | "issues" | "parent_folder_id">;

/** Edit and move alike send the whole folder, a move with its new parent (spec section 7); each says what it did. */
function useSaveFolder(projectId: number, meta: { success: string; failure: (error: Error) => string }) {
  const invalidate = useInvalidateFolders(projectId);
  return useMutation({
    mutationFn: ({ folderId, ...body }: UpdateFolderInput & { folderId: number }) => api.put<Folder>(`/api/folder/${folderId}`, body),
    onSuccess: invalidate,
    meta,
  });
}

export function useUpdateFolder(projectId: number) {
  return useSaveFolder(projectId, { success: "Folder edited successfully", failure: becauseOf("There was a problem editing your folder") });
}

export function useMoveFolder(projectId: number) {
  return useSaveFolder(projectId, { success: "Folder moved successfully", failure: becauseOf("There was a problem moving your folder") });
}

export function useDeleteFolder(projectId: number) {
  const invalidate = useInvalidateFolders(projectId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folderId: number) => api.delete<unknown>(`/api/folder/${folderId}`),
    onSuccess: async () => {
      await invalidate();
      // Requirements inside a deleted folder go with it.
      await queryClient.invalidateQueries({ queryKey: ["requirements"] });
    },
    meta: { success: "Folder deleted successfully", failure: becauseOf("There was a problem deleting your folder") },
  });
}
