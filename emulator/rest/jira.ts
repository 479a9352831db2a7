import express, { type Request, type Response, Router } from "express";
import { decodePageToken, encodePageToken, idsRequiredBy, JqlError, parseJql, runJql } from "../jql.js";
import { type SeedComment, type SeedIssue, seedIssueTypes, seedStatuses, statusCategories } from "../seed/jira.js";
import { seedUsers } from "../seed/users.js";
import type { Site } from "../sites.js";
import { callerSeesIssue, callerSeesProject, checkPermissions, permissionSchemes, userMayBrowseProject } from "./permissions.js";
import {
  adfToText,
  commentShape,
  componentShape,
  findUser,
  issueShape,
  issueTypeShape,
  jiraError,
  projectShape,
  resolveFields,
  statusShape,
  userShape,
} from "./shapes.js";

/** Who is calling: the signed-in user (AP.request) or the app itself (JWT). */
export type Caller = { kind: "user"; accountId: string } | { kind: "app"; addonKey: string; displayName: string };

export type JiraHooks = {
  /** Called after an issue is deleted, to send the `jira:issue_deleted` webhook. */
  issueDeleted(site: Site, issue: SeedIssue, caller: Caller): void;
};

const siteOf = (res: Response) => res.locals.site as Site;
const callerOf = (res: Response) => res.locals.caller as Caller;
const list = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);
const intParam = (value: unknown, fallback: number, max: number) => {
  const n = Number.parseInt(String(value ?? ""), 10);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, max) : fallback;
};

/** Jira's `orderBy` of an issue's comments: by creation, oldest first unless `-created`; equal times by id. */
const byCreated = (a: SeedComment, b: SeedComment) => a.created.localeCompare(b.created) || Number(a.id) - Number(b.id);
const commentOrders = new Map<string, (comments: SeedComment[]) => SeedComment[]>([
  ["created", (comments) => comments.toSorted(byCreated)],
  ["+created", (comments) => comments.toSorted(byCreated)],
  ["-created", (comments) => comments.toSorted(byCreated).reverse()],
]);

/** `expand=a,b` or `expand=a&expand=b`. */
const expandOf = (value: unknown) => list(value).flatMap((v) => v.split(",").map((part) => part.trim()));

/** A comment's `properties` as Jira takes them on create (a list of key and JSON value); undefined when malformed. */
function entityProperties(value: unknown): SeedComment["properties"] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const properties = value.map((p) => p as { key?: unknown; value?: unknown });
  const valid = properties.every((p) => typeof p.key === "string" && p.key.length > 0 && p.key.length <= 255 && p.value !== undefined);
  return valid ? properties.map((p) => ({ key: String(p.key), value: p.value })) : undefined;
}

function findProject(site: Site, idOrKey: string) {
  return site.content.projects.find((p) => p.id === idOrKey || p.key.toLowerCase() === idOrKey.toLowerCase());
}

/** The project as the caller sees it: one they may not browse is not there (Jira answers 404 as for a missing one). */
function visibleProject(res: Response, idOrKey: string) {
  const project = findProject(siteOf(res), idOrKey);
  return project && callerSeesProject(siteOf(res), callerOf(res), project) ? project : undefined;
}

type IssueIndex = { count: number; byId: Map<string, SeedIssue>; byKey: Map<string, SeedIssue> };
const issueIndexes = new WeakMap<SeedIssue[], IssueIndex>();

/**
 * The site's issues by id and by lower-cased key, as Jira's own index finds them: a read of 1000
 * issues among 50,000 is 1000 lookups, not 1000 scans. Built again when the list is replaced (a
 * deletion) or grows (the scale seed).
 */
function issueIndex(site: Site): IssueIndex {
  const issues = site.content.issues;
  let index = issueIndexes.get(issues);
  if (!index || index.count !== issues.length) {
    index = {
      count: issues.length,
      byId: new Map(issues.map((i) => [i.id, i])),
      byKey: new Map(issues.map((i) => [i.key.toLowerCase(), i])),
    };
    issueIndexes.set(issues, index);
  }
  return index;
}

export function findIssue(site: Site, idOrKey: string) {
  const index = issueIndex(site);
  return index.byId.get(idOrKey) ?? index.byKey.get(idOrKey.toLowerCase());
}

/** The issue as the caller sees it: one in a project they may not browse does not exist for them. */
function visibleIssue(res: Response, idOrKey: string) {
  const site = siteOf(res);
  const issue = findIssue(site, idOrKey);
  return issue && callerSeesIssue(site, callerOf(res), issue) ? issue : undefined;
}

/**
 * What JQL sees of an issue. A search reads few of these on most of the 50,000 issues of a scale
 * test (`id in`, `project =`), so the text and each field's values are built on first use only.
 */
class IssueJqlView {
  readonly id: string;
  readonly key: string;
  readonly created: string;
  readonly updated: string;
  readonly summary: string;
  #values: Record<string, string[]> | undefined;

  constructor(
    private readonly site: Site,
    private readonly issue: SeedIssue,
  ) {
    this.id = issue.id;
    this.key = issue.key;
    this.created = issue.created;
    this.updated = issue.updated;
    this.summary = issue.summary;
  }

  get text(): string {
    const issue = this.issue;
    return `${issue.summary} ${issue.description} ${issue.comments.map((c) => c.body).join(" ")}`;
  }

  /** Each field's values are built when a clause asks for that field, not all of them for every issue. */
  get values(): Record<string, string[]> {
    this.#values ??= new Proxy<Record<string, string[]>>(
      {},
      {
        get: (_target, field) =>
          typeof field === "string" && Object.hasOwn(jqlFieldValues, field) ? jqlFieldValues[field]?.(this.site, this.issue) : undefined,
      },
    );
    return this.#values;
  }
}

const projectOf = (site: Site, issue: SeedIssue) => site.content.projects.find((p) => p.id === issue.projectId);

const jqlFieldValues: Record<string, (site: Site, issue: SeedIssue) => string[]> = {
  project: (site, issue) => {
    const project = projectOf(site, issue);
    return project ? [project.id, project.key, project.name] : [];
  },
  issuetype: (_site, issue) => {
    const type = seedIssueTypes.find((t) => t.id === issue.issueTypeId);
    return type ? [type.id, type.name] : [];
  },
  status: (_site, issue) => {
    const status = seedStatuses.find((s) => s.id === issue.statusId);
    return status ? [status.id, status.name] : [];
  },
  statuscategory: (_site, issue) => {
    const status = seedStatuses.find((s) => s.id === issue.statusId);
    return status ? [status.category, statusCategories[status.category].name, String(statusCategories[status.category].id)] : [];
  },
  key: (_site, issue) => [issue.key],
  id: (_site, issue) => [issue.id],
  assignee: (_site, issue) => {
    const assignee = findUser(issue.assigneeId);
    return assignee ? [assignee.accountId] : ["empty", "null"];
  },
  parent: (site, issue) => (issue.parentId ? [issue.parentId, findIssue(site, issue.parentId)?.key ?? ""] : []),
  component: (site, issue) => {
    const project = projectOf(site, issue);
    return project ? project.components.filter((c) => issue.componentIds.includes(c.id)).flatMap((c) => [c.id, c.name]) : [];
  },
};

function searchJql(site: Site, res: Response, input: { jql?: unknown; fields?: unknown; maxResults?: unknown; nextPageToken?: unknown }) {
  const caller = callerOf(res);
  try {
    const query = parseJql(String(input.jql ?? ""));
    const fieldList = list(input.fields);
    const fields = resolveFields(fieldList, []);
    // Enhanced search caps pages at 5000 ids, or 100 issues when more than ids are asked for.
    const idsOnly = [...fields].every((f) => f === "id" || f === "key");
    const maxResults = Math.max(1, intParam(input.maxResults, 50, idsOnly ? 5000 : 100));
    const offset = decodePageToken(typeof input.nextPageToken === "string" ? input.nextPageToken : undefined);
    const ids = idsRequiredBy(query.where);
    const index = issueIndex(site);
    const all = ids ? [...ids].flatMap((id) => index.byId.get(id) ?? []) : site.content.issues;
    const candidates = caller.kind === "app" ? all : all.filter((issue) => callerSeesIssue(site, caller, issue));
    const matched = runJql(query, candidates, (issue) => new IssueJqlView(site, issue));
    const page = matched.slice(offset, offset + maxResults);
    const isLast = offset + maxResults >= matched.length;
    res.json({
      issues: page.map((issue) => issueShape(site, issue, fields)),
      ...(isLast ? {} : { nextPageToken: encodePageToken(offset + maxResults) }),
      isLast,
    });
  } catch (error) {
    if (error instanceof JqlError) res.status(400).json(jiraError(error.message));
    else throw error;
  }
}

const MULTI_VALUED_FIELDS = new Set(["comment", "worklog", "attachment"]);
const HEAVY_EXPANDS = new Set(["changelog", "editmeta", "operations", "renderedFields", "transitions", "versionedRepresentations"]);

/**
 * Jira's documented bulk fetch limit: 1000 issues a call when the fields are named (no wildcards,
 * not only exclusions), at most 100 of them, none multi-valued, and no heavy expand; 100 otherwise.
 */
function bulkFetchLimit(fields: string[], expand: string[]): number {
  const named = fields
    .flatMap((f) => f.split(","))
    .map((f) => f.trim())
    .filter(Boolean);
  const included = named.filter((f) => !f.startsWith("-"));
  const efficient =
    included.length > 0 &&
    included.length <= 100 &&
    included.every((f) => !f.startsWith("*") && !MULTI_VALUED_FIELDS.has(f)) &&
    expand.flatMap((e) => e.split(",")).every((e) => !HEAVY_EXPANDS.has(e.trim()));
  return efficient ? 1000 : 100;
}

function pageOf<T>(req: Request, items: T[], defaultSize: number, maxSize: number) {
  const startAt = intParam(req.query.startAt, 0, Number.MAX_SAFE_INTEGER);
  const maxResults = intParam(req.query.maxResults, defaultSize, maxSize);
  const values = items.slice(startAt, startAt + maxResults);
  return { startAt, maxResults, total: items.length, isLast: startAt + maxResults >= items.length, values };
}

export function jiraRestRouter(hooks: JiraHooks): Router {
  const router = Router();
  router.use(express.json({ limit: "1mb" }));

  router.get("/rest/api/3/myself", (_req, res) => {
    const caller = callerOf(res);
    const user = caller.kind === "user" ? findUser(caller.accountId) : undefined;
    if (user) res.json(userShape(siteOf(res), user));
    else
      res.json({
        accountId: `addon-${caller.kind === "app" ? caller.addonKey : ""}`,
        accountType: "app",
        displayName: caller.kind === "app" ? caller.displayName : "",
        active: true,
      });
  });

  router.get("/rest/api/3/project/search", (req, res) => {
    const site = siteOf(res);
    const query = String(req.query.query ?? "").toLowerCase();
    const caller = callerOf(res);
    const projects = site.content.projects.filter(
      (p) => callerSeesProject(site, caller, p) && (!query || p.name.toLowerCase().includes(query) || p.key.toLowerCase().includes(query)),
    );
    const page = pageOf(req, projects, 50, 50);
    const next = page.isLast
      ? {}
      : { nextPage: `${site.baseUrl}/rest/api/3/project/search?startAt=${page.startAt + page.maxResults}&maxResults=${page.maxResults}` };
    res.json({
      self: `${site.baseUrl}/rest/api/3/project/search?startAt=${page.startAt}&maxResults=${page.maxResults}`,
      ...next,
      ...page,
      values: page.values.map((p) => projectShape(site, p)),
    });
  });

  router.get("/rest/api/3/project/:idOrKey", (req, res) => {
    const site = siteOf(res);
    const project = visibleProject(res, req.params.idOrKey);
    if (!project) return void res.status(404).json(jiraError(`No project could be found with key '${req.params.idOrKey}'.`));
    res.json(projectShape(site, project, true));
  });

  router.get(["/rest/api/3/project/:idOrKey/components", "/rest/api/3/project/:idOrKey/component"], (req, res) => {
    const site = siteOf(res);
    const project = visibleProject(res, String(req.params.idOrKey));
    if (!project) return void res.status(404).json(jiraError(`No project could be found with key '${req.params.idOrKey}'.`));
    const components = project.components.map((c) => componentShape(site, project, c));
    if (req.path.endsWith("/component")) {
      const page = pageOf(req, components, 50, 50);
      return void res.json({ self: `${site.baseUrl}${req.path}`, ...page });
    }
    res.json(components);
  });

  router.get("/rest/api/3/project/:idOrKey/statuses", (req, res) => {
    const site = siteOf(res);
    const project = visibleProject(res, req.params.idOrKey);
    if (!project) return void res.status(404).json(jiraError(`No project could be found with key '${req.params.idOrKey}'.`));
    res.json(
      seedIssueTypes.map((type) => ({
        self: `${site.baseUrl}/rest/api/3/issueType/${type.id}`,
        id: type.id,
        name: type.name,
        subtask: false,
        statuses: seedStatuses.map((s) => statusShape(site, s)),
      })),
    );
  });

  router.get("/rest/api/3/status", (_req, res) => {
    const site = siteOf(res);
    res.json(seedStatuses.map((s) => statusShape(site, s)));
  });

  router.get("/rest/api/3/status/:idOrName", (req, res) => {
    const site = siteOf(res);
    const wanted = req.params.idOrName.toLowerCase();
    const status = seedStatuses.find((s) => s.id === wanted || s.name.toLowerCase() === wanted);
    if (!status) return void res.status(404).json(jiraError(`The status with id '${req.params.idOrName}' does not exist`));
    res.json(statusShape(site, status));
  });

  router.get("/rest/api/3/statuses/search", (req, res) => {
    const site = siteOf(res);
    const search = String(req.query.searchString ?? "").toLowerCase();
    const categoryName = { new: "TODO", indeterminate: "IN_PROGRESS", done: "DONE" } as const;
    const statuses = seedStatuses.filter((s) => !search || s.name.toLowerCase().includes(search));
    const page = pageOf(req, statuses, 200, 200);
    res.json({
      self: `${site.baseUrl}/rest/api/3/statuses/search?startAt=${page.startAt}&maxResults=${page.maxResults}`,
      ...page,
      values: page.values.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        statusCategory: categoryName[s.category],
        scope: { type: "GLOBAL" },
      })),
    });
  });

  router.get("/rest/api/3/issuetype", (_req, res) => {
    const site = siteOf(res);
    res.json(seedIssueTypes.map((t) => issueTypeShape(site, t)));
  });

  router.get("/rest/api/3/issuetype/project", (req, res) => {
    const site = siteOf(res);
    const project = visibleProject(res, String(req.query.projectId ?? ""));
    if (!project) return void res.status(404).json(jiraError("No project could be found with id."));
    res.json(seedIssueTypes.map((t) => ({ ...issueTypeShape(site, t), scope: { type: "PROJECT", project: { id: project.id } } })));
  });

  router.get("/rest/api/3/user", (req, res) => {
    const site = siteOf(res);
    const user = findUser(String(req.query.accountId ?? ""));
    if (!user) return void res.status(404).json(jiraError(`Specified user does not exist or you do not have required permissions`));
    res.json(userShape(site, user));
  });

  router.get("/rest/api/3/user/bulk", (req, res) => {
    const site = siteOf(res);
    const ids = list(req.query.accountId);
    const users = ids.map((id) => findUser(id)).filter((u) => u !== undefined);
    const page = pageOf(req, users, 10, 200);
    res.json({ self: `${site.baseUrl}${req.originalUrl}`, ...page, values: page.values.map((u) => userShape(site, u)) });
  });

  router.get(["/rest/api/3/user/assignable/search", "/rest/api/3/user/search"], (req, res) => {
    const site = siteOf(res);
    if (req.path.includes("assignable") && !req.query.project && !req.query.issueKey && !req.query.issueId) {
      return void res.status(400).json(jiraError("A project, issue key or issue id is required."));
    }
    const project = req.query.project ? visibleProject(res, String(req.query.project)) : undefined;
    if (req.query.project && !project) {
      return void res.status(404).json(jiraError(`Project '${String(req.query.project)}' not found`));
    }
    const issueRef = req.query.issueKey ?? req.query.issueId;
    const issue = issueRef ? visibleIssue(res, String(issueRef)) : undefined;
    if (issueRef && !issue) return void res.status(404).json(jiraError("Issue does not exist or you do not have permission to see it."));
    // Only people who may browse the project can be assigned its issues.
    const assignableIn = req.path.includes("assignable")
      ? (project ?? site.content.projects.find((p) => p.id === issue?.projectId))
      : undefined;
    const query = String(req.query.query ?? "").toLowerCase();
    const users = seedUsers.filter(
      (u) =>
        (!assignableIn || userMayBrowseProject(site, u.accountId, assignableIn)) &&
        (!query || u.displayName.toLowerCase().includes(query) || u.emailAddress.includes(query)),
    );
    const startAt = intParam(req.query.startAt, 0, Number.MAX_SAFE_INTEGER);
    const maxResults = intParam(req.query.maxResults, 50, 1000);
    res.json(users.slice(startAt, startAt + maxResults).map((u) => userShape(site, u)));
  });

  router.all("/rest/api/3/search", (_req, res) => {
    res
      .status(410)
      .json(
        jiraError(
          "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046",
        ),
      );
  });

  router.get("/rest/api/3/search/jql", (req, res) => searchJql(siteOf(res), res, req.query));
  router.post("/rest/api/3/search/jql", (req, res) => searchJql(siteOf(res), res, req.body ?? {}));

  router.post("/rest/api/3/issue/bulkfetch", (req, res) => {
    const site = siteOf(res);
    const body = (req.body ?? {}) as { issueIdsOrKeys?: unknown; fields?: unknown };
    const wanted = list(body.issueIdsOrKeys);
    const requested = list(body.fields);
    const max = bulkFetchLimit(requested, list((req.body as { expand?: unknown } | undefined)?.expand));
    if (wanted.length > max) return void res.status(400).json(jiraError(`You can request up to ${max} issues.`));
    const fields = resolveFields(requested, ["*navigable"]);
    const found = wanted.map((w) => ({ w, issue: visibleIssue(res, w) }));
    const issues = [...new Set(found.flatMap(({ issue }) => issue ?? []))].sort((a, b) => Number(a.id) - Number(b.id));
    res.json({
      issues: issues.map((issue) => issueShape(site, issue, fields)),
      issueErrors: found
        .filter(({ issue }) => !issue)
        .map(({ w }) => ({ id: w, errorMessages: ["Issue does not exist or you do not have permission to see it."] })),
    });
  });

  router.get("/rest/api/3/issue/:idOrKey", (req, res) => {
    const site = siteOf(res);
    const issue = visibleIssue(res, req.params.idOrKey);
    if (!issue) return void res.status(404).json(jiraError("Issue does not exist or you do not have permission to see it."));
    res.json(issueShape(site, issue, resolveFields(list(req.query.fields), ["*all"])));
  });

  router.delete("/rest/api/3/issue/:idOrKey", (req, res) => {
    const site = siteOf(res);
    const issue = visibleIssue(res, req.params.idOrKey);
    if (!issue) return void res.status(404).json(jiraError("Issue does not exist or you do not have permission to see it."));
    site.content.issues = site.content.issues.filter((i) => i.id !== issue.id);
    hooks.issueDeleted(site, issue, callerOf(res));
    res.status(204).end();
  });

  router.get("/rest/api/3/issue/:idOrKey/comment", (req, res) => {
    const site = siteOf(res);
    const issue = visibleIssue(res, req.params.idOrKey);
    if (!issue) return void res.status(404).json(jiraError("Issue does not exist or you do not have permission to see it."));
    const order = commentOrders.get(String(req.query.orderBy ?? "created"));
    if (!order) return void res.status(400).json(jiraError(`The orderBy value '${String(req.query.orderBy)}' is not supported.`));
    const startAt = intParam(req.query.startAt, 0, Number.MAX_SAFE_INTEGER);
    const maxResults = intParam(req.query.maxResults, 5000, 5000);
    const expand = expandOf(req.query.expand);
    res.json({
      startAt,
      maxResults,
      total: issue.comments.length,
      comments: order(issue.comments)
        .slice(startAt, startAt + maxResults)
        .map((c) => commentShape(site, issue, c, expand)),
    });
  });

  router.post("/rest/api/3/issue/:idOrKey/comment", (req, res) => {
    const site = siteOf(res);
    const issue = visibleIssue(res, req.params.idOrKey);
    if (!issue) return void res.status(404).json(jiraError("Issue does not exist or you do not have permission to see it."));
    const body = (req.body ?? {}) as { body?: unknown; properties?: unknown };
    const text = adfToText(body.body).trim();
    if (!text) return void res.status(400).json({ errorMessages: [], errors: { comment: "Comment body can not be empty!" } });
    const properties = entityProperties(body.properties);
    if (!properties) return void res.status(400).json(jiraError("Each property needs a key of 1 to 255 characters and a value."));
    const caller = callerOf(res);
    const user = caller.kind === "user" ? findUser(caller.accountId) : undefined;
    const comment = {
      id: String(site.content.nextCommentId++),
      author: user
        ? { accountId: user.accountId, displayName: user.displayName, accountType: "atlassian" as const }
        : {
            accountId: `addon-${caller.kind === "app" ? caller.addonKey : "unknown"}`,
            displayName: caller.kind === "app" ? caller.displayName : "App",
            accountType: "app" as const,
          },
      body: text,
      created: new Date().toISOString(),
      properties,
    };
    issue.comments.push(comment);
    res.status(201).json(commentShape(site, issue, comment, expandOf(req.query.expand)));
  });

  router.post("/rest/api/3/permissions/check", (req, res) => {
    const answer = checkPermissions(siteOf(res), callerOf(res), (req.body ?? {}) as Record<string, unknown>, findIssue);
    res.status(answer.status).json(answer.body);
  });

  router.get("/rest/api/3/permissionscheme", (_req, res) => {
    res.json(permissionSchemes(siteOf(res)));
  });

  router.use("/rest", (_req, res) => {
    res.status(404).json(jiraError("The emulator does not serve this Jira REST resource."));
  });
  return router;
}
