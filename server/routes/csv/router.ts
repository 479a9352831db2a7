import contentDisposition from "content-disposition";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  ExportQuerySchema,
  exportFileName,
  ImportRequestSchema,
  ImportResponseSchema,
} from "../../../common/schemas/csvImport.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { EXPORT_CSV_OPTIONS, exportRequirementRows } from "../../services/csv/exportRequirements.js";
import { startImport } from "../../jobs/importRequirementsJob.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "post",
    path: "/api/import-issues",
    summary:
      "Start importing an uploaded .csv (file_name = the uuid_file_name sign-s3-put answered) into a project; answers the job to poll with GET /api/job/status/{jobId}. All rows or none.",
    body: ImportRequestSchema,
    response: ImportResponseSchema,
  },
  {
    method: "get",
    path: "/api/requirement/export",
    summary:
      "The project's requirements as a CSV file (streamed): ID, Name, Description, Type, Status, Assignee, Component/s, Linked issues, Linked requirements, custom fields, Folder",
    query: ExportQuerySchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.post(
    "/api/import-issues",
    requireAccess(deps, "edit", named.projectInBody("atlassian_project_id"), named.folderInBody("location")),
    handle(async (req, res) => {
      const auth = authOf(req);
      const input = parse(ImportRequestSchema, req.body);
      res.json({ job_id: await startImport(deps, auth, input) });
    }),
  );

  api.get(
    "/api/requirement/export",
    requireAccess(deps, "browse", named.projectInQuery()),
    handle(async (req, res) => {
      const auth = authOf(req);
      const { atlassian_project_id } = parse(ExportQuerySchema, req.query);
      const rows = exportRequirementRows(deps, auth, atlassian_project_id);
      // The header row is produced after the project's lookups: a failure there still answers in the spec's format.
      const header = await rows.next();
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", contentDisposition(exportFileName(new Date())));
      const all = (async function* () {
        if (!header.done) yield header.value;
        yield* rows;
      })();
      await pipeline(Readable.from(all), stringify(EXPORT_CSV_OPTIONS), res);
    }),
  );

  return api;
}
