import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createSignedInApp,
  createTenant,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";

const PROJECT = 10000;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let systemTypeId: number;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  systemTypeId = (await seedRequirementTypes(ctx.deps.db, tenant.tenantId)).SYS as number;
});
afterAll(() => ctx.destroy());

const api = () => request(ctx.app);
const newFolder = async (name: string, parent: number | null = null, project = PROJECT) => {
  const res = await api().post("/api/folder").set("Authorization", auth).send({ name, parent_folder_id: parent, project });
  expect(res.status).toBe(201);
  return res.body.folder_id as number;
};
const newRequirement = async (name: string, parent: number | null) => {
  const res = await api()
    .post("/api/requirement")
    .set("Authorization", auth)
    .send({ name, requirement_type_id: systemTypeId, project: PROJECT, parent_folder_id: parent });
  expect(res.status).toBe(201);
  return res.body.requirement_id as number;
};

describe("folders", () => {
  it("creates a folder and answers it in the spec's shape", async () => {
    const res = await api()
      .post("/api/folder")
      .set("Authorization", auth)
      .send({ name: "  Interfaces ", parent_folder_id: null, project: String(PROJECT) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      folder_id: expect.any(Number),
      name: "Interfaces",
      description: "",
      type: "folder",
      parent_folder_id: null,
      issues: [],
      has_descendant_folders: false,
      has_descendant_requirements: false,
      descendants: [],
      project: PROJECT,
    });
    const read = await api().get(`/api/folder/${res.body.folder_id}`).set("Authorization", auth);
    expect(read.body).toEqual(res.body);
  });

  it("refuses a folder without a name, with more than 100 characters or with a backslash", async () => {
    for (const [name, message] of [
      ["", "Required"],
      [undefined, "Required"],
      ["x".repeat(101), "Enter no more than 100 characters"],
      ["a\\b", "The name cannot contain a backslash (\\)"],
    ] as const) {
      const res = await api().post("/api/folder").set("Authorization", auth).send({ name, project: PROJECT });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: [message] });
    }
    const ok = await api()
      .post("/api/folder")
      .set("Authorization", auth)
      .send({ name: "x".repeat(100), project: PROJECT });
    expect(ok.status).toBe(201);
  });

  it("refuses a parent folder of another project", async () => {
    const elsewhere = await newFolder("Elsewhere", null, 20000);
    const res = await api()
      .post("/api/folder")
      .set("Authorization", auth)
      .send({ name: "Child", parent_folder_id: elsewhere, project: PROJECT });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ parent_folder_id: ["The folder does not exist in this project"] });
  });

  it("lists top-level folders and the direct subfolders of a folder with descendant flags", async () => {
    const top = await newFolder("Top for listing", null, 30000);
    const child = await newFolder("Child", top, 30000);
    await newFolder("Grandchild", child, 30000);

    const primary = await api().get("/api/folder/primary").query({ atlassian_project_id: 30000 }).set("Authorization", auth);
    expect(primary.status).toBe(200);
    expect(primary.body.folders).toEqual([
      expect.objectContaining({ folder_id: top, has_descendant_folders: true, has_descendant_requirements: false }),
    ]);
    const sub = await api().get(`/api/folder/${top}/descendant`).query({ atlassian_project_id: 30000 }).set("Authorization", auth);
    expect(sub.body.folders).toEqual([expect.objectContaining({ folder_id: child, parent_folder_id: top, has_descendant_folders: true })]);
  });

  it("edits name, description and linked issues; the name stays required", async () => {
    const id = await newFolder("Draft");
    const res = await api()
      .put(`/api/folder/${id}`)
      .set("Authorization", auth)
      .send({ name: "Final", description: "All final things", issues: ["10001", { atlassian_issue_id: "10002" }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      folder_id: id,
      name: "Final",
      description: "All final things",
      issues: [{ atlassian_issue_id: "10001" }, { atlassian_issue_id: "10002" }],
      parent_folder_id: null,
    });
    const empty = await api().put(`/api/folder/${id}`).set("Authorization", auth).send({ name: "" });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ name: ["Required"] });
  });

  it("moves a folder by sending it whole with a new parent, and back to the top level", async () => {
    const target = await newFolder("Target");
    const moving = await newFolder("Moving");
    const folder = (await api().get(`/api/folder/${moving}`).set("Authorization", auth)).body;
    const moved = await api()
      .put(`/api/folder/${moving}`)
      .set("Authorization", auth)
      .send({ ...folder, parent_folder_id: target });
    expect(moved.status).toBe(200);
    expect(moved.body.parent_folder_id).toBe(target);
    const parent = await api().get(`/api/folder/${target}`).set("Authorization", auth);
    expect(parent.body.has_descendant_folders).toBe(true);

    const back = await api()
      .put(`/api/folder/${moving}`)
      .set("Authorization", auth)
      .send({ ...folder, parent_folder_id: null });
    expect(back.body.parent_folder_id).toBeNull();
  });

  it("refuses to move a folder into itself or into one of its descendants", async () => {
    const a = await newFolder("A");
    const b = await newFolder("B", a);
    const c = await newFolder("C", b);
    for (const target of [a, b, c]) {
      const res = await api().put(`/api/folder/${a}`).set("Authorization", auth).send({ name: "A", parent_folder_id: target });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ parent_folder_id: ["A folder cannot be moved into itself or one of its subfolders"] });
    }
    const unchanged = await api().get(`/api/folder/${a}`).set("Authorization", auth);
    expect(unchanged.body.parent_folder_id).toBeNull();
  });

  it("deletes a folder with its subfolders and requirements, keeping their history readable", async () => {
    const root = await newFolder("Doomed");
    const sub = await newFolder("Doomed child", root);
    const inRoot = await newRequirement("In root", root);
    const inSub = await newRequirement("In sub", sub);
    const outside = await newRequirement("Outside", null);

    const res = await api().delete(`/api/folder/${root}`).set("Authorization", auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ folder_id: root });

    for (const id of [root, sub]) {
      expect((await api().get(`/api/folder/${id}`).set("Authorization", auth)).status).toBe(404);
    }
    for (const id of [inRoot, inSub]) {
      expect((await api().get(`/api/requirement/${id}`).set("Authorization", auth)).status).toBe(404);
      const revisions = await api().get(`/api/requirement/${id}/revision`).set("Authorization", auth);
      expect(revisions.body.revisions[0]).toMatchObject({ revision: 2, action: "deleted" });
    }
    expect((await api().get(`/api/requirement/${outside}`).set("Authorization", auth)).status).toBe(200);
    const items = await api().get("/api/item/primary").query({ atlassian_project_id: PROJECT }).set("Authorization", auth);
    const ids = items.body.items.map((item: { folder_id?: number }) => item.folder_id);
    expect(ids).not.toContain(root);
  });

  it("keeps folders to their site", async () => {
    const id = await newFolder("Private");
    const otherAuth = await bearer(ctx, await createTenant(ctx.deps.db));
    const primary = await api().get("/api/folder/primary").query({ atlassian_project_id: PROJECT }).set("Authorization", otherAuth);
    expect(primary.body).toEqual({ folders: [], offset: 0, limit: 1000, has_more: false });
    expect((await api().get(`/api/folder/${id}`).set("Authorization", otherAuth)).status).toBe(404);
    expect((await api().get(`/api/folder/${id}/descendant`).set("Authorization", otherAuth)).status).toBe(404);
    expect((await api().put(`/api/folder/${id}`).set("Authorization", otherAuth).send({ name: "Mine" })).status).toBe(404);
    expect((await api().delete(`/api/folder/${id}`).set("Authorization", otherAuth)).status).toBe(404);
    const child = await api()
      .post("/api/folder")
      .set("Authorization", otherAuth)
      .send({ name: "Sneaky", parent_folder_id: id, project: PROJECT });
    expect(child.status).toBe(400);
    expect((await api().get(`/api/folder/${id}`).set("Authorization", auth)).body.name).toBe("Private");
  });
});
