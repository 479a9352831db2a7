import { z } from "zod";
import { pageFields, pageQuerySchema } from "./paging.js";
import {
  type FolderItem,
  FolderItemSchema,
  hostRefSchema,
  numericIdSchema,
  parentFolderChangeSchema,
  parentFolderIdSchema,
  projectParamSchema,
  textError,
} from "./item.js";

/** Spec sections 5 and 9. */
export const FOLDER_NAME_MAX = 100;

export const folderNameSchema = z
  .string({ error: textError })
  .trim()
  .min(1, "Required")
  .max(FOLDER_NAME_MAX, `Enter no more than ${FOLDER_NAME_MAX} characters`)
  .refine((name) => !name.includes("\\"), "The name cannot contain a backslash (\\)");

/** A single folder (GET /api/folder/{id}, POST, PUT) adds its project. */
export const FolderSchema = FolderItemSchema.extend({ project: z.number() });
export type Folder = FolderItem & { project: number };

export const FoldersResponseSchema = z.object({ folders: z.array(FolderItemSchema), ...pageFields });
/** GET /api/folder/primary and /api/folder/{id}/descendant: folders a page holds at most (also the default). */
export const FOLDER_PAGE_MAX = 1000;
const folderPage = pageQuerySchema(FOLDER_PAGE_MAX, FOLDER_PAGE_MAX).shape;

export const CreateFolderSchema = z.object({
  name: folderNameSchema,
  parent_folder_id: parentFolderIdSchema,
  project: projectParamSchema,
});
export type CreateFolderInput = z.input<typeof CreateFolderSchema>;

/** PUT /api/folder/{id}: edit, and move (the whole folder with a new parent). Absent fields stay as they are. */
export const UpdateFolderSchema = z.object({
  name: folderNameSchema,
  description: z.string().max(32_000, "Enter no more than 32000 characters").nullish(),
  issues: z.array(hostRefSchema("atlassian_issue_id")).max(1000).optional(),
  parent_folder_id: parentFolderChangeSchema,
});
export type UpdateFolderInput = z.input<typeof UpdateFolderSchema>;

export const FolderQuerySchema = z.object({ atlassian_project_id: projectParamSchema });
export const FolderListQuerySchema = FolderQuerySchema.extend(folderPage);
export const SubfolderListQuerySchema = FolderQuerySchema.partial().extend(folderPage);
export const FolderIdSchema = numericIdSchema;
