import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { JobStatusResponseSchema } from "../../../common/schemas/job.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { getJobStatus } from "../../services/jobs/getJobStatus.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/job/status/:jobId",
    summary: "A job's progress, polled by the import and export dialogs; another site's job is not found",
    response: JobStatusResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/job/status/:jobId",
    handle(async (req, res) => {
      res.json(await getJobStatus(deps, authOf(req), String(req.params.jobId)));
    }),
  );

  return api;
}
