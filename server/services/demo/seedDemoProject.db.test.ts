import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedJira } from "../../../emulator/seed/jira.js";
import { bearer, createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { DEMO_STORIES } from "./demoStories.js";
import { seedDemoProject } from "./seedDemoProject.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

const jira = seedJira();
const emulatedProject = (key: string) => {
  const project = jira.projects.find((p) => p.key === key);
  if (!project) throw new Error(`no emulated project ${key}`);
  return { project, issues: jira.issues.filter((issue) => issue.projectId === project.id) };
};

describe("the demo project", () => {
  it.each(jira.projects.map((project) => project.key))("tells %s's own story, linked to that project's issues", (key) => {
    const story = DEMO_STORIES[key];
    expect(story, `a demo story for ${key}`).toBeDefined();
    const { issues } = emulatedProject(key);
    const levelOf = new Map(story?.requirements.map((r) => [r.key, r.level]));
    for (const requirement of story?.requirements ?? []) {
      expect(requirement.issueKeys.length, requirement.name).toBeGreaterThan(0);
      for (const issueKey of requirement.issueKeys) expect(issues.map((issue) => issue.key)).toContain(issueKey);
      for (const link of requirement.links) expect(levelOf.get(link)).toBe(requirement.level - 1);
    }
  });

  it("fills an empty project with folders and linked requirements of every default level, once", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    const { project, issues } = emulatedProject("PUMP");
    const actor = { tenantId: tenant.tenantId, accountId: "557058:demo" };
    const demo = { projectId: Number(project.id), projectKey: project.key, issues };
    await seedDemoProject(ctx.deps, actor, demo);
    await seedDemoProject(ctx.deps, actor, demo);

    const items = await request(ctx.app).get("/api/item/primary").query({ atlassian_project_id: project.id }).set("Authorization", auth);
    expect(items.body.items.filter((item: { type: string }) => item.type === "folder").map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(["Clinical needs", "System requirements", "Firmware"]),
    );
    const list = await request(ctx.app).get("/api/requirement").query({ atlassian_project_id: project.id }).set("Authorization", auth);
    expect(list.body.requirements).toHaveLength(DEMO_STORIES.PUMP?.requirements.length ?? 0);
    expect(new Set(list.body.requirements.map((r: { level: number }) => r.level))).toEqual(new Set([1, 2, 3, 4]));

    const rateEngine = list.body.requirements.find((r: { name: string }) => r.name === "Fixed-point rate and limit calculation");
    const detail = await request(ctx.app).get(`/api/requirement/${rateEngine.requirement_id}`).set("Authorization", auth);
    expect(detail.body.linked_requirements_v2).toEqual([expect.objectContaining({ level: 3, name: "Drug library limit check" })]);
    const linkedSummaries = detail.body.issues.map(
      (link: { atlassian_issue_id: string }) => issues.find((issue) => issue.id === link.atlassian_issue_id)?.summary,
    );
    expect(linkedSummaries.sort()).toEqual([
      "Rounding error in infusion rate at low rates",
      "Write verification protocol for the infusion rate",
    ]);
  });

  it("leaves a project without a story alone", async () => {
    const tenant = await createTenant(ctx.deps.db);
    await seedDemoProject(
      ctx.deps,
      { tenantId: tenant.tenantId, accountId: "557058:demo" },
      { projectId: 10999, projectKey: "OTHER", issues: [] },
    );
    const rows = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId }).select("requirement_id");
    expect(rows).toEqual([]);
  });
});
