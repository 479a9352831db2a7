import { randomUUID } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contentShape, filterByCql, findPage } from "../../../emulator/rest/confluence.js";
import { type SeedPage, seedConfluence } from "../../../emulator/seed/confluence.js";
import type { Site } from "../../../emulator/sites.js";
import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { CONTENT_LIMIT_MESSAGE, REQUIREMENTS_PER_CONTENT_MESSAGE } from "../../../common/schemas/confluence.js";
import { bearer, createTenant, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { NOT_ON_CONFLUENCE } from "../../services/confluence/wiki.js";
import { createRequirement as createRequirementService } from "../../services/requirements/createRequirement.js";
import { snapshotFromStored } from "../../db/requirements/index.js";

const PROJECT = 10000;

/** The emulator's Confluence content, plus a second space, answered as Confluence Cloud does to the app. */
const seeded = seedConfluence();
const opsPages: SeedPage[] = ["Runbook: pump alarms", "On-call handbook"].map((title, index) => ({
  id: String(99001 + index),
  spaceKey: "OPS",
  title,
  body: `<p>${title}</p>`,
  parentId: null,
  versions: [{ number: 1, byAccountId: seeded.pages[0]?.versions[0]?.byAccountId ?? "", when: "2025-03-01T10:00:00.000Z", message: "" }],
  macros: [],
}));
/** A page being written for the first time: Confluence finds it by id only when asked for drafts. */
const draftPage: SeedPage = { ...(opsPages[1] as SeedPage), id: "99100", title: "Alarm review (draft)", status: "draft" };
const wiki = {
  baseUrl: "https://wiki-test.atlassian.net",
  content: {
    spaces: [...seeded.spaces, { id: 98400, key: "OPS", name: "Operations", description: "", homepageId: "99001" }],
    pages: [...seeded.pages, ...opsPages, draftPage],
  },
} as unknown as Site;

/** What the next wiki call does instead of answering: a status, as the host client reports it. */
let wikiFault: number | undefined;
const wikiCalls: string[] = [];
const fakeConfluence: HostClient = {
  async call<T>(_tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T> {
    // A settings change asks Jira whether its user is an administrator: yes.
    if (product === "jira" && isPermissionCheck(call)) return permissionCheckAnswer(call) as T;
    if (product !== "confluence") throw new Error("This test has no Jira");
    wikiCalls.push(call.path);
    if (wikiFault !== undefined) throw new HostCallError(wikiFault, "", `Confluence answered ${wikiFault}`);
    const url = new URL(call.path, "https://wiki-test.atlassian.net");
    const expand = (url.searchParams.get("expand") ?? "").split(",").filter(Boolean);
    if (url.pathname === "/rest/api/content/search") {
      const found = filterByCql(wiki.content.pages, url.searchParams.get("cql") ?? "");
      const start = Number(url.searchParams.get("start") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 25);
      const results = found.slice(start, start + limit).map((page) => contentShape(wiki, page, expand));
      const next = start + limit < found.length ? { next: `/rest/api/content/search?start=${start + limit}` } : {};
      return { results, start, limit, size: results.length, _links: { base: `${wiki.baseUrl}/wiki`, ...next } } as T;
    }
    // Every user may view every page of this wiki.
    if (/^\/rest\/api\/content\/[^/]+\/permission\/check$/.test(url.pathname)) return { hasPermission: true, errors: [] } as T;
    const id = /^\/rest\/api\/content\/([^/]+)$/.exec(url.pathname)?.[1] ?? "";
    const page = findPage(wiki.content.pages, id, url.searchParams.get("status"));
    if (!page) throw new HostCallError(404, "", "No content");
    return contentShape(wiki, page, expand) as T;
  },
};

type Site2 = TestTenant & { jira: string; confluence: string };

let ctx: TestContext;
let siteA: Site2;
let siteB: Site2;
const typesOf = new Map<string, Record<string, number>>();

/** A site with rmCloud on Jira and Confluence; `jira` and `confluence` are its users' Authorization headers. */
async function createSite(): Promise<Site2> {
  const tenant = await createTenant(ctx.deps.db);
  const clientKey = `confluence:${randomUUID()}`;
  await ctx.deps.db("installations").insert({
    tenant_id: tenant.tenantId,
    client_key: clientKey,
    product: "confluence",
    base_url: `${tenant.baseUrl}/wiki`,
    shared_secret: randomUUID(),
    client_info: { key: "rmcloud-confluence", clientKey, baseUrl: `${tenant.baseUrl}/wiki`, productType: "confluence" },
  });
  typesOf.set(tenant.tenantId, await seedRequirementTypes(ctx.deps.db, tenant.tenantId));
  return {
    ...tenant,
    jira: await bearer(ctx, tenant),
    confluence: await bearer(ctx, { ...tenant, clientKey }, "557058:wiki-user", "confluence"),
  };
}

beforeAll(async () => {
  ctx = await createTestApp({ hostClient: fakeConfluence });
  siteA = await createSite();
  siteB = await createSite();
});
afterAll(() => ctx.destroy());
beforeEach(() => {
  wikiFault = undefined;
});

const api = () => request(ctx.app);
const ENG_PAGE = seeded.pages[2]?.id ?? "";
const OTHER_ENG_PAGE = seeded.pages[3]?.id ?? "";
const OPS_PAGE = opsPages[0]?.id ?? "";

async function createRequirement(site: Site2, name: string, body: Record<string, unknown> = {}) {
  const res = await api()
    .post("/api/requirement")
    .set("Authorization", site.jira)
    .send({ project: PROJECT, requirement_type_id: typesOf.get(site.tenantId)?.SYS, name, ...body });
  expect(res.status).toBe(201);
  return res.body as { requirement_id: number; contents: { atlassian_content_id: string }[]; revision: number };
}
const putContent = (site: Site2, contentId: string, requirements: unknown, as: "jira" | "confluence" = "confluence") =>
  api().put(`/api/confluence/content/${contentId}`).set("Authorization", site[as]).send({ requirements });
const linkedToContent = async (site: Site2, contentId: string, as: "jira" | "confluence" = "confluence") => {
  const res = await api().get("/api/requirement/lite").query({ atlassian_content_id: contentId }).set("Authorization", site[as]);
  expect(res.status).toBe(200);
  return (res.body.requirements as { requirement_id: number; name: string }[]).map((r) => r.name);
};
const contentsOf = async (site: Site2, requirementId: number) =>
  (
    (await api().get(`/api/requirement/${requirementId}`).set("Authorization", site.jira)).body.contents as {
      atlassian_content_id: string;
    }[]
  ).map((content) => content.atlassian_content_id);
const manyPageIds = (count: number) => Array.from({ length: count }, (_, i) => String(500000 + i));

describe("PUT /api/confluence/content/{contentId}: the page macro editor's save", () => {
  it("links exactly the chosen requirements to the page, and the requirement's detail shows the page", async () => {
    const braking = await createRequirement(siteA, "Braking distance");
    const alarms = await createRequirement(siteA, "Occlusion alarm");
    const save = await putContent(siteA, ENG_PAGE, [braking.requirement_id, alarms.requirement_id]);
    expect(save.status).toBe(200);
    expect(save.body).toEqual({ requirements: [braking.requirement_id, alarms.requirement_id] });
    expect(await linkedToContent(siteA, ENG_PAGE)).toEqual(["Braking distance", "Occlusion alarm"]);
    expect(await contentsOf(siteA, braking.requirement_id)).toEqual([ENG_PAGE]);

    // The whole list replaces the previous one.
    expect((await putContent(siteA, ENG_PAGE, [alarms.requirement_id])).status).toBe(200);
    expect(await linkedToContent(siteA, ENG_PAGE)).toEqual(["Occlusion alarm"]);
    expect(await contentsOf(siteA, braking.requirement_id)).toEqual([]);
  });

  it("writes a revision on each requirement whose pages changed, so Activity and baselines see it", async () => {
    const requirement = await createRequirement(siteA, "Dose limits");
    await putContent(siteA, OTHER_ENG_PAGE, [requirement.requirement_id]);
    const revisions = (await api().get(`/api/requirement/${requirement.requirement_id}/revision`).set("Authorization", siteA.jira)).body
      .revisions;
    expect(revisions[0]).toMatchObject({ revision: requirement.revision + 1, action: "updated", changed_fields: "contents" });
    const snapshot = await ctx.deps
      .db("requirement_revisions")
      .where({ tenant_id: siteA.tenantId, requirement_id: requirement.requirement_id, revision: requirement.revision + 1 })
      .first("snapshot");
    const frozen = snapshotFromStored(snapshot.snapshot, requirement.requirement_id);
    expect(frozen.contents).toEqual([{ atlassian_content_id: OTHER_ENG_PAGE }]);
    // An edit form opened before the link was made is stale now.
    const stale = await api()
      .put(`/api/requirement/${requirement.requirement_id}`)
      .set("Authorization", siteA.jira)
      .send({ name: "Dose limits v2", revision: requirement.revision });
    expect(stale.status).toBe(409);
  });

  it("refuses more than 20 requirements on a page, unknown requirements, and pages Confluence does not know", async () => {
    const requirement = await createRequirement(siteA, "Refund limit");
    const tooMany = await putContent(
      siteA,
      ENG_PAGE,
      Array.from({ length: 21 }, (_, i) => i + 1),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ requirements: [REQUIREMENTS_PER_CONTENT_MESSAGE] });
    const unknown = await putContent(siteA, ENG_PAGE, [requirement.requirement_id, 99999999]);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ requirements: ["Requirement 99999999 not found"] });
    expect((await putContent(siteA, "424242", [requirement.requirement_id])).status).toBe(404);
    expect((await putContent(siteA, "not-a-page", [requirement.requirement_id])).status).toBe(400);
    expect(await contentsOf(siteA, requirement.requirement_id)).toEqual([]);
  });

  it("saves on a new page that is still a draft, as the macro editor does while the page is first written", async () => {
    const requirement = await createRequirement(siteA, "Alarm escalation");
    const res = await putContent(siteA, draftPage.id, [requirement.requirement_id]);
    expect(res.status).toBe(200);
    expect(await linkedToContent(siteA, draftPage.id)).toEqual(["Alarm escalation"]);
  });

  it("answers 503 with the wiki message when Confluence fails or times out, and saves nothing", async () => {
    const requirement = await createRequirement(siteA, "Telemetry budget");
    for (const status of [500, 504]) {
      wikiFault = status;
      const res = await putContent(siteA, OPS_PAGE, [requirement.requirement_id]);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ Result: WIKI_DATA_PROBLEM });
    }
    wikiFault = undefined;
    expect(await linkedToContent(siteA, OPS_PAGE)).toEqual([]);
    expect(await contentsOf(siteA, requirement.requirement_id)).toEqual([]);
  });
});

describe("at most 20 linked contents per requirement, from every path", () => {
  it("the requirement form: create and edit refuse a 21st page with the spec's message", async () => {
    const created = await api()
      .post("/api/requirement")
      .set("Authorization", siteA.jira)
      .send({ project: PROJECT, requirement_type_id: typesOf.get(siteA.tenantId)?.SYS, name: "Too many pages", contents: manyPageIds(21) });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ contents: [CONTENT_LIMIT_MESSAGE] });

    const requirement = await createRequirement(siteA, "Twenty pages", { contents: manyPageIds(20) });
    expect(requirement.contents).toHaveLength(20);
    const edit = await api()
      .put(`/api/requirement/${requirement.requirement_id}`)
      .set("Authorization", siteA.jira)
      .send({ name: "Twenty pages", contents: manyPageIds(21) });
    expect(edit.status).toBe(400);
    expect(edit.body).toEqual({ contents: [CONTENT_LIMIT_MESSAGE] });
  });

  it("a caller that skips the request schema (an import, a seed) is held to 20 as well", async () => {
    const attempt = createRequirementService(
      ctx.deps,
      { tenantId: siteA.tenantId, accountId: "557058:importer" },
      {
        name: "Imported with many pages",
        requirement_type_id: typesOf.get(siteA.tenantId)?.SYS ?? 0,
        project: PROJECT,
        parent_folder_id: null,
        display_id: null,
        description: "",
        assigned_to: null,
        status: null,
        components: [],
        issues: [],
        contents: manyPageIds(21),
        requirements: [],
        attributes: {},
      },
    );
    await expect(attempt).rejects.toMatchObject({ status: 400, body: { contents: [CONTENT_LIMIT_MESSAGE] } });
  });

  it("the page macro editor: a requirement that already links 20 pages cannot get a 21st, and nothing is saved", async () => {
    const full = await createRequirement(siteA, "Full of pages", { display_id: "FULL-1", contents: manyPageIds(20) });
    const other = await createRequirement(siteA, "Has room");
    const res = await putContent(siteA, ENG_PAGE, [other.requirement_id, full.requirement_id]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirements: [`SYS-FULL-1: Full of pages: ${CONTENT_LIMIT_MESSAGE}`] });
    expect(await contentsOf(siteA, other.requirement_id)).toEqual([]);
    expect(await contentsOf(siteA, full.requirement_id)).toHaveLength(20);
  });
});

describe("GET /api/confluence/content", () => {
  it("lists the site's linked pages with their live requirements, paged", async () => {
    const site = await createSite();
    const first = await createRequirement(site, "First", { contents: [ENG_PAGE, OPS_PAGE] });
    const second = await createRequirement(site, "Second", { contents: [ENG_PAGE] });
    const res = await api().get("/api/confluence/content").set("Authorization", site.confluence);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { atlassian_content_id: ENG_PAGE, requirements: [first.requirement_id, second.requirement_id] },
      { atlassian_content_id: OPS_PAGE, requirements: [first.requirement_id] },
    ]);
    const paged = await api().get("/api/confluence/content").query({ start: 1, limit: 1 }).set("Authorization", site.jira);
    expect(paged.body).toMatchObject({ results: [{ atlassian_content_id: OPS_PAGE }], start: 1, limit: 1, size: 1 });
    expect((await api().get("/api/confluence/content").query({ limit: 0 }).set("Authorization", site.jira)).status).toBe(400);
  });
});

describe("POST /api/confluence/content/search", () => {
  it("answers title, space, last update and contributors read from Confluence, in the order asked", async () => {
    const res = await api()
      .post("/api/confluence/content/search")
      .set("Authorization", siteA.jira)
      .send({ contents: [OPS_PAGE, ENG_PAGE, "424242"] });
    expect(res.status).toBe(200);
    const eng = seeded.pages[2];
    expect(res.body.results.map((r: { title: string }) => r.title)).toEqual(["Runbook: pump alarms", eng?.title]);
    expect(res.body.results[1]).toMatchObject({
      atlassian_content_id: ENG_PAGE,
      space: { key: "ENG", name: "Engineering" },
      last_updated: eng?.versions.at(-1)?.when,
      url: `${wiki.baseUrl}/wiki/spaces/ENG/pages/${ENG_PAGE}/${encodeURIComponent(eng?.title.replace(/\s+/g, "+") ?? "")}`,
    });
    expect(res.body.results[1].contributors.map((c: { account_id: string }) => c.account_id)).toEqual([
      ...new Set(eng?.versions.map((v) => v.byAccountId)),
    ]);
    expect(res.body.results[1].contributors[0].display_name).toEqual(expect.any(String));
  });

  it("leaves out pages outside the stored space filter; an empty filter means every space", async () => {
    const site = await createSite();
    const search = async () =>
      (
        await api()
          .post("/api/confluence/content/search")
          .set("Authorization", site.jira)
          .send({ contents: [ENG_PAGE, OPS_PAGE] })
      ).body.results.map((r: { atlassian_content_id: string }) => r.atlassian_content_id);
    expect(await search()).toEqual([ENG_PAGE, OPS_PAGE]);
    await api().patch("/api/customer/settings").set("Authorization", site.jira).send({ confluence_spaces_to_filter: "OPS" });
    expect(await search()).toEqual([OPS_PAGE]);
    await api().patch("/api/customer/settings").set("Authorization", site.jira).send({ confluence_spaces_to_filter: "" });
    expect(await search()).toEqual([ENG_PAGE, OPS_PAGE]);
  });

  it("answers 503 with the wiki message when Confluence fails; bad input is a 400", async () => {
    wikiFault = 502;
    const failed = await api()
      .post("/api/confluence/content/search")
      .set("Authorization", siteA.jira)
      .send({ contents: [ENG_PAGE] });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ Result: WIKI_DATA_PROBLEM });
    wikiFault = undefined;
    expect((await api().post("/api/confluence/content/search").set("Authorization", siteA.jira).send({ contents: "x" })).status).toBe(400);
    expect(
      (
        await api()
          .post("/api/confluence/content/search")
          .set("Authorization", siteA.jira)
          .send({ contents: ["1 or 1=1"] })
      ).status,
    ).toBe(400);
  });
});

describe("GET /api/confluence/page-search: the requirement form's content picker", () => {
  it("finds pages by title, within the space filter, at most 20 a page with the next start", async () => {
    const site = await createSite();
    const titles = async (query: Record<string, unknown>) => {
      const res = await api().get("/api/confluence/page-search").query(query).set("Authorization", site.jira);
      expect(res.status).toBe(200);
      return res.body;
    };
    const pump = await titles({ title: "pump" });
    expect(pump.results.map((r: { title: string }) => r.title)).toEqual(["Infusion pump system specification", "Runbook: pump alarms"]);
    expect(pump.next_start).toBeNull();
    const firstPage = await titles({ limit: 5 });
    expect(firstPage.results).toHaveLength(5);
    expect(firstPage.next_start).toBe(5);
    const lastSearch = wikiCalls.filter((path) => path.startsWith("/rest/api/content/search")).at(-1);
    expect(new URL(lastSearch ?? "", wiki.baseUrl).searchParams.get("cql")).toBe("type = page");

    await api().patch("/api/customer/settings").set("Authorization", site.jira).send({ confluence_spaces_to_filter: "OPS" });
    expect((await titles({ title: "pump" })).results.map((r: { space: { key: string } }) => r.space.key)).toEqual(["OPS"]);
    expect((await api().get("/api/confluence/page-search").query({ limit: 21 }).set("Authorization", site.jira)).status).toBe(400);
  });
});

describe("tenants", () => {
  it("site B's token can neither read nor write site A's content links", async () => {
    const requirement = await createRequirement(siteA, "Site A only", { contents: [OPS_PAGE] });
    const write = await putContent(siteB, OPS_PAGE, [requirement.requirement_id]);
    expect(write.status).toBe(400);
    expect(write.body).toEqual({ requirements: [`Requirement ${requirement.requirement_id} not found`] });
    expect(await linkedToContent(siteB, OPS_PAGE)).toEqual([]);
    expect((await api().get("/api/confluence/content").set("Authorization", siteB.confluence)).body.results).toEqual([]);
    // Site B saving its own (empty) list for the same page id leaves site A's link alone.
    expect((await putContent(siteB, OPS_PAGE, [])).status).toBe(200);
    expect(await contentsOf(siteA, requirement.requirement_id)).toEqual([OPS_PAGE]);
  });

  it("a Confluence-token caller reads the same site's requirements as the Jira token", async () => {
    const site = await createSite();
    const requirement = await createRequirement(site, "Shared by Jira and Confluence");
    for (const as of ["jira", "confluence"] as const) {
      const res = await api().get("/api/requirement/lite").query({ atlassian_project_id: PROJECT }).set("Authorization", site[as]);
      expect(res.body.requirements.map((r: { requirement_id: number }) => r.requirement_id)).toEqual([requirement.requirement_id]);
      const detail = await api().get(`/api/requirement/${requirement.requirement_id}`).set("Authorization", site[as]);
      expect(detail.body.name).toBe("Shared by Jira and Confluence");
    }
    expect((await putContent(site, ENG_PAGE, [requirement.requirement_id], "confluence")).status).toBe(200);
    expect(await linkedToContent(site, ENG_PAGE, "jira")).toEqual(["Shared by Jira and Confluence"]);
  });

  it("a site without rmCloud on Confluence is told so", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const res = await api()
      .post("/api/confluence/content/search")
      .set("Authorization", await bearer(ctx, tenant))
      .send({ contents: [ENG_PAGE] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Result: NOT_ON_CONFLUENCE });
  });
});
