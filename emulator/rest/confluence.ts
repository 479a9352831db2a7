import express, { type Request, type Response, Router } from "express";
import type { PageComment, PageVersion, SeedPage } from "../seed/confluence.js";
import type { Site } from "../sites.js";
import { userMayViewPage } from "./permissions.js";
import { avatarUrl, findUser } from "./shapes.js";

/** Confluence Cloud REST v1 shapes (/wiki/rest/api), the subset the add-on's pickers and macros read. */

const siteOf = (res: Response) => res.locals.site as Site;
/** The pages the caller sees: the app all of them, a person those no view restriction keeps from them. */
const visiblePages = (res: Response, pages: SeedPage[]) => {
  const caller = res.locals.caller as { kind: string; accountId?: string };
  return caller.kind === "user" ? pages.filter((page) => userMayViewPage(siteOf(res), caller.accountId ?? "", page.id)) : pages;
};
const wiki = (site: Site) => `${site.baseUrl}/wiki`;

function confluenceUser(site: Site, accountId: string) {
  const user = findUser(accountId);
  return {
    type: "known",
    accountId,
    accountType: "atlassian",
    email: user?.emailAddress ?? "",
    publicName: user?.displayName ?? "Unknown user",
    displayName: user?.displayName ?? "Unknown user",
    profilePicture: { path: avatarUrl(site, accountId).replace(site.baseUrl, ""), width: 48, height: 48, isDefault: false },
    _links: { self: `${wiki(site)}/rest/api/user?accountId=${accountId}` },
  };
}

function versionShape(site: Site, page: SeedPage, version: PageVersion) {
  return {
    by: confluenceUser(site, version.byAccountId),
    when: version.when,
    friendlyWhen: new Date(version.when).toDateString(),
    message: version.message,
    number: version.number,
    minorEdit: false,
    _links: { self: `${wiki(site)}/rest/api/content/${page.id}/version/${version.number}` },
  };
}

function historyShape(site: Site, page: SeedPage) {
  const first = page.versions[0];
  const last = page.versions[page.versions.length - 1];
  const contributors = [...new Set(page.versions.map((v) => v.byAccountId))];
  return {
    latest: true,
    createdBy: first ? confluenceUser(site, first.byAccountId) : undefined,
    createdDate: first?.when,
    lastUpdated: last ? versionShape(site, page, last) : undefined,
    contributors: {
      publishers: { users: contributors.map((id) => confluenceUser(site, id)), userKeys: contributors, userAccountIds: contributors },
    },
    _links: { self: `${wiki(site)}/rest/api/content/${page.id}/history` },
  };
}

function spaceShape(site: Site, key: string) {
  const space = site.content.spaces.find((s) => s.key === key);
  return {
    id: space?.id,
    key,
    name: space?.name ?? key,
    type: "global",
    status: "current",
    _links: { webui: `/spaces/${key}`, self: `${wiki(site)}/rest/api/space/${key}` },
  };
}

const webui = (page: SeedPage) => `/spaces/${page.spaceKey}/pages/${page.id}/${encodeURIComponent(page.title.replace(/\s+/g, "+"))}`;

export function contentShape(site: Site, page: SeedPage, expand: string[]) {
  const has = (name: string) => expand.some((e) => e === name || e.startsWith(`${name}.`));
  const last = page.versions[page.versions.length - 1];
  const out: Record<string, unknown> = {
    id: page.id,
    type: "page",
    status: page.status ?? "current",
    title: page.title,
    macroRenderedOutput: {},
    extensions: { position: Number(page.id) % 1000 },
    _expandable: { container: "", history: "", body: "", version: "", space: "", ancestors: "" },
    _links: { webui: webui(page), tinyui: `/x/${page.id}`, self: `${wiki(site)}/rest/api/content/${page.id}` },
  };
  if (has("space")) out.space = spaceShape(site, page.spaceKey);
  if (has("history")) out.history = historyShape(site, page);
  if (has("version") && last) out.version = versionShape(site, page, last);
  if (has("body")) out.body = { storage: { value: page.body, representation: "storage" } };
  if (has("ancestors"))
    out.ancestors = page.parentId
      ? [{ id: page.parentId, type: "page", title: site.content.pages.find((p) => p.id === page.parentId)?.title }]
      : [];
  return out;
}

const expandOf = (req: Request) =>
  String(req.query.expand ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);

function paged(req: Request, res: Response, pages: SeedPage[], path: string) {
  const site = siteOf(res);
  const start = Math.max(0, Number.parseInt(String(req.query.start ?? "0"), 10) || 0);
  const limit = Math.min(200, Math.max(1, Number.parseInt(String(req.query.limit ?? "25"), 10) || 25));
  const results = pages.slice(start, start + limit).map((p) => contentShape(site, p, expandOf(req)));
  const more = start + limit < pages.length;
  res.json({
    results,
    start,
    limit,
    size: results.length,
    _links: {
      base: wiki(site),
      context: "/wiki",
      self: `${wiki(site)}/rest/api/${path}`,
      ...(more ? { next: `/rest/api/${path}&start=${start + limit}&limit=${limit}` } : {}),
    },
  });
}

/**
 * The page `GET /rest/api/content/{id}` answers: as Confluence Cloud does, a draft that was never
 * published is found only when the call's `status` names draft or any.
 */
export function findPage(pages: SeedPage[], id: string, status: string | null | undefined): SeedPage | undefined {
  const statuses = String(status ?? "current").split(",");
  const page = pages.find((candidate) => candidate.id === id);
  return page?.status === "draft" && !statuses.some((s) => s === "draft" || s === "any") ? undefined : page;
}

/** CQL subset: type, space (=, in), title/text (~, =), id (=, in), ancestor, joined by AND. Drafts are not searched, as in Confluence. */
export function filterByCql(pages: SeedPage[], cql: string): SeedPage[] {
  const clauses = cql
    .split(/\s+and\s+/i)
    .map((c) => c.trim())
    .filter(Boolean);
  const unquote = (v: string) => v.trim().replace(/^["']|["']$/g, "");
  return pages.filter(
    (page) =>
      page.status !== "draft" &&
      clauses.every((clause) => {
        const match = /^(\w+)\s*(!=|=|~|\bin\b|\bnot in\b)\s*(.+)$/i.exec(clause);
        if (!match) return true;
        const [, rawField = "", rawOp = "", rawValue = ""] = match;
        const field = rawField.toLowerCase();
        const op = rawOp.toLowerCase();
        const values = op.includes("in")
          ? rawValue
              .replace(/^\(|\)$/g, "")
              .split(",")
              .map(unquote)
          : [unquote(rawValue)];
        const lower = values.map((v) => v.toLowerCase());
        let hit: boolean;
        if (field === "type") hit = lower.includes("page");
        else if (field === "space") hit = lower.includes(page.spaceKey.toLowerCase());
        else if (field === "id" || field === "content") hit = values.includes(page.id);
        else if (field === "ancestor" || field === "parent") hit = values.includes(page.parentId ?? "");
        else if (field === "title" || field === "text") {
          const haystack = (field === "title" ? page.title : `${page.title} ${page.body}`).toLowerCase();
          const needle = (lower[0] ?? "").replace(/\*/g, "");
          hit = op === "=" ? haystack === needle : needle.split(/\s+/).every((w) => haystack.includes(w));
        } else hit = true;
        return op.startsWith("not") || op === "!=" ? !hit : hit;
      }),
  );
}

function commentShape(site: Site, page: SeedPage, comment: PageComment) {
  return {
    id: comment.id,
    type: "comment",
    status: "current",
    title: `Re: ${page.title}`,
    container: { id: page.id, type: "page", title: page.title },
    history: {
      createdDate: comment.created,
      createdBy: comment.authorAccountId ? confluenceUser(site, comment.authorAccountId) : { type: "app", displayName: comment.authorName },
    },
    body: { storage: { value: comment.body, representation: "storage" } },
    _links: { webui: `${webui(page)}?focusedCommentId=${comment.id}`, self: `${wiki(site)}/rest/api/content/${comment.id}` },
  };
}

/** `changed` hears of every page a call changed, so the emulator can keep it. */
export function confluenceRestRouter(changed: (site: Site) => void = () => {}): Router {
  const router = Router();
  router.use("/wiki/rest", express.json({ limit: "1mb" }));

  router.get("/wiki/rest/api/content/search", (req, res) => {
    const cql = String(req.query.cql ?? "");
    if (!cql) return void res.status(400).json({ statusCode: 400, message: "CQL query parameter is required" });
    paged(req, res, visiblePages(res, filterByCql(siteOf(res).content.pages, cql)), `content/search?cql=${encodeURIComponent(cql)}`);
  });

  router.get("/wiki/rest/api/content", (req, res) => {
    const spaceKey = req.query.spaceKey ? String(req.query.spaceKey) : undefined;
    const title = req.query.title ? String(req.query.title) : undefined;
    const pages = visiblePages(res, siteOf(res).content.pages).filter(
      (p) => (!spaceKey || p.spaceKey === spaceKey) && (!title || p.title === title),
    );
    paged(req, res, pages, `content?${spaceKey ? `spaceKey=${spaceKey}` : "type=page"}`);
  });

  const withPage = (handler: (site: Site, page: SeedPage, req: Request, res: Response) => void) => (req: Request, res: Response) => {
    const site = siteOf(res);
    const page = findPage(
      visiblePages(res, site.content.pages),
      String(req.params.id),
      typeof req.query.status === "string" ? req.query.status : undefined,
    );
    if (!page) return void res.status(404).json({ statusCode: 404, message: `No content found with id: ContentId{id=${req.params.id}}` });
    handler(site, page, req, res);
  };

  router.get(
    "/wiki/rest/api/content/:id",
    withPage((site, page, req, res) => res.json(contentShape(site, page, expandOf(req)))),
  );
  router.get(
    "/wiki/rest/api/content/:id/history",
    withPage((site, page, _req, res) => res.json(historyShape(site, page))),
  );
  router.get(
    "/wiki/rest/api/content/:id/version",
    withPage((site, page, _req, res) => {
      const results = [...page.versions].reverse().map((v) => versionShape(site, page, v));
      res.json({ results, start: 0, limit: 200, size: results.length, _links: { base: wiki(site), context: "/wiki" } });
    }),
  );

  router.get(
    "/wiki/rest/api/content/:id/child/comment",
    withPage((site, page, _req, res) => {
      const results = (page.comments ?? []).map((comment) => commentShape(site, page, comment));
      res.json({ results, start: 0, limit: 200, size: results.length, _links: { base: wiki(site), context: "/wiki" } });
    }),
  );

  // Whether a person may view a page (its view restriction), asked by the app for any account.
  router.post(
    "/wiki/rest/api/content/:id/permission/check",
    withPage((site, page, req, res) => {
      const body = (req.body ?? {}) as { subject?: { type?: string; identifier?: string }; operation?: string };
      if (body.subject?.type !== "user" || !body.subject.identifier || body.operation !== "read") {
        return void res.status(400).json({ statusCode: 400, message: "The emulator checks only a user's read permission" });
      }
      res.json({ hasPermission: userMayViewPage(site, body.subject.identifier, page.id), errors: [] });
    }),
  );

  // Creating content: only footer comments on a page (`type: "comment"`, `container.id`).
  router.post("/wiki/rest/api/content", (req, res) => {
    const site = siteOf(res);
    const body = (req.body ?? {}) as { type?: string; container?: { id?: string }; body?: { storage?: { value?: string } } };
    if (body.type !== "comment") return void res.status(400).json({ statusCode: 400, message: "The emulator creates only comments" });
    const page = site.content.pages.find((p) => p.id === String(body.container?.id));
    if (!page) return void res.status(404).json({ statusCode: 404, message: "Container not found" });
    const caller = res.locals.caller as { kind: string; accountId?: string; displayName?: string };
    const comment: PageComment = {
      id: String(900000 + site.content.pages.reduce((n, p) => n + (p.comments?.length ?? 0), 0)),
      authorAccountId: caller.kind === "user" ? (caller.accountId ?? null) : null,
      authorName: caller.kind === "user" ? (findUser(caller.accountId)?.displayName ?? "Unknown user") : (caller.displayName ?? "App"),
      body: body.body?.storage?.value ?? "",
      created: new Date().toISOString(),
    };
    page.comments = [...(page.comments ?? []), comment];
    changed(site);
    res.status(200).json(commentShape(site, page, comment));
  });

  // Macro history: a macro's name and parameters as the given page version saved them.
  router.get(
    "/wiki/rest/api/content/:id/history/:version/macro/id/:macroId",
    withPage((site, page, req, res) => {
      const version = page.versions.find((v) => String(v.number) === req.params.version);
      const macro = (version?.macros ?? []).find((m) => m.id === req.params.macroId);
      if (!version || !macro)
        return void res
          .status(404)
          .json({ statusCode: 404, message: `No macro found with id ${req.params.macroId} at version ${req.params.version}` });
      res.json({
        name: `macro-${macro.slot}`,
        body: "",
        parameters: macro.params,
        _links: { base: wiki(site), self: `${wiki(site)}/rest/api/content/${page.id}/history/${version.number}/macro/id/${macro.id}` },
      });
    }),
  );

  router.get("/wiki/rest/api/space", (req, res) => {
    const site = siteOf(res);
    const results = site.content.spaces.map((s) => ({
      ...spaceShape(site, s.key),
      description: { plain: { value: s.description, representation: "plain" } },
    }));
    const start = Number.parseInt(String(req.query.start ?? "0"), 10) || 0;
    const limit = Number.parseInt(String(req.query.limit ?? "25"), 10) || 25;
    res.json({
      results: results.slice(start, start + limit),
      start,
      limit,
      size: Math.min(limit, Math.max(0, results.length - start)),
      _links: { base: wiki(site), context: "/wiki" },
    });
  });

  router.get("/wiki/rest/api/space/:key", (req, res) => {
    const site = siteOf(res);
    if (!site.content.spaces.some((s) => s.key === req.params.key))
      return void res.status(404).json({ statusCode: 404, message: "No space found" });
    res.json(spaceShape(site, req.params.key));
  });

  router.get(["/wiki/rest/api/user", "/wiki/rest/api/user/current"], (req, res) => {
    const site = siteOf(res);
    const caller = res.locals.caller as { kind: string; accountId?: string };
    const accountId = req.path.endsWith("/current") ? caller.accountId : String(req.query.accountId ?? "");
    if (!accountId || !findUser(accountId)) return void res.status(404).json({ statusCode: 404, message: "User not found" });
    res.json(confluenceUser(site, accountId));
  });

  router.use("/wiki/rest", (_req, res) => {
    res.status(404).json({ statusCode: 404, message: "The emulator does not serve this Confluence REST resource." });
  });
  return router;
}
