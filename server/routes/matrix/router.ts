import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  MatrixExportBodySchema,
  MatrixExportResponseSchema,
  MatrixQuerySchema,
  MatrixResponseSchema,
} from "../../../common/schemas/matrix.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { readMatrixJson } from "../../services/matrix/readMatrix.js";
import { startMatrixExport } from "../../jobs/matrixExportJob.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/requirement/matrix",
    summary:
      "Traceability matrix of a project (0 = global), a window at a time: `limit` (default 200, at most 1000) rows from `offset` (requirement id order) of the active requirements whose label holds every word of `filter`, each with its linked Jira issues; total_rows counts the filtered rows; with the requirement types and the requirement columns' headings",
    query: MatrixQuerySchema,
    response: MatrixResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/matrix/export",
    summary:
      "Starts the Word (.docx) export of a project's matrix with the given issue-type columns; poll GET /api/job/status/{job_id}, then download from presigned_url once finished",
    body: MatrixExportBodySchema,
    response: MatrixExportResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const r = Router();
  r.get(
    "/api/requirement/matrix",
    requireAccess(deps, "browse", named.projectInQuery()),
    handle(async (req, res) => {
      const query = parse(MatrixQuerySchema, req.query);
      res.type("json").send(await readMatrixJson(deps, authOf(req), { ...query, projectId: query.atlassian_project_id }));
    }),
  );
  r.post(
    "/api/requirement/matrix/export",
    requireAccess(deps, "browse", named.projectInBody("atlassian_project_id")),
    handle(async (req, res) => {
      const body = parse(MatrixExportBodySchema, req.body);
      res.json(
        await startMatrixExport(deps, authOf(req), {
          projectId: body.atlassian_project_id,
          selectedIssueTypes: body.selected_issue_types,
        }),
      );
    }),
  );
  return r;
}
