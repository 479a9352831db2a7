import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  CreateFolderSchema,
  FolderIdSchema,
  FOLDER_PAGE_MAX,
  FolderListQuerySchema,
  SubfolderListQuerySchema,
  FolderSchema,
  FoldersResponseSchema,
  UpdateFolderSchema,
} from "../../../common/schemas/folder.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { createFolder } from "../../services/folders/createFolder.js";
import { deleteFolder } from "../../services/folders/deleteFolder.js";
import { getFolder, getFolderRow, listFolders } from "../../services/folders/readItems.js";
import { updateFolder } from "../../services/folders/updateFolder.js";
import { handle } from "../handle.js";

const DeletedSchema = z.object({ folder_id: z.number() });

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/folder/primary",
    summary: `Top-level folders of a project, by name: \`limit\` (default and at most ${FOLDER_PAGE_MAX}) from \`offset\`; has_more when another page follows`,
    query: FolderListQuerySchema,
    response: FoldersResponseSchema,
  },
  { method: "get", path: "/api/folder/:id(\\d+)", summary: "One folder", response: FolderSchema },
  {
    method: "get",
    path: "/api/folder/:id(\\d+)/descendant",
    summary: `Direct subfolders of a folder, by name: \`limit\` (default and at most ${FOLDER_PAGE_MAX}) from \`offset\`; has_more when another page follows`,
    query: SubfolderListQuerySchema,
    response: FoldersResponseSchema,
  },
  {
    method: "post",
    path: "/api/folder",
    summary: "Create a folder (name required, at most 100 characters, no backslash)",
    body: CreateFolderSchema,
    response: FolderSchema,
  },
  {
    method: "put",
    path: "/api/folder/:id(\\d+)",
    summary: "Edit a folder, or move it (the whole folder with a new parent_folder_id; never into itself or below)",
    body: UpdateFolderSchema,
    response: FolderSchema,
  },
  {
    method: "delete",
    path: "/api/folder/:id(\\d+)",
    summary: "Delete a folder with its subfolders and requirements (soft, with a revision per requirement)",
    response: DeletedSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/folder/primary",
    requireAccess(deps, "browse", named.projectInQuery()),
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(FolderListQuerySchema, req.query);
      res.json(await listFolders(deps, actor, query.atlassian_project_id, null, query));
    }),
  );

  api.get(
    "/api/folder/:id(\\d+)",
    requireAccess(deps, "browse", named.folderInPath()),
    handle(async (req, res) => {
      res.json(await getFolder(deps, authOf(req), parse(FolderIdSchema, req.params.id)));
    }),
  );

  api.get(
    "/api/folder/:id(\\d+)/descendant",
    requireAccess(deps, "browse", named.folderInPath()),
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(SubfolderListQuerySchema, req.query);
      const folder = await getFolderRow(deps, actor, parse(FolderIdSchema, req.params.id), query.atlassian_project_id);
      res.json(await listFolders(deps, actor, folder.project_id, folder.folder_id, query));
    }),
  );

  api.post(
    "/api/folder",
    requireAccess(deps, "edit", named.projectInBody("project"), named.folderInBody("parent_folder_id")),
    handle(async (req, res) => {
      const input = parse(CreateFolderSchema, req.body);
      res.status(201).json(await createFolder(deps, authOf(req), input));
    }),
  );

  api.put(
    "/api/folder/:id(\\d+)",
    requireAccess(deps, "edit", named.folderInPath(), named.folderInBody("parent_folder_id")),
    handle(async (req, res) => {
      const id = parse(FolderIdSchema, req.params.id);
      const input = parse(UpdateFolderSchema, req.body);
      res.json(await updateFolder(deps, authOf(req), id, input));
    }),
  );

  api.delete(
    "/api/folder/:id(\\d+)",
    requireAccess(deps, "edit", named.folderInPath()),
    handle(async (req, res) => {
      const id = parse(FolderIdSchema, req.params.id);
      await deleteFolder(deps, authOf(req), id);
      res.json({ folder_id: id });
    }),
  );

  return api;
}
