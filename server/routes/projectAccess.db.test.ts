import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ACCESS_MESSAGES } from "../../common/errors.js";
import { RESTRICTED_REQUIREMENT } from "../../common/labels.js";
import { type Emulator, startEmulator } from "../../emulator/server.js";
import { browseOnlyUser, restrictedUser, seedContentUsers } from "../../emulator/seed/users.js";
import { DEFAULT_SITE } from "../../emulator/sites.js";
import { bearer, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../test/helpers/app.js";
import { installOnEmulatedJira } from "../../test/helpers/emulatedSiteInstall.js";
import type { HostClient } from "../connect/hostClient.js";

/**
 * Issue 36 from outside, against the emulated Jira over HTTP as in production: Noor Haddad may
 * not browse ROVER, Sami Okafor browses PUMP but may not edit it, Alana Grant administers.
 */
const PUMP = 10000;
const ROVER = 10001;
const SECRET = "ROVER-SECRET";

let dataDir: string;
let emulator: Emulator;
let ctx: TestContext;
let tenant: TestTenant;
let real: HostClient | undefined;
const hostClient: HostClient = {
  call: (tenantId, product, call) => {
    if (!real) throw new Error("the tenant is not installed yet");
    return real.call(tenantId, product, call);
  },
};
const auth = { admin: "", noor: "", sami: "" };
const rover = { requirement: 0, folder: 0, baseline: 0, attribute: 0, file: "", issue: "", job: "" };
const pump = { requirement: 0, folder: 0, baseline: 0, issue: "" };
let globalRequirement = 0;
let types: Record<string, number>;

const api = () => request(ctx.app);
const ok = <T extends { status: number; body: unknown }>(res: T, status = 200): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-access-"));
  emulator = await startEmulator({ port: 0, addonUrl: "http://127.0.0.1:9", dataDir, installOnStart: false, log: () => {} });
  ctx = await createTestApp({ hostClient });
  const site = emulator.sites.get(DEFAULT_SITE);
  if (!site) throw new Error("the emulator has no site");
  const installed = await installOnEmulatedJira(ctx.deps.db, site);
  real = installed.hostClient;
  tenant = { tenantId: installed.tenantId, clientKey: site.jira.clientKey, baseUrl: site.baseUrl, sharedSecret: site.jira.sharedSecret };
  auth.admin = await bearer(ctx, tenant, seedContentUsers[0]?.accountId);
  auth.noor = await bearer(ctx, tenant, restrictedUser.accountId);
  auth.sami = await bearer(ctx, tenant, browseOnlyUser.accountId);
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  rover.issue = site.content.issues.find((issue) => issue.key === "ROVER-1")?.id ?? "";
  pump.issue = site.content.issues.find((issue) => issue.key === "PUMP-1")?.id ?? "";

  const as = (authorization: string) => ({
    post: (url: string, body: object) => api().post(url).set("Authorization", authorization).send(body),
  });
  const admin = as(auth.admin);
  rover.folder = ok(await admin.post("/api/folder", { name: `${SECRET} folder`, project: ROVER }), 201).body.folder_id;
  rover.requirement = ok(
    await admin.post("/api/requirement", {
      name: `${SECRET} requirement`,
      description: `${SECRET} description`,
      display_id: "SECRETID",
      requirement_type_id: types.SYS,
      project: ROVER,
      parent_folder_id: rover.folder,
      issues: [{ atlassian_issue_id: rover.issue }],
    }),
    201,
  ).body.requirement_id;
  globalRequirement = ok(
    await admin.post("/api/requirement", {
      name: "Shared safety goal",
      requirement_type_id: types.SR,
      project: 0,
      requirements: [rover.requirement],
    }),
    201,
  ).body.requirement_id;
  rover.baseline = ok(
    await admin.post("/api/baseline", { name: `${SECRET} baseline`, project: ROVER, select_all_requirements: true }),
    201,
  ).body.baseline_id;
  ok(await admin.post("/api/baseline", { name: "Global baseline", project: 0, select_all_requirements: true }), 201);
  rover.attribute = ok(
    await admin.post("/api/attribute", { name: `${SECRET} field`, project: ROVER, type: "string" }),
    201,
  ).body.attribute_id;
  rover.file = `${randomUUID()}.png`;
  await ctx.deps.db("attachments").insert({
    tenant_id: tenant.tenantId,
    uuid_file_name: rover.file,
    requirement_id: rover.requirement,
    original_file_name: `${SECRET}.png`,
    operation: "attachment",
    created_by: seedContentUsers[0]?.accountId,
  });
  rover.job = ok(
    await admin.post("/api/requirement/matrix/export", { atlassian_project_id: ROVER, type: "docx", selected_issue_types: [] }),
  ).body.job_id;

  pump.folder = ok(await admin.post("/api/folder", { name: "Pump folder", project: PUMP }), 201).body.folder_id;
  pump.requirement = ok(
    await admin.post("/api/requirement", {
      name: "Pump pressure",
      requirement_type_id: types.SYS,
      project: PUMP,
      parent_folder_id: pump.folder,
    }),
    201,
  ).body.requirement_id;
  pump.baseline = ok(
    await admin.post("/api/baseline", { name: "Pump baseline", project: PUMP, select_all_requirements: true }),
    201,
  ).body.baseline_id;
});
afterAll(async () => {
  await ctx?.destroy();
  await emulator?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Everything the administrator reads of ROVER and of the global requirement that links into it. */
async function administratorsView() {
  const read = async (url: string) => {
    const res = await api().get(url).set("Authorization", auth.admin);
    return { status: res.status, body: res.body };
  };
  return {
    tree: await read(`/api/item/primary?atlassian_project_id=${ROVER}&expand=${rover.folder}`),
    requirement: await read(`/api/requirement/${rover.requirement}`),
    revisions: await read(`/api/requirement/${rover.requirement}/revision`),
    folder: await read(`/api/folder/${rover.folder}`),
    baselines: await read(`/api/baseline?atlassian_project_id=${ROVER}`),
    baseline: await read(`/api/baseline/${rover.baseline}`),
    fields: await read(`/api/attribute?atlassian_project_id=${ROVER}`),
    global: await read(`/api/requirement/${globalRequirement}`),
  };
}

type Operation = { method: string; path: string };

async function documentedRoutes(): Promise<Operation[]> {
  const document = (await api().get("/api/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([route, methods]) => Object.keys(methods).map((method) => ({ method, path: route })));
}

/** A route's path with its ids those of ROVER's objects (or the requirement type, a configuration object). */
function pathFor(route: string): string {
  const objectOf = (prefix: string) =>
    route.startsWith("/api/requirement/type")
      ? types.SYS
      : route.startsWith("/api/folder") || route.startsWith("/api/item")
        ? rover.folder
        : route.startsWith("/api/baseline")
          ? rover.baseline
          : route.startsWith("/api/attribute")
            ? rover.attribute
            : prefix === "requirement"
              ? rover.requirement
              : rover.requirement;
  return route
    .replace("{jobId}", rover.job)
    .replace("{issueId}", rover.issue)
    .replace("{contentId}", "65537")
    .replace(/\{\w+\}/g, () => String(objectOf("requirement")));
}

/** Every field a route might read, naming ROVER or its objects. */
const roverQuery = () => ({
  atlassian_project_id: ROVER,
  atlassian_issue_id: rover.issue,
  baseline1: rover.baseline,
  baseline2: rover.baseline,
  expand: rover.folder,
  title: "ROVER",
});
const roverBody = () => ({
  name: "Changed by Noor",
  description: "Changed by Noor",
  project: ROVER,
  atlassian_project_id: ROVER,
  parent_folder_id: rover.folder,
  requirements: [rover.requirement],
  requirementIds: [rover.requirement],
  requirement_type_id: types.SYS,
  requirement_type: types.SYS,
  linked_requirements: [],
  attachments: [],
  uuid_file_name: rover.file,
  original_file_name: "x.png",
  select_all_requirements: true,
  type: "docx",
  selected_issue_types: [],
  location: rover.folder,
  file_name: rover.file,
  contents: [{ atlassian_content_id: "65537" }],
});

describe("the restricted member against a project she may not browse", () => {
  it("finds nothing of ROVER in any answer of any documented route, and changes nothing", async () => {
    const before = await administratorsView();
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThan(40);

    const leaks: string[] = [];
    for (const route of routes) {
      const url = pathFor(route.path);
      const call = api()
        [route.method as "get" | "post" | "put" | "patch" | "delete"](url)
        .set("Authorization", auth.noor)
        .query(roverQuery());
      const res = route.method === "get" || route.method === "delete" ? await call : await call.send(roverBody());
      const text = res.text ?? "";
      if (res.status >= 500 && res.status !== 503) leaks.push(`${route.method} ${route.path} answered ${res.status}`);
      if (text.includes(SECRET) || text.includes("SECRETID"))
        leaks.push(`${route.method} ${route.path} answered ${res.status}: ${text.slice(0, 200)}`);
      if (res.status < 300 && /"requirement_id":\s*"?\d/.test(text) && text.includes(`"requirement_id":${rover.requirement}`)) {
        leaks.push(`${route.method} ${route.path} named ROVER's requirement`);
      }
    }

    expect(leaks).toEqual([]);
    expect(await administratorsView()).toEqual(before);
  });

  it("is told a ROVER requirement, folder, baseline or file does not exist, as if it did not", async () => {
    const as = (url: string) => api().get(url).set("Authorization", auth.noor);
    expect((await as(`/api/requirement/${rover.requirement}`)).body).toEqual({ Result: "Requirement not found" });
    expect((await as(`/api/requirement/${rover.requirement}`)).status).toBe(404);
    expect((await as(`/api/requirement/${rover.requirement}/revision`)).status).toBe(404);
    expect((await as(`/api/folder/${rover.folder}`)).body).toEqual({ Result: "Folder not found" });
    expect((await as(`/api/baseline/${rover.baseline}`)).body).toEqual({ Result: "Baseline not found" });
    expect((await as(`/api/item/primary?atlassian_project_id=${ROVER}`)).status).toBe(404);
    expect((await as(`/api/job/status/${rover.job}`)).status).toBe(404);
    const file = await api()
      .post("/api/sign-s3-get")
      .set("Authorization", auth.noor)
      .send({ uuid_file_name: rover.file, original_file_name: "x.png" });
    expect(file.status).toBe(404);
  });

  it("lists the site's requirements without ROVER's when she names no project", async () => {
    const listed = async (authorization: string) =>
      ok(await api().get("/api/requirement/lite").set("Authorization", authorization)).body.requirements.map(
        (requirement: { requirement_id: number }) => requirement.requirement_id,
      );
    const hers = await listed(auth.noor);
    expect(hers).toEqual(expect.arrayContaining([globalRequirement, pump.requirement]));
    expect(hers).not.toContain(rover.requirement);
    expect(await listed(auth.admin)).toContain(rover.requirement);
  });

  it("sees the global requirement's link into ROVER as a restricted requirement, without its name, prefix or ID", async () => {
    const global = ok(await api().get(`/api/requirement/${globalRequirement}`).set("Authorization", auth.noor)).body;
    expect(global.linked_requirements_v2).toEqual([
      {
        requirement_id: rover.requirement,
        prefix: "",
        display_id: null,
        name: RESTRICTED_REQUIREMENT,
        project: ROVER,
        requirement_type_id: 0,
        level: 3,
        restricted: true,
      },
    ]);
    const csv = ok(await api().get("/api/requirement/export?atlassian_project_id=0").set("Authorization", auth.noor)).text;
    expect(csv).toContain(RESTRICTED_REQUIREMENT);
    expect(csv).not.toContain(SECRET);
  });

  it("keeps the hidden link when she saves the global requirement with the list she was shown", async () => {
    const res = ok(
      await api()
        .put(`/api/requirement/${globalRequirement}`)
        .set("Authorization", auth.noor)
        .send({ name: "Shared safety goal", linked_requirements: [] }),
    );
    expect(res.body.linked_requirements_v2.map((linked: { requirement_id: number }) => linked.requirement_id)).toEqual([rover.requirement]);
    const seenByAdmin = ok(await api().get(`/api/requirement/${globalRequirement}`).set("Authorization", auth.admin)).body;
    expect(seenByAdmin.linked_requirements_v2.map((linked: { name: string }) => linked.name)).toEqual([`${SECRET} requirement`]);
  });
});

describe("the member who browses PUMP but may not edit it", () => {
  const as = () => ({
    get: (url: string) => api().get(url).set("Authorization", auth.sami),
    send: (method: "post" | "put" | "patch" | "delete", url: string, body?: object) =>
      api()[method](url).set("Authorization", auth.sami).send(body),
  });

  it("reads everything of PUMP", async () => {
    const sami = as();
    for (const url of [
      `/api/item/primary?atlassian_project_id=${PUMP}`,
      `/api/item/${pump.folder}/descendant?atlassian_project_id=${PUMP}`,
      `/api/folder/primary?atlassian_project_id=${PUMP}`,
      `/api/folder/${pump.folder}`,
      `/api/requirement/${pump.requirement}`,
      `/api/requirement/${pump.requirement}/revision`,
      `/api/requirement?atlassian_project_id=${PUMP}`,
      `/api/requirement/lite?atlassian_project_id=${PUMP}`,
      `/api/baseline?atlassian_project_id=${PUMP}`,
      `/api/baseline/${pump.baseline}`,
      `/api/baseline/${pump.baseline}/lite`,
      `/api/baseline/compare?atlassian_project_id=${PUMP}&baseline1=${pump.baseline}&baseline2=${pump.baseline}`,
      `/api/requirement/matrix?atlassian_project_id=${PUMP}`,
      `/api/requirement/export?atlassian_project_id=${PUMP}`,
      `/api/project/access?atlassian_project_id=${PUMP}`,
    ]) {
      expect((await sami.get(url)).status, url).toBe(200);
    }
    expect((await sami.send("post", "/api/requirement/by-id/lite", { requirementIds: [pump.requirement] })).body.requirements).toHaveLength(
      1,
    );
  });

  it("is refused every change of PUMP with the reason, and nothing changes", async () => {
    const sami = as();
    const before = ok(
      await api().get(`/api/item/primary?atlassian_project_id=${PUMP}&expand=${pump.folder}`).set("Authorization", auth.admin),
    ).body;
    const writes: [string, () => request.Test][] = [
      ["create a requirement", () => sami.send("post", "/api/requirement", { name: "New", requirement_type_id: types.SYS, project: PUMP })],
      ["edit a requirement", () => sami.send("put", `/api/requirement/${pump.requirement}`, { name: "Renamed" })],
      ["change its attachments", () => sami.send("patch", `/api/requirement/${pump.requirement}`, { attachments: [] })],
      [
        "move requirements",
        () => sami.send("post", "/api/requirement/move/bulk", { parent_folder_id: null, requirements: [pump.requirement] }),
      ],
      ["delete requirements", () => sami.send("post", "/api/requirement/delete/bulk", { requirements: [pump.requirement] })],
      ["create a folder", () => sami.send("post", "/api/folder", { name: "New folder", project: PUMP })],
      ["edit a folder", () => sami.send("put", `/api/folder/${pump.folder}`, { name: "Renamed folder" })],
      ["delete a folder", () => sami.send("delete", `/api/folder/${pump.folder}`)],
      [
        "import requirements",
        () =>
          sami.send("post", "/api/import-issues", {
            atlassian_project_id: PUMP,
            file_name: `${randomUUID()}.csv`,
            requirement_type: types.SYS,
          }),
      ],
      ["create a baseline", () => sami.send("post", "/api/baseline", { name: "B", project: PUMP, select_all_requirements: true })],
      ["delete a baseline", () => sami.send("delete", `/api/baseline/${pump.baseline}`)],
      ["link a requirement to an issue", () => sami.send("put", `/api/issue/${pump.issue}`, { requirements: [pump.requirement] })],
    ];
    for (const [name, write] of writes) {
      const res = await write();
      expect(res.status, name).toBe(403);
      expect(Object.values(PROJECT_ACCESS_MESSAGES), name).toContain(res.body.Result);
    }
    expect(
      ok(await api().get(`/api/item/primary?atlassian_project_id=${PUMP}&expand=${pump.folder}`).set("Authorization", auth.admin)).body,
    ).toEqual(before);
    expect(
      ok(await api().get(`/api/project/access?atlassian_project_id=${PUMP}&atlassian_project_id=${ROVER}`).set("Authorization", auth.sami))
        .body,
    ).toEqual({
      projects: [
        { atlassian_project_id: PUMP, browse: true, edit: false, manage_baselines: false },
        { atlassian_project_id: ROVER, browse: true, edit: true, manage_baselines: true },
      ],
    });
  });
});
