import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTenant, createTestApp, insertRequirementRow, type TestContext } from "../../../test/helpers/app.js";
import { type FakeJiraPermissions, isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { APP_PROJECT_PERMISSIONS } from "../../connect/modules.js";
import { HOST_DATA_PROBLEM } from "../issueLinks/findJiraIssue.js";
import type { Db } from "../../db/knex.js";
import { PERMISSION_SCHEMES_PATH, PERMISSIONS_CHECK_PATH } from "../jira/jiraPermissions.js";
import { updateRequirement } from "../requirements/updateRequirement.js";
import {
  ACCESS_MESSAGES,
  type AccessDeps,
  browsableProjectIds,
  createAccessCache,
  mayAccessProject,
  projectAccessOf,
  requireProjectAccess,
} from "./projectAccess.js";

const PUMP = 10000;
const ROVER = 10001;
const OTHER = 10002;
const NOOR = "noor";
const READER = "reader";
const EDITOR = "editor";

/** A Jira where NOOR may not browse ROVER, READER browses everything but edits no issue of ROVER, EDITOR does everything. */
const jira = {
  down: false,
  /** Reads the database before answering, as the real host client reads the installation's secret. */
  readsDatabase: false,
  calls: [] as HostCall[],
  revoked: new Set<string>(),
  permissions: {} as FakeJiraPermissions,
};
const standardPermissions = (): FakeJiraPermissions => ({
  mayBrowseProject: (account, project) => !(account === NOOR && project === ROVER) && !jira.revoked.has(`${account} ${project}`),
  holds: (account, project, permission) =>
    permission === "EDIT_ISSUES"
      ? !(account === READER && project === ROVER)
      : permission === APP_PROJECT_PERMISSIONS.editRequirements && account === EDITOR,
});
const hostClient: HostClient = {
  async call<T>(_tenantId: string, _product: string, call: HostCall): Promise<T> {
    jira.calls.push(call);
    if (jira.readsDatabase) await ctx.deps.db.raw("select 1");
    if (jira.down) throw new HostCallError(503, "", "Jira answered 503");
    if (!isPermissionCheck(call)) throw new Error(`unexpected host call ${call.path}`);
    return permissionCheckAnswer(call, jira.permissions) as T;
  },
};

let ctx: TestContext;
let tenantId: string;
let deps: AccessDeps;
const as = (accountId: string) => ({ tenantId, accountId });
const checks = () => jira.calls.filter((call) => call.path === PERMISSIONS_CHECK_PATH);
const schemeReads = () => jira.calls.filter((call) => call.path === PERMISSION_SCHEMES_PATH);

beforeAll(async () => {
  ctx = await createTestApp({ hostClient });
  tenantId = (await createTenant(ctx.deps.db)).tenantId;
  await insertRequirementRow(ctx.deps.db, tenantId, "Pump pressure", PUMP);
  await insertRequirementRow(ctx.deps.db, tenantId, "Rover wheels", ROVER);
  await insertRequirementRow(ctx.deps.db, tenantId, "Global safety", 0);
});
afterAll(() => ctx.destroy());
beforeEach(() => {
  deps = { ...ctx.deps, access: createAccessCache() };
  jira.down = false;
  jira.readsDatabase = false;
  jira.calls.length = 0;
  jira.revoked.clear();
  jira.permissions = standardPermissions();
});

describe("who may browse and edit a project's requirements", () => {
  it("follows Jira: browse where Jira lets one browse, edit where one may edit issues", async () => {
    expect(await projectAccessOf(deps, as(NOOR), [PUMP, ROVER])).toEqual(
      new Map([
        [PUMP, { browse: true, edit: true, manageBaselines: true }],
        [ROVER, { browse: false, edit: false, manageBaselines: false }],
      ]),
    );
    expect(await projectAccessOf(deps, as(READER), [ROVER])).toEqual(
      new Map([[ROVER, { browse: true, edit: false, manageBaselines: false }]]),
    );
  });

  it("opens Global Requirements to every member without asking Jira", async () => {
    expect(await mayAccessProject(deps, as(NOOR), 0, "edit")).toBe(true);
    expect(jira.calls).toEqual([]);
  });

  it("asks Jira once per account for every project of the site, whatever is asked next", async () => {
    await mayAccessProject(deps, as(NOOR), PUMP, "browse");
    await mayAccessProject(deps, as(NOOR), ROVER, "edit");
    await browsableProjectIds(deps, as(NOOR));
    await Promise.all(Array.from({ length: 20 }, () => mayAccessProject(deps, as(NOOR), PUMP, "edit")));

    expect(checks()).toEqual([
      {
        method: "POST",
        path: PERMISSIONS_CHECK_PATH,
        body: {
          accountId: NOOR,
          projectPermissions: [
            {
              permissions: [
                "BROWSE_PROJECTS",
                "EDIT_ISSUES",
                APP_PROJECT_PERMISSIONS.editRequirements,
                APP_PROJECT_PERMISSIONS.manageBaselines,
              ],
              projects: [PUMP, ROVER],
            },
          ],
        },
      },
    ]);
  });

  it("asks about a project the site has no data of yet once, and remembers it with the rest", async () => {
    expect(await mayAccessProject(deps, as(NOOR), OTHER, "edit")).toBe(true);
    expect(await mayAccessProject(deps, as(NOOR), OTHER, "edit")).toBe(true);
    expect(await mayAccessProject(deps, as(NOOR), PUMP, "edit")).toBe(true);
    expect(checks()).toHaveLength(1);
  });

  it("lists the projects one may browse, Global Requirements first", async () => {
    expect(await browsableProjectIds(deps, as(NOOR))).toEqual([0, PUMP]);
    expect(await browsableProjectIds(deps, as(READER))).toEqual([0, PUMP, ROVER]);
  });

  it("answers a hidden object as a missing one, a refused change 403, a hidden project 404 to a read", async () => {
    await expect(requireProjectAccess(deps, as(NOOR), ROVER, "browse", "Requirement")).rejects.toMatchObject({
      status: 404,
      body: { Result: "Requirement not found" },
    });
    await expect(requireProjectAccess(deps, as(NOOR), ROVER, "edit", "Requirement")).rejects.toMatchObject({
      status: 404,
      body: { Result: "Requirement not found" },
    });
    await expect(requireProjectAccess(deps, as(NOOR), ROVER, "browse")).rejects.toMatchObject({
      status: 404,
      body: { Result: "Project not found" },
    });
    await expect(requireProjectAccess(deps, as(NOOR), ROVER, "edit")).rejects.toMatchObject({
      status: 403,
      body: { Result: ACCESS_MESSAGES.edit },
    });
    await expect(requireProjectAccess(deps, as(READER), ROVER, "edit", "Requirement")).rejects.toMatchObject({
      status: 403,
      body: { Result: ACCESS_MESSAGES.edit },
    });
    await expect(requireProjectAccess(deps, as(READER), ROVER, "browse", "Requirement")).resolves.toBeUndefined();
  });
});

describe("rmCloud's own project permissions", () => {
  it("fall back to Jira's Edit Issues while no permission scheme of the site grants them", async () => {
    expect(await mayAccessProject(deps, as(READER), PUMP, "edit")).toBe(true);
    expect(await mayAccessProject(deps, as(EDITOR), PUMP, "edit")).toBe(true);
  });

  it("are looked up in the site's schemes only for a change whose answer depends on them, never for a read", async () => {
    expect(await browsableProjectIds(deps, as(READER))).toEqual([0, PUMP, ROVER]);
    expect(await mayAccessProject(deps, as(READER), PUMP, "browse")).toBe(true);
    await requireProjectAccess(deps, as(READER), [PUMP, ROVER], "browse", "Requirement");
    // READER holds neither Edit Issues nor an app permission in ROVER: the schemes cannot change the answer.
    expect(await mayAccessProject(deps, as(READER), ROVER, "edit")).toBe(false);
    expect(schemeReads()).toEqual([]);

    expect(await mayAccessProject(deps, as(READER), PUMP, "edit")).toBe(true);
    expect(schemeReads()).toHaveLength(1);
    expect(checks()).toHaveLength(1);
  });

  it("decide alone once a scheme grants them to anyone: Edit Issues no longer suffices", async () => {
    jira.permissions = { ...standardPermissions(), grantedOnSite: [APP_PROJECT_PERMISSIONS.editRequirements] };
    expect(await mayAccessProject(deps, as(READER), PUMP, "edit")).toBe(false);
    expect(await mayAccessProject(deps, as(EDITOR), PUMP, "edit")).toBe(true);
    // Manage baselines is not granted by any scheme: still Edit Issues.
    expect(await mayAccessProject(deps, as(READER), PUMP, "manageBaselines")).toBe(true);
  });
});

describe("when Jira's answer changes or Jira is down", () => {
  it("takes a revoked permission into account once the cached answer expires", async () => {
    deps = { ...ctx.deps, access: createAccessCache(50) };
    expect(await mayAccessProject(deps, as(READER), PUMP, "browse")).toBe(true);
    jira.revoked.add(`${READER} ${PUMP}`);
    expect(await mayAccessProject(deps, as(READER), PUMP, "browse")).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 80));

    expect(await mayAccessProject(deps, as(READER), PUMP, "browse")).toBe(false);
    expect(checks()).toHaveLength(2);
  });

  it("keeps an answer a whole TTL from the moment Jira gave it, so a slow answer is not asked again sooner", async () => {
    // Not 0: lru-cache reads an entry stored at time 0 as one without a start, which never expires.
    let now = 1_000_000;
    const ttl = 1000;
    const slow: HostClient = {
      async call<T>(tenant: string, product: "jira" | "confluence", call: HostCall): Promise<T> {
        const answer = await hostClient.call<T>(tenant, product, call);
        now += ttl / 2;
        return answer;
      },
    };
    const slowDeps = { ...deps, hostClient: slow, access: createAccessCache(ttl, { now: () => now }) };
    await mayAccessProject(slowDeps, as(READER), PUMP, "browse");
    now += ttl - 1;
    await mayAccessProject(slowDeps, as(READER), PUMP, "browse");
    expect(checks()).toHaveLength(1);
    now += 2;
    await mayAccessProject(slowDeps, as(READER), PUMP, "browse");
    expect(checks()).toHaveLength(2);
  });

  it("answers 503 with the spec's message and allows nothing when Jira cannot be asked, then asks again", async () => {
    jira.down = true;
    await expect(requireProjectAccess(deps, as(EDITOR), PUMP, "browse")).rejects.toMatchObject({
      status: 503,
      body: { Result: HOST_DATA_PROBLEM },
    });
    await expect(mayAccessProject(deps, as(EDITOR), PUMP, "browse")).rejects.toMatchObject({ status: 503 });
    jira.down = false;
    expect(await mayAccessProject(deps, as(EDITOR), PUMP, "browse")).toBe(true);
  });
});

/** A PUMP requirement linked to a ROVER one. */
async function linkedSeals(): Promise<{ pumpSeal: number; roverSeal: number }> {
  const pumpSeal = await insertRequirementRow(ctx.deps.db, tenantId, "Pump seal", PUMP);
  const roverSeal = await insertRequirementRow(ctx.deps.db, tenantId, "Rover seal", ROVER);
  await ctx.deps.db("requirement_links").insert({
    tenant_id: tenantId,
    requirement_id: Math.min(pumpSeal, roverSeal),
    linked_requirement_id: Math.max(pumpSeal, roverSeal),
  });
  return { pumpSeal, roverSeal };
}

describe("a change whose access checks run inside its transaction", () => {
  it("has Jira asked before the transaction opens, so the host client's own database read is never starved", async () => {
    jira.readsDatabase = true;
    const { pumpSeal, roverSeal } = await linkedSeals();

    // On PGlite (one connection) Jira asked inside the transaction waited for ever for the connection it held.
    const updated = await updateRequirement({ ...ctx.deps, access: deps.access }, as(EDITOR), pumpSeal, { name: "Pump seal, renamed" });

    expect(updated.name).toBe("Pump seal, renamed");
    expect(updated.linked_requirements_v2.map((linked) => linked.requirement_id)).toEqual([roverSeal]);
    expect(checks().length).toBeGreaterThan(0);
  });

  it("decides inside by Jira's answer asked before it opened, even when that answer expires in between", async () => {
    // Every answer of Jira asked before the transaction has expired once it is open: the clock moves past the TTL as it opens.
    // Not 0: lru-cache reads an entry stored at time 0 as one without a start, which never expires.
    let now = 1_000_000;
    const ttl = 1000;
    let openTransactions = 0;
    const asked: { path: string; insideTransaction: boolean }[] = [];
    const counting: HostClient = {
      call: (tenant, product, call) => {
        asked.push({ path: call.path, insideTransaction: openTransactions > 0 });
        return hostClient.call(tenant, product, call);
      },
    };
    const db = new Proxy(ctx.deps.db, {
      get(target, property, receiver) {
        if (property !== "transaction") return Reflect.get(target, property, receiver);
        return (work: (trx: Db) => Promise<unknown>) =>
          target.transaction(async (trx) => {
            openTransactions++;
            now += 2 * ttl;
            try {
              return await work(trx);
            } finally {
              openTransactions--;
            }
          });
      },
    });
    const { pumpSeal, roverSeal } = await linkedSeals();

    // NOOR may not browse ROVER: her save keeps the link she is not shown, and shows it restricted.
    const updated = await updateRequirement(
      { ...ctx.deps, db, hostClient: counting, access: createAccessCache(ttl, { now: () => now }) },
      as(NOOR),
      pumpSeal,
      { name: "Pump seal, renamed", linked_requirements: [] },
    );

    expect(updated.name).toBe("Pump seal, renamed");
    expect(updated.linked_requirements_v2).toEqual([expect.objectContaining({ requirement_id: roverSeal, restricted: true })]);
    expect(asked.filter((call) => call.insideTransaction)).toEqual([]);
    expect(asked.filter((call) => call.path === PERMISSIONS_CHECK_PATH)).toHaveLength(1);
  });

  it("refuses to ask Jira from inside a transaction, whatever is cached", async () => {
    await mayAccessProject(deps, as(NOOR), PUMP, "browse");
    await expect(ctx.deps.db.transaction((trx) => mayAccessProject({ ...deps, db: trx }, as(NOOR), PUMP, "browse"))).rejects.toThrow(
      /before a transaction opens/,
    );
    expect(checks()).toHaveLength(1);
  });
});
