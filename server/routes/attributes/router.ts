import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { pageOf } from "../../../common/schemas/paging.js";
import {
  ATTRIBUTE_PAGE_MAX,
  AttributeListQuerySchema,
  AttributeListSchema,
  AttributeSchema,
  CreateAttributeSchema,
} from "../../../common/schemas/attribute.js";
import { listAttributes } from "../../db/attributeStore.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { keepBrowsable } from "../../services/access/projectAccess.js";
import { requireAdministrator } from "../../middleware/requireAdministrator.js";
import { parse } from "../../middleware/validate.js";
import { createAttribute } from "../../services/attributes/createAttribute.js";
import { deleteAttribute } from "../../services/attributes/deleteAttribute.js";
import { handle } from "../handle.js";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const DeletedSchema = z.object({ attribute_id: z.number() });

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/attribute",
    summary: `Custom fields of the site, or of one project (0 = Global Requirements), in id order: \`limit\` (default and at most ${ATTRIBUTE_PAGE_MAX}) from \`offset\`; has_more when another page follows`,
    query: AttributeListQuerySchema,
    response: AttributeListSchema,
  },
  {
    method: "post",
    path: "/api/attribute",
    summary: "Create a custom field; a select field needs 1 to 10 options of 1 to 75 characters. Jira administrators only (403 otherwise)",
    body: CreateAttributeSchema,
    response: AttributeSchema,
  },
  {
    method: "delete",
    path: "/api/attribute/:id(\\d+)",
    summary: "Delete a custom field and every requirement's value of it. Jira administrators only (403 otherwise)",
    response: DeletedSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();
  const administratorsOnly = requireAdministrator(deps);

  api.get(
    "/api/attribute",
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(AttributeListQuerySchema, req.query);
      const { items, ...paging } = pageOf(await listAttributes(deps.db, actor.tenantId, query.atlassian_project_id, query), query);
      // Paged before the projects the person may not browse are left out: a page may hold fewer than `limit`.
      res.json({ attributes: await keepBrowsable(deps, actor, items, (attribute) => attribute.atlassian_project_id), ...paging });
    }),
  );

  api.post(
    "/api/attribute",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const input = parse(CreateAttributeSchema, req.body);
      res.status(201).json(await createAttribute(deps, actor, input));
    }),
  );

  api.delete(
    "/api/attribute/:id(\\d+)",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const { id } = parse(IdParamsSchema, req.params);
      await deleteAttribute(deps, actor, id);
      res.json({ attribute_id: id });
    }),
  );

  return api;
}
