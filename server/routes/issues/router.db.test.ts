import request from "supertest";
import { appActor } from "../../services/context.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import type { Db } from "../../db/knex.js";
import { queuedJobs } from "../../../test/helpers/jobs.js";
import { requirementSavedJob } from "../../jobs/requirementSavedJob.js";
import { removeLinksOfDeletedIssue } from "../../services/issueLinks/removeLinksOfDeletedIssue.js";
import { snapshotFromStored } from "../../db/requirements/index.js";

const PROJECT = 10000;
const OTHER_PROJECT = 10001;
/** Issues the fake Jira knows, by id: the project each lives in. */
const jiraIssues = new Map<string, number>([
  ["20001", PROJECT],
  ["20002", PROJECT],
  ["20003", PROJECT],
  ["20004", PROJECT],
  ["20005", PROJECT],
  ["20009", PROJECT],
  ["30001", OTHER_PROJECT],
]);

const fakeJira: HostClient = {
  call: async <T>(_tenantId: string, _product: "jira" | "confluence", call: HostCall) => {
    // Everyone may browse and edit every project.
    if (isPermissionCheck(call)) return permissionCheckAnswer(call) as T;
    const match = /^\/rest\/api\/3\/issue\/(\d+)/.exec(call.path);
    const projectId = match?.[1] ? jiraIssues.get(match[1]) : undefined;
    if (projectId === undefined) throw Object.assign(new Error("Jira answered 404"), { status: 404 });
    return { id: match?.[1], key: `PRJ-${match?.[1]}`, fields: { project: { id: String(projectId) } } } as T;
  },
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ hostClient: fakeJira });
});
afterAll(() => ctx.destroy());

/** A requirement written straight to the database, as the requirements service would leave it. */
async function seedRequirement(db: Db, tenant: TestTenant, projectId: number, name: string): Promise<number> {
  let type = await db("requirement_types").where({ tenant_id: tenant.tenantId }).first("requirement_type_id");
  if (!type) {
    [type] = await db("requirement_types")
      .insert({ tenant_id: tenant.tenantId, name: "System", prefix: "SR", level: 1 })
      .returning("requirement_type_id");
  }
  const [row] = await db("requirements")
    .insert({
      tenant_id: tenant.tenantId,
      project_id: projectId,
      requirement_type_id: type.requirement_type_id,
      name,
      created_by: "557058:test-user",
    })
    .returning("requirement_id");
  return Number(row.requirement_id);
}

async function linkedRequirementIds(db: Db, tenant: TestTenant, issueId: string): Promise<number[]> {
  const rows = await db("requirement_issue_links")
    .where({ tenant_id: tenant.tenantId, atlassian_issue_id: issueId })
    .orderBy("requirement_id")
    .select("requirement_id");
  return rows.map((row) => Number(row.requirement_id));
}

const putIssue = async (tenant: TestTenant, issueId: string, requirements: unknown) =>
  request(ctx.app)
    .put(`/api/issue/${issueId}`)
    .set("Authorization", await bearer(ctx, tenant))
    .send({ requirements });

describe("PUT /api/issue/{issueId}: the link requirements dialog's save", () => {
  it("links exactly the chosen requirements of the issue's project and the global ones", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const projectReq = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Login works");
    const globalReq = await seedRequirement(ctx.deps.db, tenant, 0, "Everything is audited");
    const otherReq = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Logout works");

    const res = await putIssue(tenant, "20001", [projectReq, globalReq]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requirements: [projectReq, globalReq] });
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20001")).toEqual([projectReq, globalReq]);

    const again = await putIssue(tenant, "20001", [otherReq, globalReq]);
    expect(again.status).toBe(200);
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20001")).toEqual([globalReq, otherReq]);

    const cleared = await putIssue(tenant, "20001", []);
    expect(cleared.status).toBe(200);
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20001")).toEqual([]);
  });

  it("shows the same links from the issue's side and the requirement's side", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    const first = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Search is fast");
    const second = await seedRequirement(ctx.deps.db, tenant, 0, "Data stays in region");
    await putIssue(tenant, "20002", [first, second]);
    await putIssue(tenant, "20003", [first]);

    const byIssue = await request(ctx.app)
      .get("/api/requirement")
      .query(`atlassian_project_id=${PROJECT}&atlassian_project_id=0&atlassian_issue_id=20002`)
      .set("Authorization", auth);
    expect(byIssue.status).toBe(200);
    const listed = (byIssue.body.requirements ?? byIssue.body) as { requirement_id: number }[];
    expect(listed.map((requirement) => requirement.requirement_id).sort((a, b) => a - b)).toEqual([first, second]);

    const detail = await request(ctx.app).get(`/api/requirement/${first}`).set("Authorization", auth);
    expect(detail.status).toBe(200);
    const issues = (detail.body.issues as { atlassian_issue_id: string }[]).map((issue) => issue.atlassian_issue_id);
    expect(issues.sort()).toEqual(["20002", "20003"]);
  });

  it("writes a revision on each requirement whose links changed and enqueues their notifications with the save", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const kept = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Kept");
    const dropped = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Dropped");
    const added = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Added");
    await ctx.deps.db("customer_settings").insert({ tenant_id: tenant.tenantId, comment_on_associated_issues: true });
    await putIssue(tenant, "20004", [kept, dropped]);
    const enqueuedBefore = (await queuedJobs(ctx.deps.db, requirementSavedJob, tenant.tenantId)).length;

    await putIssue(tenant, "20004", [kept, added]);

    const revisions = await ctx.deps
      .db("requirement_revisions")
      .where({ tenant_id: tenant.tenantId })
      .orderBy(["requirement_id", "revision"])
      .select("requirement_id", "revision", "changed_fields", "snapshot");
    const byRequirement = (id: number) => revisions.filter((revision) => Number(revision.requirement_id) === id);
    expect(byRequirement(kept)).toHaveLength(1);
    expect(byRequirement(dropped)).toHaveLength(2);
    expect(byRequirement(added)).toHaveLength(1);
    expect(byRequirement(dropped)[1]?.changed_fields).toEqual(["issues"]);
    expect(snapshotFromStored(byRequirement(dropped)[1]?.snapshot, dropped).issues).toEqual([]);
    expect(snapshotFromStored(byRequirement(added)[0]?.snapshot, added).issues).toEqual([{ atlassian_issue_id: "20004" }]);
    const requirement = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: dropped }).first();
    expect(requirement.revision).toBe(3);

    const saved = (await queuedJobs(ctx.deps.db, requirementSavedJob, tenant.tenantId))
      .slice(enqueuedBefore)
      .map((job) => job.data)
      .sort((a, b) => b.requirementId - a.requirementId);
    expect(saved.map((event) => [event.requirementId, event.revision, event.before?.issueIds, event.after?.issueIds])).toEqual([
      [added, 2, [], ["20004"]],
      [dropped, 3, ["20004"], []],
    ]);
    expect(saved[0]?.after?.label).toBe(`SR-${added}: Added`);
  });

  it("shows linking and unlinking an issue in the requirement's Activity as an update of its issues", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const requirementId = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Brakes respond within 50 ms");
    const activity = async () => {
      const response = await request(ctx.app)
        .get(`/api/requirement/${requirementId}/revision`)
        .set("Authorization", await bearer(ctx, tenant, "557058:linker"));
      expect(response.status).toBe(200);
      return (response.body.revisions as { revision: number; action: string; changed_fields: string; account_id: string }[])
        .map(({ revision, action, changed_fields, account_id }) => ({ revision, action, changed_fields, account_id }))
        .sort((a, b) => a.revision - b.revision);
    };

    expect((await putIssue(tenant, "20005", [requirementId])).status).toBe(200);
    expect(await activity()).toEqual([{ revision: 2, action: "updated", changed_fields: "issues", account_id: "557058:test-user" }]);

    expect((await putIssue(tenant, "20005", [])).status).toBe(200);
    expect(await activity()).toEqual([
      { revision: 2, action: "updated", changed_fields: "issues", account_id: "557058:test-user" },
      { revision: 3, action: "updated", changed_fields: "issues", account_id: "557058:test-user" },
    ]);
    const [linked, unlinked] = await ctx.deps
      .db("requirement_revisions")
      .where({ tenant_id: tenant.tenantId, requirement_id: requirementId })
      .orderBy("revision")
      .select("snapshot");
    const issuesOf = (row: { snapshot: unknown }) => snapshotFromStored(row.snapshot, requirementId).issues;
    expect(issuesOf(linked)).toEqual([{ atlassian_issue_id: "20005" }]);
    expect(issuesOf(unlinked)).toEqual([]);
  });

  it("leaves links of requirements from other projects alone and refuses to link them", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const foreign = await seedRequirement(ctx.deps.db, tenant, OTHER_PROJECT, "Belongs elsewhere");
    const local = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Belongs here");
    await ctx.deps.db("requirement_issue_links").insert({
      tenant_id: tenant.tenantId,
      requirement_id: foreign,
      atlassian_issue_id: "20005",
    });

    const refused = await putIssue(tenant, "20005", [foreign]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ requirements: [`Requirement ${foreign} is not in this issue's project or global`] });

    await putIssue(tenant, "20005", [local]);
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20005")).toEqual([foreign, local]);
  });

  it("answers 400 for requirement ids that do not exist or are deleted, and links nothing", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const live = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Live");
    const deleted = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Deleted");
    await ctx.deps
      .db("requirements")
      .where({ tenant_id: tenant.tenantId, requirement_id: deleted })
      .update({ deleted_at: ctx.deps.db.fn.now() });

    const res = await putIssue(tenant, "20009", [live, deleted, 987654]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirements: [`Requirement ${deleted} not found`, "Requirement 987654 not found"] });
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20009")).toEqual([]);
  });

  it("takes requirement ids as numeric strings like every other id list, and refuses non-numeric ones", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const projectReq = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Alarms are audible");
    const globalReq = await seedRequirement(ctx.deps.db, tenant, 0, "Logs are kept a year");

    const res = await putIssue(tenant, "20003", [String(projectReq), globalReq]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requirements: [projectReq, globalReq] });
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20003")).toEqual([projectReq, globalReq]);

    const refused = await putIssue(tenant, "20003", [String(projectReq), "12abc"]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ "requirements.1": ["Must be a number"] });
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "20003")).toEqual([projectReq, globalReq]);
  });

  it("answers 400 in the spec's format for a malformed body or issue id", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const badBody = await putIssue(tenant, "20001", ["one"]);
    expect(badBody.status).toBe(400);
    expect(Object.keys(badBody.body)).toEqual(["requirements.0"]);
    const badId = await putIssue(tenant, "PRJ-1", []);
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({ Result: "Issue id must be a number" });
  });

  it("answers 404 for an issue Jira does not know, and links nothing", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const requirement = await seedRequirement(ctx.deps.db, tenant, PROJECT, "Orphan");
    const res = await putIssue(tenant, "99999", [requirement]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Result: "Issue not found" });
    expect(await linkedRequirementIds(ctx.deps.db, tenant, "99999")).toEqual([]);
  });

  it("keeps sites apart: another site's requirement ids are unknown and its links untouched", async () => {
    const site = await createTenant(ctx.deps.db);
    const otherSite = await createTenant(ctx.deps.db);
    const theirs = await seedRequirement(ctx.deps.db, otherSite, PROJECT, "Theirs");
    await putIssue(otherSite, "20001", [theirs]);

    const res = await putIssue(site, "20001", [theirs]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ requirements: [`Requirement ${theirs} not found`] });

    const cleared = await putIssue(site, "20001", []);
    expect(cleared.status).toBe(200);
    expect(await linkedRequirementIds(ctx.deps.db, otherSite, "20001")).toEqual([theirs]);
  });

  it("refuses callers without an app token", async () => {
    const res = await request(ctx.app).put("/api/issue/20001").send({ requirements: [] });
    expect(res.status).toBe(401);
  });
});

describe("a Jira issue deleted (jira:issue_deleted webhook)", () => {
  it("removes every link to that issue, of requirements and folders, of that site only, and is safe to repeat", async () => {
    const site = await createTenant(ctx.deps.db);
    const otherSite = await createTenant(ctx.deps.db);
    const mine = await seedRequirement(ctx.deps.db, site, PROJECT, "Mine");
    const global = await seedRequirement(ctx.deps.db, site, 0, "Global");
    const theirs = await seedRequirement(ctx.deps.db, otherSite, PROJECT, "Theirs");
    await putIssue(site, "20002", [mine, global]);
    await putIssue(site, "20003", [mine]);
    await putIssue(otherSite, "20002", [theirs]);
    const [folder] = await ctx.deps
      .db("folders")
      .insert({ tenant_id: site.tenantId, project_id: PROJECT, name: "Release", created_by: "someone" })
      .returning("folder_id");
    await ctx.deps.db("folder_issues").insert([
      { tenant_id: site.tenantId, folder_id: folder.folder_id, atlassian_issue_id: "20002" },
      { tenant_id: site.tenantId, folder_id: folder.folder_id, atlassian_issue_id: "20003" },
    ]);

    expect(await removeLinksOfDeletedIssue(ctx.deps, appActor(site.tenantId), "20002")).toBe(3);
    expect(await removeLinksOfDeletedIssue(ctx.deps, appActor(site.tenantId), "20002")).toBe(0);

    const folderIssues = await ctx.deps.db("folder_issues").where({ tenant_id: site.tenantId }).pluck("atlassian_issue_id");
    expect(folderIssues).toEqual(["20003"]);
    expect(await linkedRequirementIds(ctx.deps.db, site, "20002")).toEqual([]);
    expect(await linkedRequirementIds(ctx.deps.db, site, "20003")).toEqual([mine]);
    expect(await linkedRequirementIds(ctx.deps.db, otherSite, "20002")).toEqual([theirs]);
  });
});
