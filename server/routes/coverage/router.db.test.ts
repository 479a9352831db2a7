import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_DATA_PROBLEM } from "../../services/issueLinks/findJiraIssue.js";
import { bearer, createTenant, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { isLicenseCheck, isPermissionCheck, licenseAnswer, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import type { HostCall } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";

const PROJECT = 10000;
const HIDDEN_PROJECT = 10001;
const GLOBAL = 0;
const USER = "557058:test-user";

/** A fake Jira: issue statuses by id; the user may browse neither HIDDEN_PROJECT nor issue 103. */
const statusCategoryOf: Record<string, string> = { "101": "done", "102": "indeterminate", "103": "done", "104": "done", "105": "done" };
const jira = { failing: false, bulkFetches: 0 };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    hostClient: {
      call: async <T>(_tenantId: string, _product: string, call: HostCall): Promise<T> => {
        if (isLicenseCheck(call)) return licenseAnswer(call) as T;
        if (isPermissionCheck(call)) {
          return permissionCheckAnswer(call, {
            mayBrowse: (_account, id) => id !== "103",
            mayBrowseProject: (_account, id) => id !== HIDDEN_PROJECT,
          }) as T;
        }
        if (call.path === "/rest/api/3/issue/bulkfetch") {
          jira.bulkFetches++;
          if (jira.failing) throw new HostCallError(500, "", "Jira answered 500");
          const wanted = (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys;
          return {
            issues: wanted
              .filter((id) => statusCategoryOf[id])
              .map((id) => ({
                id,
                key: `PUMP-${id}`,
                fields: { status: { name: "Some", statusCategory: { key: statusCategoryOf[id] } } },
              })),
          } as T;
        }
        throw new Error(`${call.path} is not known to this fake Jira`);
      },
    },
  });
});
afterAll(() => ctx.destroy());

type Seeded = { tenant: TestTenant; ids: Record<string, number>; folders: Record<string, number> };

async function requirement(tenant: TestTenant, type: number, name: string, projectId = PROJECT, parentFolderId: number | null = null) {
  const [row] = await ctx.deps
    .db("requirements")
    .insert({
      tenant_id: tenant.tenantId,
      project_id: projectId,
      requirement_type_id: type,
      name,
      parent_folder_id: parentFolderId,
      created_by: USER,
    })
    .returning("requirement_id");
  return Number(row.requirement_id);
}

async function folder(tenant: TestTenant, name: string, parentFolderId: number | null = null, projectId = PROJECT) {
  const [row] = await ctx.deps
    .db("folders")
    .insert({ tenant_id: tenant.tenantId, project_id: projectId, parent_folder_id: parentFolderId, name, created_by: USER })
    .returning("folder_id");
  return Number(row.folder_id);
}

/** Links are stored once per pair, the smaller id first, so coverage must be read both ways. */
const linkRequirements = (tenant: TestTenant, one: number, other: number) =>
  ctx.deps
    .db("requirement_links")
    .insert({ tenant_id: tenant.tenantId, requirement_id: Math.min(one, other), linked_requirement_id: Math.max(one, other) });
const linkIssue = (tenant: TestTenant, requirementId: number, issueId: string) =>
  ctx.deps.db("requirement_issue_links").insert({ tenant_id: tenant.tenantId, requirement_id: requirementId, atlassian_issue_id: issueId });

/**
 * A pump project: business requirements (level 1) "Dosing" and "Alarms" in folder Safety, whose
 * subfolder Alarms holds "Alarm tone" (level 2) and "Alarm driver" (level 3); "Reporting" (level 1)
 * at the top level. Dosing is covered (its link stored from its end), Alarms only by a deleted SR,
 * Reporting only by a level-3 requirement (not the next level), Alarm tone by Alarm driver, and
 * Company policy (Global Requirements, created last) by Dosing rate through a link stored from the
 * other end. Issues: Dosing 101 (done) and 102; Alarm tone 101 again and 103 (done,
 * not browsable); a deleted requirement 104; the hidden project's requirement 105.
 */
async function seedPump(): Promise<Seeded> {
  const tenant = await createTenant(ctx.deps.db);
  const typeIds = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  const types = { BR: typeIds.BR ?? 0, SR: typeIds.SR ?? 0, SYS: typeIds.SYS ?? 0 };
  const safety = await folder(tenant, "Safety");
  const alarmsFolder = await folder(tenant, "Alarms", safety);
  const ids = {
    dosing: await requirement(tenant, types.BR, "Dosing", PROJECT, safety),
    alarms: await requirement(tenant, types.BR, "Alarms", PROJECT, safety),
    reporting: await requirement(tenant, types.BR, "Reporting"),
    dosingRate: await requirement(tenant, types.SR, "Dosing rate"),
    alarmTone: await requirement(tenant, types.SR, "Alarm tone", PROJECT, alarmsFolder),
    alarmDriver: await requirement(tenant, types.SYS, "Alarm driver", PROJECT, alarmsFolder),
    withdrawn: await requirement(tenant, types.SR, "Withdrawn"),
    global: await requirement(tenant, types.BR, "Company policy", GLOBAL),
    hidden: await requirement(tenant, types.BR, "Secret", HIDDEN_PROJECT),
  };
  await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: ids.withdrawn }).update({ deleted_at: new Date() });
  await linkRequirements(tenant, ids.dosing, ids.dosingRate);
  await linkRequirements(tenant, ids.alarms, ids.withdrawn);
  await linkRequirements(tenant, ids.reporting, ids.alarmDriver);
  await linkRequirements(tenant, ids.alarmDriver, ids.alarmTone);
  await linkRequirements(tenant, ids.global, ids.dosingRate);
  await linkIssue(tenant, ids.dosing, "101");
  await linkIssue(tenant, ids.dosing, "102");
  await linkIssue(tenant, ids.alarmTone, "101");
  await linkIssue(tenant, ids.alarmTone, "103");
  await linkIssue(tenant, ids.withdrawn, "104");
  await linkIssue(tenant, ids.hidden, "105");
  return { tenant, ids, folders: { safety, alarms: alarmsFolder } };
}

const getCoverage = async (tenant: TestTenant, query: Record<string, unknown>) =>
  request(ctx.app)
    .get("/api/coverage")
    .query(query)
    .set("Authorization", await bearer(ctx, tenant, USER));

let pump: Seeded;
beforeAll(async () => {
  pump = await seedPump();
});

describe("GET /api/coverage", () => {
  it("counts a project's active requirements, those with issues, the done issues the user may browse, and each level's coverage by the next", async () => {
    const res = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requirements: 6,
      with_issues: 2,
      // 101, 102 and 103 are linked; 103 is not the user's to see; of 101 and 102 only 101 is done.
      issues_done: 1,
      levels: [
        { level: 1, requirements: 3, covered_by_next_level: 1 },
        { level: 2, requirements: 2, covered_by_next_level: 1 },
        { level: 3, requirements: 1, covered_by_next_level: 0 },
      ],
    });
  });

  it("counts a folder with its whole subtree", async () => {
    const res = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT, folder_id: pump.folders.safety });
    expect(res.body).toEqual({
      requirements: 4,
      with_issues: 2,
      issues_done: 1,
      levels: [
        { level: 1, requirements: 2, covered_by_next_level: 1 },
        { level: 2, requirements: 1, covered_by_next_level: 1 },
        { level: 3, requirements: 1, covered_by_next_level: 0 },
      ],
    });
    const inner = await getCoverage(pump.tenant, { folder_id: pump.folders.alarms });
    expect(inner.body).toMatchObject({ requirements: 2, with_issues: 1 });
  });

  it("counts Global Requirements, and without a project every project the user may browse", async () => {
    const global = await getCoverage(pump.tenant, { atlassian_project_id: GLOBAL });
    expect(global.body).toEqual({
      requirements: 1,
      with_issues: 0,
      issues_done: 0,
      levels: [{ level: 1, requirements: 1, covered_by_next_level: 1 }],
    });

    const site = await getCoverage(pump.tenant, {});
    expect(site.status).toBe(200);
    // The project and Global Requirements; not the project the user may not browse (its issue 105 is not asked about either).
    expect(site.body).toMatchObject({ requirements: 7, with_issues: 2, issues_done: 1 });
    expect(site.body.levels[0]).toEqual({ level: 1, requirements: 4, covered_by_next_level: 2 });
  });

  it("lists the requirements without issues, a page at a time, with their total", async () => {
    const all = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT, uncovered: "issues" });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.requirements.map((r: { name: string }) => r.name)).toEqual(["Alarms", "Reporting", "Dosing rate", "Alarm driver"]);
    expect(all.body.requirements[0]).toEqual({
      requirement_id: pump.ids.alarms,
      display_id: null,
      prefix: "BR",
      name: "Alarms",
      level: 1,
      atlassian_project_id: PROJECT,
      parent_folder_id: pump.folders.safety,
    });

    const page = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT, uncovered: "issues", offset: 1, limit: 2 });
    expect(page.body).toMatchObject({ total: 4 });
    expect(page.body.requirements.map((r: { name: string }) => r.name)).toEqual(["Reporting", "Dosing rate"]);
  });

  it("lists the requirements not covered by the next level, in a folder's subtree too", async () => {
    const project = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT, uncovered: "next_level" });
    expect(project.body.requirements.map((r: { name: string }) => r.name)).toEqual(["Alarms", "Reporting", "Dosing rate", "Alarm driver"]);
    expect(project.body.total).toBe(4);

    const folder = await getCoverage(pump.tenant, { folder_id: pump.folders.safety, uncovered: "next_level" });
    expect(folder.body).toMatchObject({ total: 2 });
    expect(folder.body.requirements.map((r: { name: string }) => r.name)).toEqual(["Alarms", "Alarm driver"]);
  });

  it("gives the lowest level no coverage by a next level it does not have, until a type of that level exists", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
    const motorControl = await requirement(tenant, types.SYS ?? 0, "Motor control");
    await linkRequirements(tenant, motorControl, await requirement(tenant, types.SW ?? 0, "Motor driver"));
    await requirement(tenant, types.SW ?? 0, "Event logger");

    const lowest = await getCoverage(tenant, { atlassian_project_id: PROJECT });
    expect(lowest.body).toMatchObject({ requirements: 3, levels: [{ level: 3, requirements: 1, covered_by_next_level: 1 }] });
    expect((await getCoverage(tenant, { atlassian_project_id: PROJECT, uncovered: "next_level" })).body).toMatchObject({
      total: 0,
      requirements: [],
    });

    await ctx.deps.db("requirement_types").insert({ tenant_id: tenant.tenantId, name: "Unit", prefix: "UNIT", level: 5 });
    const covered = await getCoverage(tenant, { atlassian_project_id: PROJECT });
    expect(covered.body.levels).toEqual([
      { level: 3, requirements: 1, covered_by_next_level: 1 },
      { level: 4, requirements: 2, covered_by_next_level: 0 },
    ]);
    const uncovered = await getCoverage(tenant, { atlassian_project_id: PROJECT, uncovered: "next_level" });
    expect(uncovered.body.requirements.map((r: { name: string }) => r.name)).toEqual(["Motor driver", "Event logger"]);
  });

  it("counts nothing of another site, and answers another site's folder as missing", async () => {
    const other = await createTenant(ctx.deps.db);
    const empty = await getCoverage(other, { atlassian_project_id: PROJECT });
    expect(empty.body).toEqual({ requirements: 0, with_issues: 0, issues_done: 0, levels: [] });
    const site = await getCoverage(other, {});
    expect(site.body).toEqual({ requirements: 0, with_issues: 0, issues_done: 0, levels: [] });
    const foreignFolder = await getCoverage(other, { folder_id: pump.folders.safety });
    expect(foreignFolder.status).toBe(404);
    expect(foreignFolder.body).toEqual({ Result: "Folder not found" });
  });

  it("answers a project the user may not browse, and a folder of another project, as missing", async () => {
    const hidden = await getCoverage(pump.tenant, { atlassian_project_id: HIDDEN_PROJECT });
    expect(hidden.status).toBe(404);
    const elsewhere = await getCoverage(pump.tenant, { atlassian_project_id: GLOBAL, folder_id: pump.folders.safety });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ Result: "Folder not found" });
  });

  it.each([
    [{ atlassian_project_id: "pump" }, "atlassian_project_id"],
    [{ atlassian_project_id: PROJECT, folder_id: "-1" }, "folder_id"],
    [{ atlassian_project_id: PROJECT, uncovered: "tests" }, "uncovered"],
    [{ atlassian_project_id: PROJECT, uncovered: "issues", limit: 0 }, "limit"],
    [{ atlassian_project_id: PROJECT, uncovered: "issues", limit: 1001 }, "limit"],
    [{ atlassian_project_id: PROJECT, uncovered: "issues", offset: -1 }, "offset"],
  ])("refuses %o with 400 naming the field", async (query, field) => {
    const res = await getCoverage(pump.tenant, query);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual([field]);
  });

  it("answers 503 with the spec's host message when Jira cannot tell which issues are done", async () => {
    jira.failing = true;
    try {
      const res = await getCoverage(pump.tenant, { atlassian_project_id: PROJECT });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ Result: HOST_DATA_PROBLEM });
    } finally {
      jira.failing = false;
    }
  });
});
