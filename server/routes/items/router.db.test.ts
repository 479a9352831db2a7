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
    expect(primary.body).toEqual({ items: [], total_items: 0 });
    const children = await api()
      .get(`/api/item/${folder.folder_id}/descendant`)
      .query({ atlassian_project_id: 50000 })
      .set("Authorization", otherAuth);
    expect(children.status).toBe(404);
  });

  it("answers a level a window at a time, never more than 1,000 items, with the level's total", async () => {
    const site = await createTenant(ctx.deps.db);
    const siteAuth = await bearer(ctx, site);
    const typeId = (await seedRequirementTypes(ctx.deps.db, site.tenantId)).SYS;
    const [holder] = await ctx.deps
      .db("folders")
      .insert({ tenant_id: site.tenantId, project_id: PROJECT, name: "Holder", created_by: "t" })
      .returning("folder_id");
    const folderNames = ["Beta", "Alpha", "Gamma"];
    for (const parent of [null, holder.folder_id]) {
      await ctx.deps
        .db("folders")
        .insert(
          folderNames.map((name) => ({ tenant_id: site.tenantId, project_id: PROJECT, parent_folder_id: parent, name, created_by: "t" })),
        );
    }
    const ids: number[] = [];
    for (let start = 0; start < 1200; start += 400) {
      const rows = Array.from({ length: 400 }, (_, i) => ({
        tenant_id: site.tenantId,
        project_id: PROJECT,
        parent_folder_id: holder.folder_id,
        requirement_type_id: typeId,
        name: `Requirement ${start + i}`,
        created_by: "t",
      }));
      ids.push(...(await ctx.deps.db("requirements").insert(rows).returning("requirement_id")).map((row) => Number(row.requirement_id)));
    }
    const level = (query: Record<string, unknown>) =>
      api()
        .get(`/api/item/${holder.folder_id}/descendant`)
        .query({ atlassian_project_id: PROJECT, ...query })
        .set("Authorization", siteAuth);
    const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name);

    const whole = await level({});
    expect(whole.status).toBe(200);
    expect(whole.body.total_items).toBe(1203);
    expect(whole.body.items).toHaveLength(1000);
    expect(names(whole.body).slice(0, 4)).toEqual(["Alpha", "Beta", "Gamma", "Requirement 0"]);

    // A window across the folders' end and into the requirements, then one at the very end.
    const across = await level({ offset: 2, limit: 3 });
    expect(names(across.body)).toEqual(["Gamma", "Requirement 0", "Requirement 1"]);
    const last = await level({ offset: 1200, limit: 50 });
    expect(last.body.items.map((item: { requirement_id: number }) => item.requirement_id)).toEqual(ids.slice(-3));
    expect((await level({ offset: 5000 })).body).toEqual({ items: [], total_items: 1203 });

    const top = await api()
      .get("/api/item/primary")
      .query({ atlassian_project_id: PROJECT, limit: 2, expand: holder.folder_id })
      .set("Authorization", siteAuth);
    expect(top.body.total_items).toBe(4);
    expect(names(top.body)).toEqual(["Alpha", "Beta"]);
    const opened = await api()
      .get("/api/item/primary")
      .query({ atlassian_project_id: PROJECT, offset: 3, limit: 1, expand: holder.folder_id })
      .set("Authorization", siteAuth);
    expect(names(opened.body)).toEqual(["Holder"]);
    expect(opened.body.items[0].descendants.map((item: { name: string }) => item.name)).toEqual(["Alpha"]);

    const tooMany = await level({ limit: 1001 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ limit: ["Must be at most 1000"] });
  });

  it("says where a requirement or folder deep in a large level sits, as the level's windows list it", async () => {
    const site = await createTenant(ctx.deps.db);
    const siteAuth = await bearer(ctx, site);
    const typeId = (await seedRequirementTypes(ctx.deps.db, site.tenantId)).SYS;
    const db = ctx.deps.db;
    const folder = async (name: string, parent: number | null) =>
      Number(
        (
          await db("folders")
            .insert({ tenant_id: site.tenantId, project_id: PROJECT, parent_folder_id: parent, name, created_by: "t" })
            .returning("folder_id")
        )[0].folder_id,
      );
    const requirements = async (parent: number | null, count: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({
        tenant_id: site.tenantId,
        project_id: PROJECT,
        parent_folder_id: parent,
        requirement_type_id: typeId,
        name: `Requirement ${i}`,
        created_by: "t",
      }));
      const ids: number[] = [];
      for (let start = 0; start < rows.length; start += 500) {
        const inserted = await db("requirements")
          .insert(rows.slice(start, start + 500))
          .returning("requirement_id");
        ids.push(...inserted.map((row) => Number(row.requirement_id)));
      }
      return ids;
    };
    // Two top-level folders of one name (the tree orders them by id), names out of order, a nested folder.
    await folder("Zeta", null);
    await folder("Holder", null);
    const holder = await folder("Holder", null);
    await folder("alpha", null);
    await folder("Beta", holder);
    const inner = await folder("Alpha", holder);
    const inHolder = await requirements(holder, 1200);
    const topLevel = await requirements(null, 1100);
    const [deep] = await requirements(inner, 1);
    // Deleted ones are not in the tree: the positions after them move up.
    await db("requirements")
      .whereIn("requirement_id", [inHolder[3], topLevel[10]] as number[])
      .update({ deleted_at: db.fn.now() });

    const position = (path: string) => api().get(path).set("Authorization", siteAuth);
    /** The item the tree shows at `position` of a level: the one item of the window starting there. */
    const itemAt = async (parentFolderId: number | null, offset: number) => {
      const level = await api()
        .get(parentFolderId === null ? "/api/item/primary" : `/api/item/${parentFolderId}/descendant`)
        .query({ atlassian_project_id: PROJECT, offset, limit: 1 })
        .set("Authorization", siteAuth);
      return level.body.items[0] as { type: string; folder_id?: number; requirement_id?: number };
    };
    /** Each level's position names the folder the next level is in, and the last the item itself. */
    const expectPlaced = async (levels: { parent_folder_id: number | null; position: number }[], item: object) => {
      expect(levels[0]?.parent_folder_id).toBeNull();
      for (const [n, level] of levels.entries()) {
        const next = levels[n + 1];
        await expect(itemAt(level.parent_folder_id, level.position)).resolves.toMatchObject(
          next ? { type: "folder", folder_id: next.parent_folder_id } : item,
        );
      }
    };

    const nearEnd = inHolder[1190] as number;
    const inFolder = await position(`/api/item/requirement/${nearEnd}/position`);
    expect(inFolder.status).toBe(200);
    // Holder's 2 folders, then its requirements by id, less the deleted one before it.
    expect(inFolder.body).toEqual({
      project: PROJECT,
      levels: [
        { parent_folder_id: null, position: expect.any(Number) },
        { parent_folder_id: holder, position: 2 + 1190 - 1 },
      ],
    });
    await expectPlaced(inFolder.body.levels, { requirement_id: nearEnd });

    const deepInTop = topLevel[1050] as number;
    const top = await position(`/api/item/requirement/${deepInTop}/position`);
    expect(top.body).toEqual({ project: PROJECT, levels: [{ parent_folder_id: null, position: 4 + 1050 - 1 }] });
    await expectPlaced(top.body.levels, { requirement_id: deepInTop });

    const nested = await position(`/api/item/requirement/${deep}/position`);
    expect(nested.body.levels.map((level: { parent_folder_id: number | null }) => level.parent_folder_id)).toEqual([null, holder, inner]);
    await expectPlaced(nested.body.levels, { requirement_id: deep });

    const ofFolder = await position(`/api/item/folder/${inner}/position`);
    expect(ofFolder.status).toBe(200);
    expect(ofFolder.body.levels).toHaveLength(2);
    await expectPlaced(ofFolder.body.levels, { type: "folder", folder_id: inner });

    const deleted = await position(`/api/item/requirement/${inHolder[3]}/position`);
    expect(deleted.status).toBe(404);
    expect(deleted.body).toEqual({ Result: "Requirement not found" });
    const otherSite = await api().get(`/api/item/requirement/${nearEnd}/position`).set("Authorization", auth);
    expect(otherSite.status).toBe(404);
    expect((await api().get(`/api/item/folder/${inner}/position`).set("Authorization", auth)).status).toBe(404);
  });
});
