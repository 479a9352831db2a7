import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createQueryStringHash, encodeSymmetric, fromMethodAndUrl, SymmetricAlgorithm } from "atlassian-jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESTRICTED_PAGE_ID } from "./seed/confluence.js";
import { browseOnlyUser, restrictedUser, seedContentUsers } from "./seed/users.js";
import { type Emulator, startEmulator } from "./server.js";
import { DEFAULT_SITE } from "./sites.js";
import { type StubAddon, startStubAddon } from "./testing/stubAddon.js";

type SiteRecord = {
  name: string;
  baseUrl: string;
  jira: { clientKey: string; sharedSecret: string };
  confluence: { clientKey: string; sharedSecret: string };
  license: string;
};

const appJwt = (install: { sharedSecret: string }, iss: string, method: string, pathAndQuery: string, secret = install.sharedSecret) => {
  const iat = Math.floor(Date.now() / 1000);
  return `JWT ${encodeSymmetric({ iss, iat, exp: iat + 60, qsh: createQueryStringHash(fromMethodAndUrl(method, pathAndQuery)) }, secret, SymmetricAlgorithm.HS256)}`;
};

describe("the emulated Jira and Confluence", () => {
  let dataDir: string;
  let stub: StubAddon;
  let emulator: Emulator;
  let site: SiteRecord;

  /** `as: "user"` calls as Mia Krystof (an administrator), or as the account in `user`. */
  const call = (pathAndQuery: string, init: RequestInit & { as?: "app" | "user"; user?: string; base?: string } = {}) => {
    const headers: Record<string, string> = { "Content-Type": "application/json", ...(init.headers as Record<string, string> | undefined) };
    const method = init.method ?? "GET";
    if (init.as === "app") headers.Authorization = appJwt(site.jira, "rmcloud-stub", method, pathAndQuery);
    if (init.as === "user") headers.Cookie = `emulator_user=${encodeURIComponent(init.user ?? "5b10ac8d82e05b22cc7d4ef5")}`;
    return fetch(`${init.base ?? emulator.url}${pathAndQuery}`, { ...init, headers });
  };

  /** The signed iframe URL of the stub's project page in ROVER, as the emulated Jira renders it. */
  const projectPageUrl = async () => {
    const html = await (
      await call("/plugins/servlet/ac/rmcloud-stub/requirements?project.key=ROVER&project.id=10001", { as: "user" })
    ).text();
    const slot = /data-slot="([^"]+)"/.exec(html)?.[1] ?? "";
    return new URL((JSON.parse(slot.replace(/&quot;/g, '"').replace(/&amp;/g, "&")) as { url: string }).url);
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-test-"));
    let emulatorUrl = "";
    stub = await startStubAddon(() => `${emulatorUrl}/_emulator/connect-keys`);
    emulator = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    emulatorUrl = emulator.url;
    await emulator.installAll();
    const sites = (await (await call("/_emulator/sites")).json()) as SiteRecord[];
    site = sites[0] as SiteRecord;
  });

  afterAll(async () => {
    await emulator?.stop();
    await stub?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("installs the add-on into Jira and Confluence with RS256-signed lifecycle callbacks the add-on can verify", () => {
    expect(stub.rejected).toEqual([]);
    expect(stub.installs.map((i) => [i.productType, i.baseUrl, i.eventType])).toEqual([
      ["jira", emulator.url, "installed"],
      ["confluence", `${emulator.url}/wiki`, "installed"],
    ]);
    expect(stub.installs[0]?.clientKey).toBe(site.jira.clientKey);
    expect(stub.installs[0]?.sharedSecret).toBe(site.jira.sharedSecret);
  });

  it("serves the bridge script as Atlassian's CDN does, and the page's own scripts as Jira does: minified, compressed and cached; all-debug.js as written", async () => {
    const script = await fetch(`${emulator.url}/atlassian-connect/all.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(script.headers.get("content-encoding")).toBe("gzip");
    expect(script.headers.get("cache-control")).toBe("public, max-age=3600");
    const minified = await script.text();
    const debug = await (await fetch(`${emulator.url}/atlassian-connect/all-debug.js`)).text();
    expect(minified.length).toBeLessThan(debug.length * 0.6);
    // Both still define the bridge the pages look for.
    for (const source of [minified, debug]) expect(source).toContain("AP");
    const pageScript = await fetch(`${emulator.url}/_emulator/static/connect-host.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(pageScript.headers.get("content-encoding")).toBe("gzip");
    expect((await pageScript.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${emulator.url}/_emulator/static/unknown.js`)).status).toBe(404);
  });

  it("keeps site secrets across restarts", async () => {
    const again = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    const [record] = (await (await fetch(`${again.url}/_emulator/sites`)).json()) as SiteRecord[];
    await again.stop();
    expect(record?.jira).toEqual(site.jira);
    expect(record?.confluence).toEqual(site.confluence);
  });

  it("creates a separate site with its own secrets and installs it", async () => {
    const response = await call("/_emulator/sites", { method: "POST", body: JSON.stringify({ name: "tenant-b" }) });
    expect(response.status).toBe(201);
    const created = (await response.json()) as SiteRecord;
    expect(created.baseUrl).toBe(`${emulator.url}/sites/tenant-b`);
    expect(created.jira.sharedSecret).not.toBe(site.jira.sharedSecret);
    expect(stub.installs.some((i) => i.clientKey === created.jira.clientKey && i.baseUrl === created.baseUrl)).toBe(true);
    const projects = await call("/sites/tenant-b/rest/api/3/project/search", { as: "user" });
    expect(((await projects.json()) as { values: unknown[] }).values).toHaveLength(3);
  });

  it("answers app calls signed with the site's shared secret and refuses others", async () => {
    const ok = await call("/rest/api/3/project/search?startAt=0&maxResults=50", { as: "app" });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { isLast: boolean; values: { id: string; key: string }[] };
    expect(body.isLast).toBe(true);
    expect(body.values.map((p) => p.key)).toEqual(["PUMP", "ROVER", "PAY"]);

    const wrong = await fetch(`${emulator.url}/rest/api/3/project/search`, {
      headers: { Authorization: appJwt(site.jira, "rmcloud-stub", "GET", "/rest/api/3/project/search", "wrong-secret") },
    });
    expect(wrong.status).toBe(401);
    const wrongQsh = await fetch(`${emulator.url}/rest/api/3/project/10001`, {
      headers: { Authorization: appJwt(site.jira, "rmcloud-stub", "GET", "/rest/api/3/project/10000") },
    });
    expect(wrongQsh.status).toBe(401);
    expect((await fetch(`${emulator.url}/rest/api/3/myself`)).status).toBe(401);
  });

  it("pages JQL search with nextPageToken until isLast, and answers 410 on the removed search API", async () => {
    const keys: string[] = [];
    let token: string | undefined;
    let requests = 0;
    do {
      const response = await call("/rest/api/3/search/jql", {
        method: "POST",
        as: "user",
        body: JSON.stringify({
          jql: "project = ROVER ORDER BY key ASC",
          fields: ["summary", "status"],
          maxResults: 25,
          nextPageToken: token,
        }),
      });
      const page = (await response.json()) as {
        issues: { key: string; fields: { summary: string; status: { statusCategory: { key: string } } } }[];
        nextPageToken?: string;
        isLast: boolean;
      };
      keys.push(...page.issues.map((i) => i.key));
      expect(page.issues.every((i) => i.fields.summary && i.fields.status.statusCategory.key)).toBe(true);
      token = page.isLast ? undefined : page.nextPageToken;
      requests++;
    } while (token);
    expect(requests).toBe(3);
    expect(keys).toHaveLength(66);
    expect(new Set(keys).size).toBe(66);
    expect(keys[0]).toBe("ROVER-1");

    expect((await call("/rest/api/3/search?jql=project=ROVER", { as: "user" })).status).toBe(410);
    expect((await call("/rest/api/3/search/jql?jql=sprint%20%3D%201", { as: "user" })).status).toBe(400);
  });

  it("pages as Jira does at scale: 5000 a search page for ids only, 100 with fields; 1000 a bulk fetch when the fields are named", async () => {
    const scaleDir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-scale-"));
    const scale = await startEmulator({
      port: 0,
      addonUrl: stub.url,
      dataDir: scaleDir,
      seed: { extraIssues: { PUMP: 6000 } },
      installOnStart: false,
      log: () => {},
    });
    const post = async (pathname: string, body: object) => {
      const response = await call(pathname, { method: "POST", as: "user", base: scale.url, body: JSON.stringify(body) });
      return {
        status: response.status,
        body: (await response.json()) as {
          issues: { id: string; key: string; fields: Record<string, unknown> }[];
          nextPageToken?: string;
          isLast?: boolean;
          issueErrors?: { id: string }[];
        },
      };
    };
    try {
      const ids = await post("/rest/api/3/search/jql", { jql: "project = PUMP ORDER BY id ASC", fields: ["id"], maxResults: 10000 });
      expect(ids.body.issues).toHaveLength(5000);
      expect(ids.body.isLast).toBe(false);
      const withFields = await post("/rest/api/3/search/jql", {
        jql: "project = PUMP ORDER BY id ASC",
        fields: ["summary", "status", "issuetype"],
        maxResults: 5000,
      });
      expect(withFields.body.issues).toHaveLength(100);
      expect(withFields.body.nextPageToken).toBeTruthy();

      // An `id in` search walks its ids page by page with nextPageToken, every one found once.
      const wanted = ids.body.issues.slice(0, 250).map((issue) => issue.id);
      const found: string[] = [];
      let token: string | undefined;
      do {
        const page = await post("/rest/api/3/search/jql", {
          jql: `id in (${wanted.join(",")}) ORDER BY id ASC`,
          fields: ["summary"],
          maxResults: 5000,
          nextPageToken: token,
        });
        found.push(...page.body.issues.map((issue) => issue.id));
        token = page.body.isLast ? undefined : page.body.nextPageToken;
      } while (token);
      expect(found).toEqual(wanted);

      // Bulk fetch: 1000 with named single-valued fields, in ascending id order, unknown ids as issueErrors.
      const thousand = ids.body.issues
        .slice(0, 999)
        .map((issue) => issue.id)
        .reverse();
      const bulk = await post("/rest/api/3/issue/bulkfetch", {
        issueIdsOrKeys: [...thousand, "99999999"],
        fields: ["summary", "status", "issuetype"],
      });
      expect(bulk.status).toBe(200);
      expect(bulk.body.issues.map((issue) => issue.id)).toEqual([...thousand].reverse());
      expect(Object.keys(bulk.body.issues[0]?.fields ?? {}).sort()).toEqual(["issuetype", "status", "summary"]);
      expect(bulk.body.issueErrors?.map((error) => error.id)).toEqual(["99999999"]);
      expect(
        (
          await post("/rest/api/3/issue/bulkfetch", {
            issueIdsOrKeys: ids.body.issues.slice(0, 1001).map((i) => i.id),
            fields: ["summary"],
          })
        ).status,
      ).toBe(400);
      // Wildcards, multi-valued fields or no fields at all: 100 at most.
      const hundredAndOne = ids.body.issues.slice(0, 101).map((issue) => issue.id);
      expect((await post("/rest/api/3/issue/bulkfetch", { issueIdsOrKeys: hundredAndOne, fields: ["*navigable"] })).status).toBe(400);
      expect((await post("/rest/api/3/issue/bulkfetch", { issueIdsOrKeys: hundredAndOne, fields: ["summary", "comment"] })).status).toBe(
        400,
      );
      expect((await post("/rest/api/3/issue/bulkfetch", { issueIdsOrKeys: hundredAndOne })).status).toBe(400);
      expect((await post("/rest/api/3/issue/bulkfetch", { issueIdsOrKeys: hundredAndOne.slice(1) })).status).toBe(200);
    } finally {
      await scale.stop();
      fs.rmSync(scaleDir, { recursive: true, force: true });
    }
  });

  it("serves statuses in all three categories, components, issue types and up to 1000 assignable users", async () => {
    const statuses = (await (await call("/rest/api/3/project/10000/statuses", { as: "user" })).json()) as {
      statuses: { statusCategory: { key: string } }[];
    }[];
    expect(new Set(statuses.flatMap((t) => t.statuses.map((s) => s.statusCategory.key)))).toEqual(
      new Set(["new", "indeterminate", "done"]),
    );
    const components = (await (await call("/rest/api/3/project/10000/components", { as: "user" })).json()) as { name: string }[];
    expect(components.length).toBeGreaterThanOrEqual(4);
    const types = (await (await call("/rest/api/3/issuetype/project?projectId=10000", { as: "user" })).json()) as { name: string }[];
    expect(types.map((t) => t.name)).toEqual(["Epic", "Story", "Task", "Bug"]);
    const users = (await (await call("/rest/api/3/user/assignable/search?project=PUMP&maxResults=1000", { as: "user" })).json()) as {
      accountId: string;
      avatarUrls: Record<string, string>;
    }[];
    expect(users.length).toBeGreaterThanOrEqual(6);
    const avatar = await fetch(users[0]?.avatarUrls["48x48"] ?? "");
    expect(avatar.headers.get("content-type")).toContain("image/svg+xml");
  });

  describe("the site's permissions", () => {
    type Grants = { globalPermissions: string[]; projectPermissions: { permission: string; issues: number[]; projects: number[] }[] };
    const check = async (body: object, init: { as?: "app" | "user"; user?: string } = { as: "app" }) => {
      const response = await call("/rest/api/3/permissions/check", { method: "POST", body: JSON.stringify(body), ...init });
      return { status: response.status, body: (await response.json()) as Grants };
    };
    const issueIdOf = async (key: string) =>
      Number(((await (await call(`/rest/api/3/issue/${key}?fields=summary`, { as: "app" })).json()) as { id: string }).id);
    const alana = seedContentUsers[0]?.accountId ?? "";

    it("answers Jira's bulk permission check: every seeded content user administers and browses everything, Noor Haddad neither", async () => {
      const [pump, rover, pay] = [await issueIdOf("PUMP-1"), await issueIdOf("ROVER-1"), await issueIdOf("PAY-1")];
      const asked = {
        globalPermissions: ["ADMINISTER"],
        projectPermissions: [{ permissions: ["BROWSE_PROJECTS"], issues: [pump, rover, pay, 99999999], projects: [10000, 10001, 10002] }],
      };

      for (const user of seedContentUsers) {
        const granted = await check({ accountId: user.accountId, ...asked });
        expect(granted.status).toBe(200);
        expect(granted.body).toEqual({
          globalPermissions: ["ADMINISTER"],
          // Unknown ids are left out, as Jira ignores invalid ids.
          projectPermissions: [{ permission: "BROWSE_PROJECTS", issues: [pump, rover, pay], projects: [10000, 10001, 10002] }],
        });
      }
      const restricted = await check({ accountId: restrictedUser.accountId, ...asked });
      expect(restricted.body).toEqual({
        globalPermissions: [],
        projectPermissions: [{ permission: "BROWSE_PROJECTS", issues: [pump, pay], projects: [10000, 10002] }],
      });
    });

    it("refuses more than 1000 issues, an unknown account, and a user who is no administrator asking about someone else", async () => {
      const thousandAndOne = Array.from({ length: 1001 }, (_, n) => 10000 + n);
      expect(
        (await check({ accountId: alana, projectPermissions: [{ permissions: ["BROWSE_PROJECTS"], issues: thousandAndOne }] })).status,
      ).toBe(400);
      expect((await check({ accountId: "5b10a2844c20165700ede99z", globalPermissions: ["ADMINISTER"] })).status).toBe(404);
      expect(
        (await check({ accountId: alana, globalPermissions: ["ADMINISTER"] }, { as: "user", user: restrictedUser.accountId })).status,
      ).toBe(403);
      // Without an account it answers for the caller: herself as a user, the app (no global permission) as the app.
      expect(
        (await check({ globalPermissions: ["ADMINISTER"] }, { as: "user", user: restrictedUser.accountId })).body.globalPermissions,
      ).toEqual([]);
      expect((await check({ globalPermissions: ["ADMINISTER"] }, { as: "user" })).body.globalPermissions).toEqual(["ADMINISTER"]);
      expect((await check({ globalPermissions: ["ADMINISTER"] })).body.globalPermissions).toEqual([]);
    });

    it("shows a signed-in user only the projects and issues she may browse, and assigns a project's issues only to those who may browse it", async () => {
      const asNoor = (pathAndQuery: string, init: RequestInit = {}) =>
        call(pathAndQuery, { ...init, as: "user", user: restrictedUser.accountId });
      const projects = (await (await asNoor("/rest/api/3/project/search")).json()) as { values: { key: string }[] };
      expect(projects.values.map((p) => p.key)).toEqual(["PUMP", "PAY"]);
      expect((await asNoor("/rest/api/3/project/ROVER")).status).toBe(404);
      expect((await asNoor("/rest/api/3/project/10001/components")).status).toBe(404);
      expect((await asNoor("/rest/api/3/issue/ROVER-1")).status).toBe(404);
      expect((await asNoor("/rest/api/3/issue/PUMP-1")).status).toBe(200);
      const search = (await (
        await asNoor("/rest/api/3/search/jql", {
          method: "POST",
          body: JSON.stringify({ jql: "project in (ROVER, PUMP)", fields: ["key"], maxResults: 5000 }),
        })
      ).json()) as { issues: { key: string }[] };
      expect(search.issues).toHaveLength(66);
      expect(search.issues.every((issue) => issue.key.startsWith("PUMP-"))).toBe(true);
      const bulk = (await (
        await asNoor("/rest/api/3/issue/bulkfetch", {
          method: "POST",
          body: JSON.stringify({ issueIdsOrKeys: ["ROVER-1", "PUMP-1"], fields: ["summary"] }),
        })
      ).json()) as { issues: { key: string }[]; issueErrors: { id: string }[] };
      expect(bulk.issues.map((issue) => issue.key)).toEqual(["PUMP-1"]);
      expect(bulk.issueErrors.map((error) => error.id)).toEqual(["ROVER-1"]);
      expect((await asNoor("/browse/ROVER-1")).status).toBe(404);
      expect(await (await asNoor("/")).text()).not.toContain(">ROVER<");

      // Mia, an administrator, still sees everything, and the app too.
      expect((await call("/rest/api/3/issue/ROVER-1", { as: "user" })).status).toBe(200);
      expect(await (await call("/", { as: "user" })).text()).toContain(">ROVER<");
      const assignable = async (project: string) =>
        (
          (await (await call(`/rest/api/3/user/assignable/search?project=${project}&maxResults=1000`, { as: "user" })).json()) as {
            accountId: string;
          }[]
        ).map((u) => u.accountId);
      expect(await assignable("ROVER")).toEqual([...seedContentUsers.map((u) => u.accountId), browseOnlyUser.accountId]);
      expect(await assignable("PUMP")).toEqual([
        ...seedContentUsers.map((u) => u.accountId),
        restrictedUser.accountId,
        browseOnlyUser.accountId,
      ]);
    });

    it("tells browsing from editing: Sami Okafor browses PUMP but edits only ROVER and PAY, and an app's own permission only once a scheme grants it", async () => {
      const appPermission = "rmcloud__edit-requirements";
      const asked = {
        projectPermissions: [{ permissions: ["BROWSE_PROJECTS", "EDIT_ISSUES", appPermission], projects: [10000, 10001, 10002] }],
      };
      const schemeGrants = async () =>
        (
          (await (await call("/rest/api/3/permissionscheme?expand=permissions", { as: "app" })).json()) as {
            permissionSchemes: { permissions: { permission: string }[] }[];
          }
        ).permissionSchemes.flatMap((scheme) => scheme.permissions.map((grant) => grant.permission));

      expect((await check({ accountId: browseOnlyUser.accountId, ...asked })).body.projectPermissions).toEqual([
        { permission: "BROWSE_PROJECTS", issues: [], projects: [10000, 10001, 10002] },
        { permission: "EDIT_ISSUES", issues: [], projects: [10001, 10002] },
        { permission: appPermission, issues: [], projects: [] },
      ]);
      expect(await schemeGrants()).not.toContain(appPermission);

      const emulated = emulator.sites.get(DEFAULT_SITE);
      emulated?.content.grants.appPermissions.push(appPermission);
      try {
        expect(await schemeGrants()).toContain(appPermission);
        expect((await check({ accountId: browseOnlyUser.accountId, ...asked })).body.projectPermissions?.[2]).toEqual({
          permission: appPermission,
          issues: [],
          projects: [10001, 10002],
        });
      } finally {
        emulated?.content.grants.appPermissions.splice(0);
      }
    });

    it("keeps a restricted page from those its restriction leaves out, asked by the app or read as the user", async () => {
      const permission = async (accountId: string) =>
        (await (
          await call(`/wiki/rest/api/content/${RESTRICTED_PAGE_ID}/permission/check`, {
            method: "POST",
            as: "user",
            body: JSON.stringify({ subject: { type: "user", identifier: accountId }, operation: "read" }),
          })
        ).json()) as { hasPermission: boolean };
      expect((await permission(alana)).hasPermission).toBe(true);
      expect((await permission(restrictedUser.accountId)).hasPermission).toBe(false);
      expect((await call(`/wiki/rest/api/content/${RESTRICTED_PAGE_ID}`, { as: "user", user: restrictedUser.accountId })).status).toBe(404);
      expect((await call(`/wiki/rest/api/content/${RESTRICTED_PAGE_ID}`, { as: "user" })).status).toBe(200);
    });
  });

  it("stores a comment posted by the app and shows it on the issue page", async () => {
    const posted = await call("/rest/api/3/issue/PUMP-3/comment", {
      method: "POST",
      as: "app",
      body: JSON.stringify({
        body: {
          type: "doc",
          version: 1,
          content: [{ type: "paragraph", content: [{ type: "text", text: "Requirement REQ-7 was linked." }] }],
        },
      }),
    });
    expect(posted.status).toBe(201);
    const page = await (await call("/browse/PUMP-3", { as: "user" })).text();
    expect(page).toContain("Requirement REQ-7 was linked.");
    expect(page).toContain("APP");
  });

  it("keeps a comment's properties and shows them with expand=properties, newest first with orderBy=-created", async () => {
    const text = (words: string) => ({
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: words }] }],
    });
    const post = (body: unknown) => call("/rest/api/3/issue/PAY-5/comment", { method: "POST", as: "app", body: JSON.stringify(body) });
    const first = await post({ body: text("First"), properties: [{ key: "rmcloud-delivery", value: { deliveryKey: "1:1:comment:x" } }] });
    const second = await post({ body: text("Second") });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(((await first.json()) as { properties?: unknown }).properties).toBeUndefined();
    expect((await post({ body: text("Bad"), properties: [{ key: "", value: 1 }] })).status).toBe(400);

    type Page = { total: number; comments: { id: string; body: unknown; properties?: { key: string; value: unknown }[] }[] };
    const read = async (query: string) => (await (await call(`/rest/api/3/issue/PAY-5/comment?${query}`, { as: "app" })).json()) as Page;
    const newest = await read("orderBy=-created&expand=properties&maxResults=2");
    expect(newest.comments.map((c) => JSON.stringify(c.body).includes("Second"))).toEqual([true, false]);
    expect(newest.comments.map((c) => c.properties)).toEqual([[], [{ key: "rmcloud-delivery", value: { deliveryKey: "1:1:comment:x" } }]]);
    const oldest = await read("orderBy=created");
    expect(oldest.comments.at(-1)?.id).toBe(newest.comments[0]?.id);
    expect(oldest.comments.every((c) => c.properties === undefined)).toBe(true);
    expect((await call("/rest/api/3/issue/PAY-5/comment?orderBy=author", { as: "app" })).status).toBe(400);
  });

  it("can fail a call after serving it: the comment is stored though the caller hears 500", async () => {
    const before = (await (await call("/rest/api/3/issue/PAY-6/comment", { as: "app" })).json()) as { total: number };
    await call("/_emulator/faults", {
      method: "POST",
      body: JSON.stringify({ pathPattern: "/rest/api/3/issue/PAY-6/comment$", status: 500, times: 1, served: true }),
    });
    const posted = await call("/rest/api/3/issue/PAY-6/comment", {
      method: "POST",
      as: "app",
      body: JSON.stringify({
        body: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: "Kept" }] }] },
      }),
    });
    expect(posted.status).toBe(500);
    const after = (await (await call("/rest/api/3/issue/PAY-6/comment", { as: "app" })).json()) as { total: number };
    expect(after.total).toBe(before.total + 1);
  });

  it("deletes an issue and sends the signed jira:issue_deleted webhook", async () => {
    expect((await call("/rest/api/3/issue/PAY-5", { method: "DELETE", as: "app" })).status).toBe(204);
    expect((await call("/rest/api/3/issue/PAY-5", { as: "app" })).status).toBe(404);
    await expect.poll(() => stub.webhooks.length).toBe(1);
    expect(stub.webhooks[0]).toMatchObject({
      path: "/webhook/issue-deleted",
      verified: true,
      body: { webhookEvent: "jira:issue_deleted", issue: { key: "PAY-5" } },
    });
  });

  it("signs iframe URLs with the page's context and carries lic=none when the licence is off", async () => {
    const url = await projectPageUrl();
    expect(url.searchParams.get("projectId")).toBe("10001");
    expect(url.searchParams.get("projectKey")).toBe("ROVER");
    expect(url.searchParams.get("lic")).toBe("active");
    expect(url.searchParams.get("jwt")).toBeTruthy();

    await call("/_emulator/sites/default/license", { method: "POST", body: JSON.stringify({ active: false }) });
    expect((await projectPageUrl()).searchParams.get("lic")).toBe("none");
    await call("/_emulator/sites/default/license", { method: "POST", body: JSON.stringify({ active: true }) });
  });

  it("serves Confluence pages, spaces, history and CQL search", async () => {
    const spaces = (await (await call("/wiki/rest/api/space", { as: "user" })).json()) as { results: { key: string }[] };
    expect(spaces.results.map((s) => s.key)).toEqual(["ENG"]);
    const pages = (await (await call("/wiki/rest/api/content?spaceKey=ENG&limit=50", { as: "user" })).json()) as { results: unknown[] };
    expect(pages.results.length).toBeGreaterThanOrEqual(12);
    const found = (await (
      await call(`/wiki/rest/api/content/search?cql=${encodeURIComponent('space = ENG AND title ~ "checklist"')}`, { as: "user" })
    ).json()) as { results: { id: string; title: string }[] };
    expect(found.results.map((r) => r.title)).toEqual(["Release 2025.1 checklist"]);
    const content = (await (
      await call(`/wiki/rest/api/content/${found.results[0]?.id}?expand=history.lastUpdated,version,space`, { as: "user" })
    ).json()) as {
      history: { lastUpdated: { by: { displayName: string } } };
      version: { number: number };
      space: { key: string };
    };
    expect(content.space.key).toBe("ENG");
    expect(content.version.number).toBeGreaterThanOrEqual(1);
    expect(content.history.lastUpdated.by.displayName).toBeTruthy();
  });

  it("fails or delays a matching call as often as told, for error-path tests", async () => {
    await call("/_emulator/faults", {
      method: "POST",
      body: JSON.stringify({ pathPattern: "/rest/api/3/project/search", status: 503, times: 1 }),
    });
    expect((await call("/rest/api/3/project/search", { as: "user" })).status).toBe(503);
    expect((await call("/rest/api/3/project/search", { as: "user" })).status).toBe(200);
    await call("/_emulator/faults", { method: "POST", body: JSON.stringify({ pathPattern: "/rest/api/3/issuetype", status: 500 }) });
    expect((await call("/rest/api/3/issuetype", { as: "user" })).status).toBe(500);
    await call("/_emulator/faults", { method: "DELETE" });
    expect((await call("/rest/api/3/issuetype", { as: "user" })).status).toBe(200);
  });

  it("reads the add-on's descriptors once for its calls and pages, and again when the add-on is installed again", async () => {
    const reads = { ...stub.descriptorReads };
    for (let n = 0; n < 3; n++) expect((await call("/rest/api/3/project/search", { as: "app" })).status).toBe(200);
    expect((await projectPageUrl()).searchParams.get("version")).toBe("1");
    expect(stub.descriptorReads).toEqual(reads);

    // A new version of the add-on counts from its next install, as in Jira.
    stub.release(2);
    expect((await projectPageUrl()).searchParams.get("version")).toBe("1");
    expect((await call("/_emulator/sites/default/install", { method: "POST" })).status).toBe(200);
    expect(stub.descriptorReads).toEqual({ jira: reads.jira + 1, confluence: reads.confluence + 1 });
    expect((await projectPageUrl()).searchParams.get("version")).toBe("2");
    expect((await call("/rest/api/3/project/search", { as: "app" })).status).toBe(200);
    expect(stub.descriptorReads).toEqual({ jira: reads.jira + 1, confluence: reads.confluence + 1 });
  });

  it("asks an add-on that was not up yet for its descriptor again on the next page", async () => {
    const fresh = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    const page = async () =>
      (
        await call("/plugins/servlet/ac/rmcloud-stub/requirements?project.key=ROVER&project.id=10001", { as: "user", base: fresh.url })
      ).text();
    try {
      stub.setStarting(true);
      expect(await page()).toContain("did not answer its descriptor");
      stub.setStarting(false);
      expect(await page()).toContain("data-slot");
    } finally {
      stub.setStarting(false);
      await fresh.stop();
    }
  });

  it("uninstalls a site with a signed uninstalled callback", async () => {
    const response = await call("/_emulator/sites/tenant-b/uninstall", { method: "POST" });
    expect(response.status).toBe(200);
    expect(stub.installs.filter((i) => i.eventType === "uninstalled").map((i) => i.productType)).toEqual(["jira", "confluence"]);
  });

  it("shows the add-on's mail outbox", async () => {
    const outbox = path.join(dataDir, "outbox");
    fs.mkdirSync(outbox, { recursive: true });
    const message = [
      "From: rmCloud <no-reply@rmcloud.local>",
      "To: mia.krystof@example.com",
      "Subject: =?UTF-8?Q?You_were_assigned_SR-4_=E2=80=93_Pump_alarm?=",
      "Date: Mon, 10 Feb 2025 10:00:00 +0000",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Open the requirement: http://localhost:2990/plugins/servlet/ac/rmcloud/req=",
      "uirements?project.id=3D10000",
    ].join("\r\n");
    fs.writeFileSync(path.join(outbox, "0001.eml"), message);
    const list = await (await call("/_emulator/outbox")).text();
    expect(list).toContain("You were assigned SR-4 – Pump alarm");
    expect(list).toContain("mia.krystof@example.com");
    const view = await (await call("/_emulator/outbox/0001.eml")).text();
    expect(view).toContain("http://localhost:2990/plugins/servlet/ac/rmcloud/requirements?project.id=10000");
    expect((await call("/_emulator/outbox/..%2Fsites.json")).status).toBe(404);
  });
});
