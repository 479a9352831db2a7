import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_READS, levelWindowAddress, USER_ADDRESS } from "../../common/firstReads.js";
import { PANEL_LOCATION } from "../../common/spaRoutes.js";
import { loadIssueRequirements } from "../pages/IssuePanel/issueRequirements.js";
import { signIn } from "../pages/Authenticate/signIn.js";
import { api, EARLY_READ_FRESH_MS, onUnauthorized, tokenStore } from "./client.js";
import { topLevelItemsQuery } from "./items.js";
import { memoryStorage } from "./pageStorage.js";

type Call = { url: string; method: string; headers: Record<string, string> };
const calls: Call[] = [];
const TREE = { items: [{ folder_id: 1, name: "Safety" }], total_items: 1 };

/**
 * The add-on as the page sees it: each exchange answers the next token of `tokens`, the top level of
 * project 10000 answers `tree`, another project's answers an empty level.
 */
function serve({ tokens = ["app-token"], tree = { status: 200, body: TREE as unknown } } = {}) {
  const left = [...tokens];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    calls.push({ url, method: init.method ?? "GET", headers: { ...(init.headers as Record<string, string>) } });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/exchange-token") return json(200, { token: left.shift() ?? "late-token" });
    if (url === levelWindowAddress(10000, null, 0)) return json(tree.status, tree.body);
    if (url === USER_ADDRESS) return json(200, { atlassian_base_url: "https://acme.atlassian.net" });
    if (url.startsWith("/api/requirement?")) return json(200, { requirements: [{ requirement_id: 7, prefix: "REQ", name: "Pump" }] });
    return json(200, { items: [], total_items: 0 });
  });
}

const earlySignIn = readFileSync(new URL("../public/early-sign-in.js", import.meta.url), "utf8");

/** The meta tags the server writes into an entry's page (server/spa.ts, withFirstReads). */
const readsOf = (entry: keyof typeof FIRST_READS) =>
  FIRST_READS[entry].map(({ location, address }) => ({ "data-location": location, content: address }));
const mainPageReads = readsOf("index");

/**
 * Runs the page head's early-sign-in.js at `page` in a page carrying `metas` (and the token of a
 * sign-in the server made while serving it, `signedIn`), and leaves what it started where the app looks.
 */
function openPage(
  page: { pathname: string; search: string },
  metas: Array<Record<string, string>> = mainPageReads,
  signedIn?: string,
): void {
  const window: Record<string, unknown> = { location: page };
  const document = {
    querySelectorAll: (selector: string) =>
      selector === 'meta[name="rmcloud-first-read"]' ? metas.map((meta) => ({ getAttribute: (name: string) => meta[name] ?? null })) : [],
    querySelector: (selector: string) =>
      selector === 'meta[name="rmcloud-signed-in"]' && signedIn !== undefined ? { getAttribute: () => signedIn } : null,
  };
  runInNewContext(earlySignIn, { window, document, fetch, Response, URLSearchParams, JSON });
  for (const name of ["rmcloudEarlySignIn", "rmcloudFirstReads"]) if (window[name]) vi.stubGlobal(name, window[name]);
}

const host = { getContextToken: async () => "context-jwt" };
const requirementsPage = { pathname: "/authenticate/requirements", search: "?projectKey=PUMP&projectId=10000&jwt=url-jwt" };
const treeReads = () => calls.filter((call) => call.url.startsWith("/api/item/"));

/** The page as the app opens it: the sign-in, then the tree's first window of `projectId`. */
async function openTree(projectId = 10000) {
  await signIn("requirements", requirementsPage, host);
  return new QueryClient().fetchQuery(topLevelItemsQuery(projectId));
}

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal("sessionStorage", memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
  onUnauthorized(async () => false);
});

describe("the page's first read, started by its head", () => {
  it("reads the tree's top level as soon as the sign-in answers, as the app would, and the app takes that answer", async () => {
    serve();
    openPage(requirementsPage);
    await expect(openTree()).resolves.toEqual(TREE);
    expect(treeReads()).toEqual([
      {
        url: "/api/item/primary?atlassian_project_id=10000&offset=0&limit=500",
        method: "GET",
        headers: { Accept: "application/json", Authorization: "Bearer app-token" },
      },
    ]);
    expect(calls.map((call) => call.url)).toEqual([
      "/api/exchange-token",
      "/api/item/primary?atlassian_project_id=10000&offset=0&limit=500",
    ]);
  });

  it("reads the tree's top level at once, asking for no exchange, when the server signed the page's user in while serving it", async () => {
    serve();
    openPage(requirementsPage, mainPageReads, "page-token");
    // Sent by the head's script itself: the page's scripts, which may hold the thread next, come after.
    expect(treeReads()).toHaveLength(1);
    await expect(openTree()).resolves.toEqual(TREE);
    expect(calls.map((call) => `${call.url} ${call.headers.Authorization}`)).toEqual([
      "/api/item/primary?atlassian_project_id=10000&offset=0&limit=500 Bearer page-token",
    ]);
    expect(tokenStore.get()).toBe("page-token");
  });

  it("sends what the app itself sends for that read", async () => {
    serve();
    openPage(requirementsPage);
    await signIn("requirements", requirementsPage, host);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const early = treeReads();
    vi.stubGlobal("rmcloudFirstReads", []);
    await new QueryClient().fetchQuery(topLevelItemsQuery(10000));
    const asked = treeReads().slice(early.length);
    expect(asked).toEqual(early);
  });

  it("gives its answer once: the app's next read of the same window asks the server", async () => {
    serve();
    openPage(requirementsPage);
    await openTree();
    await api.get(levelWindowAddress(10000, null, 0));
    expect(treeReads()).toHaveLength(2);
  });

  it("is left unused when the app opens another project (the host's history, a deep link)", async () => {
    serve();
    openPage(requirementsPage);
    await expect(openTree(10001)).resolves.toEqual({ items: [], total_items: 0 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(
      treeReads()
        .map((call) => call.url)
        .sort(),
    ).toEqual([
      "/api/item/primary?atlassian_project_id=10000&offset=0&limit=500",
      "/api/item/primary?atlassian_project_id=10001&offset=0&limit=500",
    ]);
  });

  it("is left unused when the app signed in with another token than the head's", async () => {
    // As when the head guessed the product wrong and the app exchanged again, for a token of its own.
    serve({ tokens: ["head-token"] });
    const page = { pathname: "/authenticate/requirements", search: "?projectId=10000&jwt=url-jwt" };
    openPage(page);
    tokenStore.set("app-token");
    await new QueryClient().fetchQuery(topLevelItemsQuery(10000));
    expect(treeReads().map((call) => call.headers.Authorization)).toEqual(["Bearer head-token", "Bearer app-token"]);
  });

  it("is not taken once older than the tree trusts a first answer: the project opened only later, the host's history having chosen another", async () => {
    serve();
    openPage(requirementsPage);
    await signIn("requirements", requirementsPage, host);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + EARLY_READ_FRESH_MS);
    try {
      await new QueryClient().fetchQuery(topLevelItemsQuery(10000));
    } finally {
      vi.restoreAllMocks();
    }
    expect(treeReads()).toHaveLength(2);
  });

  it("reports the server's refusal of it as the app's own read would: a hidden project is not found", async () => {
    serve({ tree: { status: 404, body: { Result: "Project not found" } } });
    openPage(requirementsPage);
    await expect(openTree()).rejects.toMatchObject({ name: "ApiError", status: 404, message: "Project not found" });
    expect(treeReads()).toHaveLength(1);
  });

  it("starts nothing for another page, a project id that is no number, or a page without the template", async () => {
    serve();
    openPage({ pathname: "/authenticate/link-requirements-dialog", search: "?issueId=10100&projectId=10000&jwt=j" });
    openPage({ pathname: "/authenticate/requirements", search: "?projectId=10000%26limit%3D1&jwt=j" });
    openPage({ pathname: "/authenticate/requirements", search: "?jwt=j" });
    openPage(requirementsPage, []);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.map((call) => call.url)).toEqual(Array(4).fill("/api/exchange-token"));
  });

  it("reads the user and the issue's linked requirements for the issue panel, which takes all three", async () => {
    serve();
    const page = { pathname: `/authenticate/${PANEL_LOCATION}`, search: "?issueId=10100&projectId=10000&jwt=url-jwt" };
    openPage(page, readsOf("panel"));
    await signIn(PANEL_LOCATION, page, host);
    const [requirements, user] = await Promise.all([loadIssueRequirements({ issueId: "10100", projectId: 10000 }), api.get(USER_ADDRESS)]);
    expect(requirements.map((requirement) => requirement.projectId)).toEqual([10000, 0]);
    expect(user).toEqual({ atlassian_base_url: "https://acme.atlassian.net" });
    expect(calls.map((call) => call.url).sort()).toEqual([
      "/api/exchange-token",
      "/api/requirement?atlassian_project_id=0&atlassian_issue_id=10100",
      "/api/requirement?atlassian_project_id=10000&atlassian_issue_id=10100",
      "/api/user",
    ]);
  });

  it("reads the global project's links once when the issue's project is the global one", async () => {
    serve();
    const page = { pathname: `/authenticate/${PANEL_LOCATION}`, search: "?issueId=10100&projectId=0&jwt=url-jwt" };
    openPage(page, readsOf("panel"));
    await signIn(PANEL_LOCATION, page, host);
    await loadIssueRequirements({ issueId: "10100", projectId: 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.filter((call) => call.url.startsWith("/api/requirement")).map((call) => call.url)).toEqual([
      "/api/requirement?atlassian_project_id=0&atlassian_issue_id=10100",
    ]);
  });
});
