import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { FolderIdSchema } from "../../../common/schemas/folder.js";
import {
  ItemPositionSchema,
  ItemsQuerySchema,
  ItemsResponseSchema,
  ItemsWindowQuerySchema,
  numericIdSchema,
} from "../../../common/schemas/item.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { getFolderRow, itemPosition, listItems } from "../../services/folders/readItems.js";
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
  {
    method: "get",
    path: "/api/item/requirement/:id(\\d+)/position",
    summary:
      "Where a requirement sits in its project's tree, for a deep link: from the top level down, each level on the way (parent_folder_id) and the position in it of the folder that leads on, the requirement's own last, in the order of the windows above; the window that holds it starts at floor(position / limit) × limit",
    response: ItemPositionSchema,
  },
  {
    method: "get",
    path: "/api/item/folder/:id(\\d+)/position",
    summary: "Where a folder sits in its project's tree, as for a requirement",
    response: ItemPositionSchema,
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

  api.get(
    "/api/item/requirement/:id(\\d+)/position",
    requireAccess(deps, "browse", named.requirementInPath()),
    handle(async (req, res) => {
      res.json(await itemPosition(deps, authOf(req), { requirementId: parse(numericIdSchema, req.params.id) }));
    }),
  );

  api.get(
    "/api/item/folder/:id(\\d+)/position",
    requireAccess(deps, "browse", named.folderInPath()),
    handle(async (req, res) => {
      res.json(await itemPosition(deps, authOf(req), { folderId: parse(FolderIdSchema, req.params.id) }));
    }),
  );

  return api;
}
