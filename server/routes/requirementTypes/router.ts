import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { numericIdSchema } from "../../../common/schemas/item.js";
import {
  CreateRequirementTypeSchema,
  RequirementTypeSchema,
  REQUIREMENT_TYPE_PAGE_MAX,
  RequirementTypesQuerySchema,
  RequirementTypesResponseSchema,
  UpdateRequirementTypeSchema,
  unwrapRequirementTypeBody,
} from "../../../common/schemas/requirementType.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { requireAdministrator } from "../../middleware/requireAdministrator.js";
import { parse } from "../../middleware/validate.js";
import {
  createRequirementType,
  deleteRequirementType,
  listRequirementTypes,
  updateRequirementType,
} from "../../services/requirementTypes/manageRequirementTypes.js";
import { handle } from "../handle.js";

const DeletedSchema = z.object({ requirement_type_id: z.number() });

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/requirement/type",
    summary: `Requirement types of the site, by level: \`limit\` (default and at most ${REQUIREMENT_TYPE_PAGE_MAX}) from \`offset\`; has_more when another page follows`,
    query: RequirementTypesQuerySchema,
    response: RequirementTypesResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/type",
    summary:
      "Create a requirement type (name and prefix required; body bare or as {requirement_type: {...}}). Jira administrators only (403 otherwise)",
    body: CreateRequirementTypeSchema,
    response: RequirementTypeSchema,
  },
  {
    method: "put",
    path: "/api/requirement/type/:id(\\d+)",
    summary:
      "Rename a requirement type; the level changes only on editable types without linked requirements. Jira administrators only (403 otherwise)",
    body: UpdateRequirementTypeSchema,
    response: RequirementTypeSchema,
  },
  {
    method: "delete",
    path: "/api/requirement/type/:id(\\d+)",
    summary: "Delete a requirement type; refused (409) while active requirements have it. Jira administrators only (403 otherwise)",
    response: DeletedSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();
  const administratorsOnly = requireAdministrator(deps);

  api.get(
    "/api/requirement/type",
    handle(async (req, res) => {
      res.json(await listRequirementTypes(deps, authOf(req), parse(RequirementTypesQuerySchema, req.query)));
    }),
  );

  api.post(
    "/api/requirement/type",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const input = parse(CreateRequirementTypeSchema, unwrapRequirementTypeBody(req.body));
      res.status(201).json(await createRequirementType(deps, actor, input));
    }),
  );

  api.put(
    "/api/requirement/type/:id(\\d+)",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const id = parse(numericIdSchema, req.params.id);
      const input = parse(UpdateRequirementTypeSchema, unwrapRequirementTypeBody(req.body));
      res.json(await updateRequirementType(deps, actor, id, input));
    }),
  );

  api.delete(
    "/api/requirement/type/:id(\\d+)",
    administratorsOnly,
    handle(async (req, res) => {
      const actor = authOf(req);
      const id = parse(numericIdSchema, req.params.id);
      await deleteRequirementType(deps, actor, id);
      res.json({ requirement_type_id: id });
    }),
  );

  return api;
}
