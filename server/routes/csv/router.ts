import contentDisposition from "content-disposition";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  ExportQuerySchema,
  exportFileName,
  ImportPreviewRequestSchema,
  ImportPreviewSchema,
  ImportRequestSchema,
  ImportResponseSchema,
  XlsxExportRequestSchema,
} from "../../../common/schemas/csvImport.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { EXPORT_CSV_OPTIONS, exportRequirementRows } from "../../services/csv/exportRequirements.js";
import { startImport } from "../../jobs/importRequirementsJob.js";
import { previewImportFile } from "../../services/csv/importPreview.js";
import { startXlsxExport } from "../../services/csv/xlsxExport.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "post",
    path: "/api/import-issues",
    summary:
      "Start importing an uploaded .csv or .xlsx (file_name = the uuid_file_name sign-s3-put answered; sheet = the .xlsx sheet's tab name, the first without it) into a project; answers the job to poll with GET /api/job/status/{jobId}. All rows or none.",
    body: ImportRequestSchema,
    response: ImportResponseSchema,
  },
  {
    method: "post",
    path: "/api/import-issues/preview",
    summary:
      "What the mapping dialog shows of an uploaded import file, read as the import reads it: an .xlsx's sheets (tab order) and the chosen sheet (the first without one), the header row, and the distinct values of the Component/s and Status columns. Not an .xlsx: 400 on file_name; no such sheet: 400 on sheet.",
    body: ImportPreviewRequestSchema,
    response: ImportPreviewSchema,
  },
  {
    method: "post",
    path: "/api/requirement/export/xlsx",
    summary:
      "Start exporting the project's requirements as an .xlsx workbook (the CSV export's columns; header row frozen, with filters); answers the job to poll with GET /api/job/status/{jobId}, whose result.file_name downloads through POST /api/sign-s3-get.",
    body: XlsxExportRequestSchema,
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

  api.post(
    "/api/import-issues/preview",
    handle(async (req, res) => {
      const auth = authOf(req);
      res.json(await previewImportFile(deps, auth, parse(ImportPreviewRequestSchema, req.body)));
    }),
  );

  api.post(
    "/api/requirement/export/xlsx",
    requireAccess(deps, "browse", named.projectInBody("atlassian_project_id")),
    handle(async (req, res) => {
      const auth = authOf(req);
      const input = parse(XlsxExportRequestSchema, req.body);
      res.json({ job_id: await startXlsxExport(deps, auth, input) });
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
