import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { issueIdParam, issueRequirementsBody, issueRequirementsResponse } from "../../../common/schemas/issueLinks.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { parse } from "../../middleware/validate.js";
import { setRequirementsOfIssue } from "../../services/issueLinks/setRequirementsOfIssue.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "put",
    path: "/api/issue/:issueId",
    summary:
      "Sets exactly the requirements (of the issue's project and global) linked to a Jira issue; 404 when Jira does not know the issue, 400 for unknown requirement ids",
    body: issueRequirementsBody,
    response: issueRequirementsResponse,
  },
];

export function router(deps: AppDeps): Router {
  const r = Router();
  r.put(
    "/api/issue/:issueId",
    handle(async (req, res) => {
      const auth = authOf(req);
      const issueId = parse(issueIdParam, req.params.issueId);
      const body = parse(issueRequirementsBody, req.body);
      res.json(await setRequirementsOfIssue(deps, auth, issueId, body.requirements));
    }),
  );
  return r;
}
