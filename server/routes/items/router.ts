import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { FolderIdSchema, FolderQuerySchema } from "../../../common/schemas/folder.js";
import { ItemsQuerySchema, ItemsResponseSchema } from "../../../common/schemas/item.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { getFolderRow, listItems } from "../../services/folders/readItems.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/item/primary",
    summary:
      "Top-level folders and requirements of a project; each repeated expand={folderId} nests that folder's children as descendants",
    query: ItemsQuerySchema,
    response: ItemsResponseSchema,
  },
  {
    method: "get",
    path: "/api/item/:folderId(\\d+)/descendant",
    summary: "Direct children (folders, then requirements) of a folder",
    query: FolderQuerySchema,
    response: ItemsResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/item/primary",
    requireAccess(deps, "browse", named.projectInQuery()),
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(ItemsQuerySchema, req.query);
      res.json({ items: await listItems(deps, actor, query.atlassian_project_id, null, query.expand) });
    }),
  );

  api.get(
    "/api/item/:folderId(\\d+)/descendant",
    requireAccess(deps, "browse", named.folderInPath("folderId")),
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(FolderQuerySchema, req.query);
      const folder = await getFolderRow(deps, actor, parse(FolderIdSchema, req.params.folderId), query.atlassian_project_id);
      res.json({ items: await listItems(deps, actor, folder.project_id, folder.folder_id) });
    }),
  );

  return api;
}
