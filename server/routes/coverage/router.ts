import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  COVERAGE_DEFAULT_LIMIT,
  COVERAGE_MAX_LIMIT,
  CoverageQuerySchema,
  CoverageSchema,
  UncoveredRequirementsSchema,
} from "../../../common/schemas/coverage.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { parse } from "../../middleware/validate.js";
import { readCoverage, readUncovered } from "../../services/coverage/readCoverage.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/coverage",
    summary: `Coverage of a project (0 = global), of a folder with its whole subtree, or, without either, of every project of the site the user may browse: how many active requirements, how many have a linked Jira issue, how many of the distinct linked issues the user may browse are in status category Done, and per requirement level how many requirements and how many of them are linked to an active requirement of the next level. With \`uncovered=issues\` or \`uncovered=next_level\`: the requirements lacking that coverage instead, \`limit\` (default ${COVERAGE_DEFAULT_LIMIT}, at most ${COVERAGE_MAX_LIMIT}) from \`offset\` in requirement id order, with their total`,
    query: CoverageQuerySchema,
    response: z.union([CoverageSchema, UncoveredRequirementsSchema]),
  },
];

export function router(deps: AppDeps): Router {
  const r = Router();
  r.get(
    "/api/coverage",
    handle(async (req, res) => {
      const query = parse(CoverageQuerySchema, req.query);
      const request = { projectId: query.atlassian_project_id, folderId: query.folder_id };
      const actor = authOf(req);
      if (query.uncovered) {
        res.json(await readUncovered(deps, actor, { ...request, uncovered: query.uncovered, offset: query.offset, limit: query.limit }));
      } else {
        res.json(await readCoverage(deps, actor, request));
      }
    }),
  );
  return r;
}
