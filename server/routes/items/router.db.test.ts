import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createSignedInApp, createTenant, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";

const PROJECT = 10000;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
});
afterAll(() => ctx.destroy());

const api = () => request(ctx.app);
const post = async (path: string, body: object) => {
  const res = await api().post(path).set("Authorization", auth).send(body);
  expect(res.status).toBe(201);
  return res.body;
};

describe("the item tree", () => {
  it("lists folders by name then requirements by id, and restores open folders in one call", async () => {
    const b = await post("/api/folder", { name: "B folder", project: PROJECT });
    const a = await post("/api/folder", { name: "A folder", project: PROJECT });
    const inner = await post("/api/folder", { name: "Inner", project: PROJECT, parent_folder_id: a.folder_id });
    const top = await post("/api/requirement", { name: "Top need", requirement_type_id: types.BR, project: PROJECT });
    const inA = await post("/api/requirement", {
      name: "In A",
      requirement_type_id: types.SW,
      project: PROJECT,
      parent_folder_id: a.folder_id,
      display_id: "A-1",
    });
    const deep = await post("/api/requirement", {
      name: "Deep",
      requirement_type_id: types.SYS,
      project: PROJECT,
      parent_folder_id: inner.folder_id,
    });

    const closed = await api().get("/api/item/primary").query({ atlassian_project_id: PROJECT }).set("Authorization", auth);
    expect(closed.status).toBe(200);
    expect(closed.body.items).toEqual([
      {
        folder_id: a.folder_id,
        name: "A folder",
        description: "",
        type: "folder",
        parent_folder_id: null,
        issues: [],
        has_descendant_folders: true,
        has_descendant_requirements: true,
        descendants: [],
      },
      expect.objectContaining({ folder_id: b.folder_id, has_descendant_folders: false, has_descendant_requirements: false }),
      {
        type: "requirement",
        requirement_id: top.requirement_id,
        display_id: null,
        prefix: "BR",
        name: "Top need",
        category: "HIGH_LEVEL",
        parent_folder_id: null,
      },
    ]);

    const open = await api()
      .get(`/api/item/primary?atlassian_project_id=${PROJECT}&expand=${a.folder_id}&expand=${inner.folder_id}`)
      .set("Authorization", auth);
    const folderA = open.body.items[0];
    expect(folderA.descendants).toEqual([
      expect.objectContaining({
        folder_id: inner.folder_id,
        descendants: [expect.objectContaining({ requirement_id: deep.requirement_id, prefix: "SYS", category: "LOW_LEVEL" })],
      }),
      expect.objectContaining({ requirement_id: inA.requirement_id, display_id: "A-1", prefix: "SW" }),
    ]);
    expect(open.body.items[1].descendants).toEqual([]);
  });

  it("lists the direct children of a folder", async () => {
    const folder = await post("/api/folder", { name: "Children", project: 40000 });
    const sub = await post("/api/folder", { name: "Sub", project: 40000, parent_folder_id: folder.folder_id });
    const req = await post("/api/requirement", {
      name: "Child",
      requirement_type_id: types.SR,
      project: 40000,
      parent_folder_id: folder.folder_id,
    });
    const res = await api()
      .get(`/api/item/${folder.folder_id}/descendant`)
      .query({ atlassian_project_id: 40000 })
      .set("Authorization", auth);
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: { folder_id?: number; requirement_id?: number }) => item.folder_id ?? item.requirement_id)).toEqual([
      sub.folder_id,
      req.requirement_id,
    ]);
    const wrongProject = await api()
      .get(`/api/item/${folder.folder_id}/descendant`)
      .query({ atlassian_project_id: PROJECT })
      .set("Authorization", auth);
    expect(wrongProject.status).toBe(404);
  });

  it("needs a project", async () => {
    const res = await api().get("/api/item/primary").set("Authorization", auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ atlassian_project_id: ["Required"] });
  });

  it("shows another site nothing", async () => {
    const folder = await post("/api/folder", { name: "Ours", project: 50000 });
    const otherAuth = await bearer(ctx, await createTenant(ctx.deps.db));
    const primary = await api().get("/api/item/primary").query({ atlassian_project_id: 50000 }).set("Authorization", otherAuth);
    expect(primary.body).toEqual({ items: [] });
    const children = await api()
      .get(`/api/item/${folder.folder_id}/descendant`)
      .query({ atlassian_project_id: 50000 })
      .set("Authorization", otherAuth);
    expect(children.status).toBe(404);
  });
});
