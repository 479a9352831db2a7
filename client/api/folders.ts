import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client.js";
import type { Folder } from "../../common/schemas/folder.js";
import { type FolderItem, itemKeys } from "./items.js";
import { becauseOf } from "./queryClient.js";

export const folderKeys = {
  all: ["folders"] as const,
  detail: (folderId: number) => ["folders", "detail", folderId] as const,
  topLevel: (projectId: number) => ["folders", "top", projectId] as const,
  children: (projectId: number, folderId: number) => ["folders", "children", projectId, folderId] as const,
};

type FoldersResponse = { folders: FolderItem[] };

/** One folder, with its parent: for its detail, and to walk up to the top level. */
export const folderQuery = (folderId: number) => ({
  queryKey: folderKeys.detail(folderId),
  queryFn: () => api.get<Folder>(`/api/folder/${folderId}`),
});

export function useFolder(folderId: number | undefined) {
  return useQuery({ ...folderQuery(folderId ?? 0), enabled: folderId !== undefined });
}

/** Folders only, for the move-target picker: the top level... */
export function useTopLevelFolders(projectId: number, enabled = true) {
  return useQuery({
    queryKey: folderKeys.topLevel(projectId),
    queryFn: async () =>
      (await api.get<FoldersResponse>("/api/folder/primary", { atlassian_project_id: projectId })).folders,
    enabled,
  });
}

/** ...and a folder's child folders, fetched when the picker opens it. */
export function useChildFolders(projectId: number, folderId: number, enabled: boolean) {
  return useQuery({
    queryKey: folderKeys.children(projectId, folderId),
    queryFn: async () =>
      (await api.get<FoldersResponse>(`/api/folder/${folderId}/descendant`, { atlassian_project_id: projectId }))
        .folders,
    enabled,
  });
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
    mutationFn: ({ folderId, ...body }: UpdateFolderInput & { folderId: number }) =>
      api.put<Folder>(`/api/folder/${folderId}`, body),
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
