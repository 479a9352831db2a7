import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { ProjectAccessQuerySchema, ProjectAccessResponseSchema } from "../../../common/schemas/access.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { parse } from "../../middleware/validate.js";
import { projectAccessOf } from "../../services/access/projectAccess.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/project/access",
    summary:
      "What the signed-in user may do in each project (repeat atlassian_project_id), as Jira tells: browse, edit requirements, manage baselines",
    query: ProjectAccessQuerySchema,
    response: ProjectAccessResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/project/access",
    handle(async (req, res) => {
      const { atlassian_project_id: projectIds } = parse(ProjectAccessQuerySchema, req.query);
      const access = await projectAccessOf(deps, authOf(req), projectIds);
      res.json({
        projects: [...access].map(([projectId, allowed]) => ({
          atlassian_project_id: projectId,
          browse: allowed.browse,
          edit: allowed.edit,
          manage_baselines: allowed.manageBaselines,
        })),
      });
    }),
  );

  return api;
}
