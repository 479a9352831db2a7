import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  ReqifExportRequestSchema,
  ReqifImportRequestSchema,
  ReqifJobResponseSchema,
  ReqifPreviewRequestSchema,
  ReqifPreviewSchema,
} from "../../../common/schemas/reqif.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { startReqifExport } from "../../services/reqif/reqifExportJob.js";
import { previewReqif, startReqifImport } from "../../services/reqif/reqifImportJob.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "post",
    path: "/api/import-reqif/preview",
    summary:
      "What an uploaded .reqif or .reqifz (file_name = the uuid_file_name sign-s3-put answered) holds: its specifications, spec object types with their attribute definitions, and how many objects and relations. A file that is not ReqIF is a 400 on file_name.",
    body: ReqifPreviewRequestSchema,
    response: ReqifPreviewSchema,
  },
  {
    method: "post",
    path: "/api/import-reqif",
    summary:
      "Start importing an uploaded .reqif or .reqifz into a project below parent_folder_id; answers the job to poll with GET /api/job/status/{jobId}, whose result counts what was created and updated and lists the relations not made links. All or nothing; a re-import of the same file updates what it created.",
    body: ReqifImportRequestSchema,
    response: ReqifJobResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/export/reqif",
    summary:
      "Start exporting a project, a folder with its subtree or a baseline as ReqIF 1.2 (a .reqifz with include_attachments); answers the job to poll with GET /api/job/status/{jobId}, whose result.file_name downloads through POST /api/sign-s3-get.",
    body: ReqifExportRequestSchema,
    response: ReqifJobResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.post(
    "/api/import-reqif/preview",
    handle(async (req, res) => {
      const auth = authOf(req);
      const { file_name } = parse(ReqifPreviewRequestSchema, req.body);
      res.json(await previewReqif(deps, auth, file_name));
    }),
  );

  api.post(
    "/api/import-reqif",
    requireAccess(deps, "edit", named.projectInBody("atlassian_project_id"), named.folderInBody("parent_folder_id")),
    handle(async (req, res) => {
      const auth = authOf(req);
      const input = parse(ReqifImportRequestSchema, req.body);
      res.json({ job_id: await startReqifImport(deps, auth, input) });
    }),
  );

  api.post(
    "/api/requirement/export/reqif",
    requireAccess(
      deps,
      "browse",
      named.projectInBody("atlassian_project_id"),
      named.folderInBody("folder_id"),
      named.baselineInBody("baseline_id"),
    ),
    handle(async (req, res) => {
      const auth = authOf(req);
      const input = parse(ReqifExportRequestSchema, req.body);
      res.json({ job_id: await startReqifExport(deps, auth, input) });
    }),
  );

  return api;
}
