import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { FolderIdSchema } from "../../../common/schemas/folder.js";
import { ItemsQuerySchema, ItemsResponseSchema, ItemsWindowQuerySchema } from "../../../common/schemas/item.js";
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
      "Top-level folders and requirements of a project, a window at a time: `limit` (default and most 1000) items from `offset`, folders then requirements, and total_items, how many the level holds; each repeated expand={folderId} nests that folder's first `limit` children as descendants",
    query: ItemsQuerySchema,
    response: ItemsResponseSchema,
  },
  {
    method: "get",
    path: "/api/item/:folderId(\\d+)/descendant",
    summary:
      "Direct children of a folder (folders, then requirements), a window at a time: `limit` (default and most 1000) items from `offset`, and total_items",
    query: ItemsWindowQuerySchema,
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
      const level = await listItems(deps, actor, query.atlassian_project_id, null, query, query.expand);
      res.json({ items: level.items, total_items: level.total });
    }),
  );

  api.get(
    "/api/item/:folderId(\\d+)/descendant",
    requireAccess(deps, "browse", named.folderInPath("folderId")),
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(ItemsWindowQuerySchema, req.query);
      const folder = await getFolderRow(deps, actor, parse(FolderIdSchema, req.params.folderId), query.atlassian_project_id);
      const level = await listItems(deps, actor, folder.project_id, folder.folder_id, query);
      res.json({ items: level.items, total_items: level.total });
    }),
  );

  return api;
}
