import { Router } from "express";
import { z } from "zod";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { numericIdSchema } from "../../../common/schemas/item.js";
import {
  BulkDeleteSchema,
  BulkMoveSchema,
  CreateRequirementSchema,
  DisplayIdsResponseSchema,
  LiteQuerySchema,
  LitesByIdSchema,
  PatchRequirementSchema,
  REQUIREMENT_LIST_LIMIT_MAX,
  RequirementDetailSchema,
  RequirementIdsSchema,
  RequirementsQuerySchema,
  RequirementsResponseSchema,
  REVISION_PAGE_MAX,
  RevisionsQuerySchema,
  RevisionsResponseSchema,
  SuspectChangeSchema,
  UpdateRequirementSchema,
} from "../../../common/schemas/requirement.js";
import { ReviewSuspectLinksSchema, SuspectChangeQuerySchema } from "../../../common/schemas/suspectLinks.js";
import { reviewSuspectLinks, suspectChange } from "../../services/suspectLinks/suspectLinks.js";
import { SEARCH_LIMIT_MAX } from "../../../common/constants.js";
import { RequirementSearchQuerySchema, RequirementSearchResponseSchema } from "../../../common/schemas/requirementSearch.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { createRequirement } from "../../services/requirements/createRequirement.js";
import { deleteRequirements } from "../../services/requirements/deleteRequirements.js";
import { moveRequirements } from "../../services/requirements/moveRequirements.js";
import {
  getRequirement,
  listRequirementLites,
  listRequirementLitesById,
  listRequirementRevisions,
  requirementDisplayIds,
} from "../../services/requirements/readRequirements.js";
import { searchRequirements } from "../../services/requirements/searchRequirements.js";
import { updateRequirement } from "../../services/requirements/updateRequirement.js";
import { handle } from "../handle.js";

const ID = "/api/requirement/:id(\\d+)";
const BulkResultSchema = z.object({ requirements: z.array(z.number()) });

export const docs: ApiRouteDoc[] = [
  {
    method: "get",
    path: "/api/requirement",
    summary: `Requirements of the given projects (repeat atlassian_project_id; 0 = global), optionally only those linked to atlassian_issue_id; paged by offset and limit (default and at most ${REQUIREMENT_LIST_LIMIT_MAX}), has_more when another page follows; descriptions only with with_description=true`,
    query: RequirementsQuerySchema,
    response: RequirementsResponseSchema,
  },
  {
    method: "get",
    path: "/api/requirement/lite",
    summary: `Requirements of the given projects, or linked to atlassian_content_id, or without either of the whole site the person may browse; paged by offset and limit (default and at most ${REQUIREMENT_LIST_LIMIT_MAX}); descriptions only with with_description=true`,
    query: LiteQuerySchema,
    response: RequirementsResponseSchema,
  },
  {
    method: "get",
    path: "/api/requirement/search",
    summary: `Search requirements by ID ("SYS-12", "12", part of a custom ID) or by words of the name, description and custom-field text (each word as a prefix), ranked best first, at most limit (default 20, at most ${SEARCH_LIMIT_MAX}); in the given projects (repeat atlassian_project_id; 0 = global) or the whole site, optionally only types of the given levels; empty q answers the first requirements by id`,
    query: RequirementSearchQuerySchema,
    response: RequirementSearchResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/by-id/lite",
    summary: "The named requirements (unknown or deleted ids are left out), with descriptions when with_description is true",
    body: LitesByIdSchema,
    response: RequirementsResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/display_ids",
    summary: "Map of requirement id to its ID label (prefix plus custom ID or id)",
    body: RequirementIdsSchema,
    response: DisplayIdsResponseSchema,
  },
  {
    method: "post",
    path: "/api/requirement/delete/bulk",
    summary: "Delete requirements (soft, all or nothing, a 'deleted' revision each)",
    body: BulkDeleteSchema,
    response: BulkResultSchema,
  },
  {
    method: "post",
    path: "/api/requirement/move/bulk",
    summary: "Move requirements to a folder (null = top level) in one transaction",
    body: BulkMoveSchema,
    response: BulkResultSchema,
  },
  { method: "get", path: ID, summary: "One requirement with everything the detail shows", response: RequirementDetailSchema },
  {
    method: "post",
    path: "/api/requirement",
    summary: "Create a requirement (name and requirement_type_id required; display_id unique in the project)",
    body: CreateRequirementSchema,
    response: RequirementDetailSchema,
  },
  {
    method: "put",
    path: ID,
    summary: "Edit a requirement; send the revision the form started from (a stale one gets 409)",
    body: UpdateRequirementSchema,
    response: RequirementDetailSchema,
  },
  {
    method: "patch",
    path: ID,
    summary: "Replace the attachment list",
    body: PatchRequirementSchema,
    response: RequirementDetailSchema,
  },
  {
    method: "post",
    path: `${ID}/suspect-links/review`,
    summary:
      "Mark a suspect link reviewed ({link_type, target_id}) or all of the requirement's ({all: true}): 204, cleared on both ends and recorded in the Activity; 404 for a link the requirement does not have",
    body: ReviewSuspectLinksSchema,
  },
  {
    method: "get",
    path: `${ID}/suspect-links/change`,
    summary: "The change that made a link suspect: the changed requirement before that change and now (404 when the link is not suspect)",
    query: SuspectChangeQuerySchema,
    response: SuspectChangeSchema,
  },
  {
    method: "get",
    path: `${ID}/revision`,
    summary: `The Activity list, newest first (also for deleted requirements): \`limit\` (default and at most ${REVISION_PAGE_MAX}) from \`offset\`; has_more when another page follows`,
    query: RevisionsQuerySchema,
    response: RevisionsResponseSchema,
  },
];

const pageOf = (query: { offset: number; limit: number; with_description: boolean }) => ({
  offset: query.offset,
  limit: query.limit,
  withDescription: query.with_description,
});

export function router(deps: AppDeps): Router {
  const api = Router();
  const idOf = (value: string | undefined) => parse(numericIdSchema, value);

  api.get(
    "/api/requirement",
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(RequirementsQuerySchema, req.query);
      const filter = {
        projectIds: query.atlassian_project_id,
        ...(query.atlassian_issue_id === undefined ? {} : { issueId: query.atlassian_issue_id }),
        ...(query.suspect ? { suspect: true } : {}),
      };
      res.json(await listRequirementLites(deps, actor, filter, pageOf(query)));
    }),
  );

  api.get(
    "/api/requirement/lite",
    handle(async (req, res) => {
      const actor = authOf(req);
      const query = parse(LiteQuerySchema, req.query);
      const filter = {
        ...(query.atlassian_project_id === undefined ? {} : { projectIds: query.atlassian_project_id }),
        ...(query.atlassian_content_id === undefined ? {} : { contentId: query.atlassian_content_id }),
      };
      res.json(await listRequirementLites(deps, actor, filter, pageOf(query)));
    }),
  );

  api.get(
    "/api/requirement/search",
    handle(async (req, res) => {
      const query = parse(RequirementSearchQuerySchema, req.query);
      res.json({ requirements: await searchRequirements(deps, authOf(req), query) });
    }),
  );

  api.post(
    "/api/requirement/by-id/lite",
    handle(async (req, res) => {
      const actor = authOf(req);
      const { requirementIds, with_description } = parse(LitesByIdSchema, req.body);
      const requirements = await listRequirementLitesById(deps, actor, requirementIds, { withDescription: with_description === true });
      res.json({ requirements });
    }),
  );

  api.post(
    "/api/requirement/display_ids",
    handle(async (req, res) => {
      const actor = authOf(req);
      const { requirementIds } = parse(RequirementIdsSchema, req.body);
      res.json(await requirementDisplayIds(deps, actor, requirementIds));
    }),
  );

  api.post(
    "/api/requirement/delete/bulk",
    requireAccess(deps, "edit", named.requirementsInBody("requirements")),
    handle(async (req, res) => {
      const { requirements } = parse(BulkDeleteSchema, req.body);
      res.json({ requirements: await deleteRequirements(deps, authOf(req), requirements) });
    }),
  );

  api.post(
    "/api/requirement/move/bulk",
    requireAccess(deps, "edit", named.requirementsInBody("requirements"), named.folderInBody("parent_folder_id")),
    handle(async (req, res) => {
      const input = parse(BulkMoveSchema, req.body);
      res.json({ requirements: await moveRequirements(deps, authOf(req), input.parent_folder_id, input.requirements) });
    }),
  );

  // Its project's browse is checked by getRequirement on the row it reads.
  api.get(
    ID,
    handle(async (req, res) => {
      res.json(await getRequirement(deps, authOf(req), idOf(req.params.id)));
    }),
  );

  api.post(
    "/api/requirement",
    requireAccess(deps, "edit", named.projectInBody("project")),
    handle(async (req, res) => {
      const input = parse(CreateRequirementSchema, req.body);
      res.status(201).json(await createRequirement(deps, authOf(req), input));
    }),
  );

  api.put(
    ID,
    requireAccess(deps, "edit", named.requirementInPath()),
    handle(async (req, res) => {
      const id = idOf(req.params.id);
      const input = parse(UpdateRequirementSchema, req.body);
      res.json(await updateRequirement(deps, authOf(req), id, input));
    }),
  );

  api.patch(
    ID,
    requireAccess(deps, "edit", named.requirementInPath()),
    handle(async (req, res) => {
      const id = idOf(req.params.id);
      const input = parse(PatchRequirementSchema, req.body);
      res.json(await updateRequirement(deps, authOf(req), id, input));
    }),
  );

  api.post(
    `${ID}/suspect-links/review`,
    requireAccess(deps, "edit", named.requirementInPath()),
    handle(async (req, res) => {
      const input = parse(ReviewSuspectLinksSchema, req.body);
      await reviewSuspectLinks(deps, authOf(req), idOf(req.params.id), input);
      res.status(204).end();
    }),
  );

  api.get(
    `${ID}/suspect-links/change`,
    requireAccess(deps, "browse", named.requirementInPath()),
    handle(async (req, res) => {
      const query = parse(SuspectChangeQuerySchema, req.query);
      res.json(await suspectChange(deps, authOf(req), idOf(req.params.id), query));
    }),
  );

  api.get(
    `${ID}/revision`,
    requireAccess(deps, "browse", named.requirementInPath()),
    handle(async (req, res) => {
      res.json(await listRequirementRevisions(deps, authOf(req), idOf(req.params.id), parse(RevisionsQuerySchema, req.query)));
    }),
  );

  return api;
}
