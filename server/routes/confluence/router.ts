import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  ContentRequirementsBodySchema,
  ContentRequirementsResponseSchema,
  ContentSearchBodySchema,
  ContentSearchResponseSchema,
  contentIdSchema,
  JiraProjectResponseSchema,
  LinkedContentsQuerySchema,
  LinkedContentsResponseSchema,
  PageSearchQuerySchema,
  PageSearchResponseSchema,
} from "../../../common/schemas/confluence.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { parse } from "../../middleware/validate.js";
import { listLinkedContents } from "../../services/confluence/listLinkedContents.js";
import { jiraProjectForLinks, searchContents, searchPages } from "../../services/confluence/searchContents.js";
import { setRequirementsOfContent } from "../../services/confluence/setRequirementsOfContent.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "put",
    path: "/api/confluence/content/:contentId",
    summary:
      "Sets exactly the requirements linked to a Confluence page (at most 20; each requirement at most 20 pages); 404 when Confluence does not know the page, 503 when it cannot be read",
    body: ContentRequirementsBodySchema,
    response: ContentRequirementsResponseSchema,
  },
  {
    method: "get",
    path: "/api/confluence/content",
    summary:
      "The site's Confluence pages linked to live requirements, by content id, each with those requirements' ids (paged by start/limit)",
    query: LinkedContentsQuerySchema,
    response: LinkedContentsResponseSchema,
  },
  {
    method: "post",
    path: "/api/confluence/content/search",
    summary:
      "Title, space, last update and contributors of the given pages, read from Confluence as the app; pages outside the stored space filter are left out",
    body: ContentSearchBodySchema,
    response: ContentSearchResponseSchema,
  },
  {
    method: "get",
    path: "/api/confluence/page-search",
    summary: "Pages whose title matches (CQL, as the app, within the stored space filter), at most 20 a page",
    query: PageSearchQuerySchema,
    response: PageSearchResponseSchema,
  },
  {
    method: "get",
    path: "/api/confluence/jira-project",
    summary: "The Jira project links to global requirements open on (the site's first project; null when Jira cannot say)",
    response: JiraProjectResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.put(
    "/api/confluence/content/:contentId",
    handle(async (req, res) => {
      const contentId = parse(contentIdSchema, req.params.contentId);
      const { requirements } = parse(ContentRequirementsBodySchema, req.body);
      res.json(await setRequirementsOfContent(deps, authOf(req), contentId, requirements));
    }),
  );

  api.get(
    "/api/confluence/content",
    handle(async (req, res) => {
      const page = parse(LinkedContentsQuerySchema, req.query);
      const results = await listLinkedContents(deps, authOf(req), page);
      res.json({ results, start: page.start, limit: page.limit, size: results.length });
    }),
  );

  api.post(
    "/api/confluence/content/search",
    handle(async (req, res) => {
      const { contents } = parse(ContentSearchBodySchema, req.body);
      res.json({ results: await searchContents(deps, authOf(req), contents) });
    }),
  );

  api.get(
    "/api/confluence/page-search",
    handle(async (req, res) => {
      const search = parse(PageSearchQuerySchema, req.query);
      res.json(await searchPages(deps, authOf(req), search));
    }),
  );

  api.get(
    "/api/confluence/jira-project",
    handle(async (req, res) => {
      res.json({ atlassian_project_id: await jiraProjectForLinks(deps, authOf(req)) });
    }),
  );

  return api;
}
