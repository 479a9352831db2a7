import type { ContentDetails, PageSearchResponse } from "../../../common/schemas/confluence.js";
import type { Actor, ServiceDeps } from "../context.js";
import { spacesToFilter } from "../customerSettings/spacesToFilter.js";
import { pagesUserMayView } from "./pageRestrictions.js";
import { cqlString, readWiki, spaceClause, type WikiContent, type WikiPage } from "./wiki.js";

type Deps = ServiceDeps<"hostClient" | "access" | "logger">;

/** Ids per CQL call: Confluence answers at most this many results a page with expansions. */
const IDS_PER_CALL = 25;
const CONTENT_EXPAND = "space,version,history.contributors.publishers.users";

/** Percent-encoded (spaces as %20, not +): the app JWT's qsh is computed over exactly this text. */
const queryString = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join("&");

const joinUrl = (base: string | undefined, path: string | undefined) => (path ? `${(base ?? "").replace(/\/+$/, "")}${path}` : "");

function detailsOf(content: WikiContent, base: string | undefined): ContentDetails {
  const users = content.history?.contributors?.publishers?.users ?? [];
  return {
    atlassian_content_id: String(content.id),
    title: content.title,
    space: { key: content.space?.key ?? "", name: content.space?.name ?? content.space?.key ?? "" },
    last_updated: content.version?.when ?? null,
    contributors: users.map((user) => ({
      account_id: String(user.accountId ?? ""),
      display_name: user.displayName ?? user.publicName ?? "Unknown user",
    })),
    url: joinUrl(base, content._links?.webui),
  };
}

/**
 * `POST /api/confluence/content/search`: title, space, last update and contributors of the given
 * pages, read from Confluence as the app, in the order asked. Pages outside the stored space filter,
 * deleted ones, ones the app cannot see and ones the person may not view are left out.
 */
export async function searchContents(deps: Deps, actor: Actor, contentIds: string[]): Promise<ContentDetails[]> {
  const wanted = [...new Set(contentIds)];
  if (wanted.length === 0) return [];
  const spaces = await spacesToFilter(deps, actor);
  const chunks: string[][] = [];
  for (let i = 0; i < wanted.length; i += IDS_PER_CALL) chunks.push(wanted.slice(i, i + IDS_PER_CALL));
  const pages = await Promise.all(
    chunks.map((ids) => {
      const cql = `id in (${ids.join(",")})${spaceClause(spaces)}`;
      const query = queryString({ cql, expand: CONTENT_EXPAND, limit: IDS_PER_CALL });
      return readWiki<WikiPage<WikiContent>>(deps, actor, `/rest/api/content/search?${query}`);
    }),
  );
  const found = new Map<string, ContentDetails>();
  for (const page of pages) {
    for (const content of page?.results ?? []) found.set(String(content.id), detailsOf(content, page?._links?.base));
  }
  const viewable = await pagesUserMayView(deps, actor, [...found.keys()]);
  return wanted.flatMap((id) => {
    if (!viewable.has(id)) return [];
    const details = found.get(id);
    return details ? [details] : [];
  });
}

/**
 * `GET /api/confluence/page-search`: the requirement form's picker. A Jira page's bridge cannot
 * call Confluence, so the server searches as the app: pages whose title matches, within the
 * stored space filter, `limit` at a time, of which those the person may view.
 */
export async function searchPages(
  deps: Deps,
  actor: Actor,
  search: { title: string; start: number; limit: number },
): Promise<PageSearchResponse> {
  const spaces = await spacesToFilter(deps, actor);
  const words = search.title.replace(/["\\*?~]/g, " ").trim();
  const cql = `type = page${words ? ` and title ~ ${cqlString(`${words}*`)}` : ""}${spaceClause(spaces)}`;
  const query = queryString({ cql, expand: "space", start: search.start, limit: search.limit });
  const page = await readWiki<WikiPage<WikiContent>>(deps, actor, `/rest/api/content/search?${query}`);
  const found = page?.results ?? [];
  const viewable = await pagesUserMayView(
    deps,
    actor,
    found.map((content) => String(content.id)),
  );
  const results = found
    .filter((content) => viewable.has(String(content.id)))
    .map((content) => ({
      atlassian_content_id: String(content.id),
      title: content.title,
      space: { key: content.space?.key ?? "", name: content.space?.name ?? content.space?.key ?? "" },
    }));
  return {
    results,
    start: search.start,
    limit: search.limit,
    // Past every page Confluence answered, the ones left out too.
    next_start: page?._links?.next ? search.start + found.length : null,
  };
}

/**
 * The Jira project a global requirement's link opens on (Jira's requirements screen is a project
 * page): the site's first project, read from Jira as the app; null when Jira cannot say.
 */
export async function jiraProjectForLinks(deps: Deps, actor: Actor): Promise<number | null> {
  try {
    const page = await deps.hostClient.call<{ values?: { id?: string | number }[] }>(actor.tenantId, "jira", {
      method: "GET",
      path: "/rest/api/3/project/search?maxResults=1&orderBy=key",
    });
    const id = Number(page?.values?.[0]?.id);
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}
