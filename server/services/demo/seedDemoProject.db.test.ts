import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { seedDemoProject } from "./seedDemoProject.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

describe("the demo project", () => {
  it("fills an empty project with folders and linked requirements of every default level, once", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    const actor = { tenantId: tenant.tenantId, accountId: "557058:demo" };
    const demo = { projectId: 10000, issueIds: ["10001", "10002"] };
    await seedDemoProject(ctx.deps, actor, demo);
    await seedDemoProject(ctx.deps, actor, demo);

    const items = await request(ctx.app).get("/api/item/primary").query({ atlassian_project_id: 10000 }).set("Authorization", auth);
    expect(items.body.items.filter((item: { type: string }) => item.type === "folder")).toHaveLength(3);
    const list = await request(ctx.app).get("/api/requirement").query({ atlassian_project_id: 10000 }).set("Authorization", auth);
    expect(list.body.requirements).toHaveLength(8);
    expect(new Set(list.body.requirements.map((r: { level: number }) => r.level))).toEqual(new Set([1, 2, 3, 4]));

    const software = list.body.requirements.find((r: { level: number }) => r.level === 4);
    const detail = await request(ctx.app).get(`/api/requirement/${software.requirement_id}`).set("Authorization", auth);
    expect(detail.body.linked_requirements_v2).toEqual([expect.objectContaining({ level: 3 })]);
    expect(detail.body.issues.length).toBe(1);
  });
});
