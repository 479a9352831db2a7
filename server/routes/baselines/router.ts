import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  BASELINE_LIST_MAX,
  BaselineDetailQuerySchema,
  BaselineListQuerySchema,
  BaselineDetailSchema,
  BaselineIdSchema,
  BaselineProjectQuerySchema,
  BaselineSchema,
  BaselinesResponseSchema,
  ComparisonSchema,
  CompareQuerySchema,
  CreateBaselineSchema,
} from "../../../common/schemas/baseline.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { compareBaselines } from "../../services/baselines/compareBaselines.js";
import { createBaseline } from "../../services/baselines/createBaseline.js";
import { deleteBaseline } from "../../services/baselines/deleteBaseline.js";
import { getBaseline, getBaselineWithRevisions, listProjectBaselines } from "../../services/baselines/readBaselines.js";
import { handle } from "../handle.js";

const DeletedSchema = z.object({ baseline_id: z.number() });
const OptionalProjectQuerySchema = BaselineProjectQuerySchema.partial();

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/baseline",
    summary: `Baselines of a project, newest first: \`limit\` (default and at most ${BASELINE_LIST_MAX}) from \`offset\`; has_more when another page follows`,
    query: BaselineListQuerySchema,
    response: BaselinesResponseSchema,
  },
  {
    method: "get",
    path: "/api/baseline/compare",
    summary:
      "One page of the differences between two baselines of the project (added, removed, changed; unchanged only with include_unchanged=true), in requirement id order; has_more tells whether another page follows",
    query: CompareQuerySchema,
    response: ComparisonSchema,
  },
  {
    method: "get",
    path: "/api/baseline/:id(\\d+)",
    summary:
      "A baseline with one page of its requirement_revisions in requirement id order: `limit` (default 1000, at most 5000) from `offset` (default 0); requirement_count is the total",
    query: BaselineDetailQuerySchema,
    response: BaselineDetailSchema,
  },
  {
    method: "get",
    path: "/api/baseline/:id(\\d+)/lite",
    summary: "A baseline without its revisions",
    query: OptionalProjectQuerySchema,
    response: BaselineSchema,
  },
  {
    method: "post",
    path: "/api/baseline",
    summary:
      "Take a baseline: the current revision of every requirement of the project, of a folder and everything below it, or of the listed requirements",
    body: CreateBaselineSchema,
    response: BaselineSchema,
  },
  { method: "delete", path: "/api/baseline/:id(\\d+)", summary: "Delete a baseline", response: DeletedSchema },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/baseline",
    requireAccess(deps, "browse", named.projectInQuery()),
    handle(async (req, res) => {
      const query = parse(BaselineListQuerySchema, req.query);
      res.json(await listProjectBaselines(deps, authOf(req), query.atlassian_project_id, query));
    }),
  );

  api.get(
    "/api/baseline/compare",
    requireAccess(deps, "browse", named.projectInQuery(), named.baselinesInQuery("baseline1", "baseline2")),
    handle(async (req, res) => {
      const query = parse(CompareQuerySchema, req.query);
      res.json(
        await compareBaselines(deps, authOf(req), {
          projectId: query.atlassian_project_id,
          baseline1: query.baseline1,
          baseline2: query.baseline2,
          includeUnchanged: query.include_unchanged,
          offset: query.offset,
          limit: query.limit,
        }),
      );
    }),
  );

  api.get(
    "/api/baseline/:id(\\d+)",
    requireAccess(deps, "browse", named.baselineInPath()),
    handle(async (req, res) => {
      const id = parse(BaselineIdSchema, req.params.id);
      const query = parse(BaselineDetailQuerySchema, req.query);
      res.json(
        await getBaselineWithRevisions(deps, authOf(req), id, {
          projectId: query.atlassian_project_id,
          offset: query.offset,
          limit: query.limit,
        }),
      );
    }),
  );

  api.get(
    "/api/baseline/:id(\\d+)/lite",
    requireAccess(deps, "browse", named.baselineInPath()),
    handle(async (req, res) => {
      const id = parse(BaselineIdSchema, req.params.id);
      const query = parse(OptionalProjectQuerySchema, req.query);
      res.json(await getBaseline(deps, authOf(req), id, query.atlassian_project_id));
    }),
  );

  api.post(
    "/api/baseline",
    requireAccess(deps, "manageBaselines", named.projectInBody("project")),
    handle(async (req, res) => {
      const input = parse(CreateBaselineSchema, req.body);
      res.status(201).json(await createBaseline(deps, authOf(req), input));
    }),
  );

  api.delete(
    "/api/baseline/:id(\\d+)",
    requireAccess(deps, "manageBaselines", named.baselineInPath()),
    handle(async (req, res) => {
      const id = parse(BaselineIdSchema, req.params.id);
      await deleteBaseline(deps, authOf(req), id);
      res.json({ baseline_id: id });
    }),
  );

  return api;
}
