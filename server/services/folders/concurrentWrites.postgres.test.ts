import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import type { Db } from "../../db/knex.js";
import { openTransaction, started, untilWaiting } from "../../../test/helpers/concurrency.js";
import { FOLDER_CYCLE_MESSAGE } from "./updateFolder.js";

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

async function newFolder(name: string, parent: number | null = null): Promise<number> {
  const res = await api().post("/api/folder").set("Authorization", auth).send({ name, parent_folder_id: parent, project: PROJECT });
  expect(res.status).toBe(201);
  return res.body.folder_id;
}
async function newRequirement(name: string, parent: number | null = null, type = "SYS"): Promise<number> {
  const res = await api()
    .post("/api/requirement")
    .set("Authorization", auth)
    .send({ name, requirement_type_id: types[type], project: PROJECT, parent_folder_id: parent });
  expect(res.status).toBe(201);
  return res.body.requirement_id;
}

/** The 'updated' revision someone else is writing for a requirement, not committed yet: a save of its next revision waits for it. */
const pendingRevision = (trx: Db, requirementId: number, revision: number) =>
  trx("requirement_revisions").insert({
    tenant_id: tenant.tenantId,
    requirement_id: requirementId,
    revision,
    account_id: "557058:someone-else",
    action: "updated",
    changed_fields: [],
    snapshot: {},
  });

const activeFolderOf = async (requirementId: number) => {
  const row = await ctx.deps
    .db("requirements as r")
    .leftJoin("folders as f", function () {
      this.on("f.tenant_id", "r.tenant_id").andOn("f.folder_id", "r.parent_folder_id");
    })
    .where({ "r.tenant_id": tenant.tenantId, "r.requirement_id": requirementId })
    .first("r.deleted_at", "r.parent_folder_id", "f.deleted_at as folder_deleted_at");
  return row;
};

// Two transactions at once need two connections: PGlite is one connection in the process.
describe("folders and requirements written at the same moment", () => {
  it("two folder moves that would close a cycle together: one is refused, the tree keeps a top level", async () => {
    const x = await newFolder("Alarms");
    const xChild = await newFolder("Alarm limits", x);
    const y = await newFolder("Dosing");
    const yChild = await newFolder("Dose limits", y);
    const other = await openTransaction(ctx.deps.db);
    // Each move's update waits on its new parent (the foreign key's check) after it has read that parent's ancestors.
    await other.trx("folders").where({ tenant_id: tenant.tenantId }).whereIn("folder_id", [xChild, yChild]).forUpdate().select("folder_id");
    const moveX = started(api().put(`/api/folder/${x}`).set("Authorization", auth).send({ name: "Alarms", parent_folder_id: yChild }));
    const moveY = started(api().put(`/api/folder/${y}`).set("Authorization", auth).send({ name: "Dosing", parent_folder_id: xChild }));
    await untilWaiting(ctx.deps.db, other.pid, 2);
    await other.trx.commit();

    const answers = [await moveX, await moveY].map((res) => ({ status: res.status, body: res.status === 200 ? "moved" : res.body }));
    expect(answers).toEqual(
      expect.arrayContaining([
        { status: 200, body: "moved" },
        { status: 400, body: { parent_folder_id: [FOLDER_CYCLE_MESSAGE] } },
      ]),
    );
    const top = await ctx.deps
      .db("folders")
      .where({ tenant_id: tenant.tenantId, project_id: PROJECT })
      .whereIn("folder_id", [x, y])
      .whereNull("parent_folder_id")
      .pluck("folder_id");
    expect(top).toHaveLength(1);
  });

  it("a requirement moved into a folder while the folder is being deleted is not left inside the deleted folder", async () => {
    const folder = await newFolder("Obsolete interfaces");
    const inFolder = await newRequirement("Serial port baud rate", folder);
    const moving = await newRequirement("USB enumeration");
    const other = await openTransaction(ctx.deps.db);
    await pendingRevision(other.trx, inFolder, 2);
    const deleting = started(api().delete(`/api/folder/${folder}`).set("Authorization", auth));
    await untilWaiting(ctx.deps.db, other.pid, 1);
    const move = started(
      api()
        .post("/api/requirement/move/bulk")
        .set("Authorization", auth)
        .send({ parent_folder_id: folder, requirements: [moving] }),
    );
    await Promise.race([move, untilWaiting(ctx.deps.db, other.pid, 2)]);
    await other.trx.rollback();

    expect((await deleting).status).toBe(200);
    const moved = await move;
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ parent_folder_id: ["The folder does not exist in this project"] });
    expect(await activeFolderOf(moving)).toMatchObject({ deleted_at: null, parent_folder_id: null });
  });

  it("a link saved to a requirement while it is being deleted is refused, and the deleted requirement keeps no link", async () => {
    const target = await newRequirement("Occlusion alarm", null, "SW");
    const saving = await newRequirement("Alarm handling", null, "SYS");
    const other = await openTransaction(ctx.deps.db);
    await pendingRevision(other.trx, target, 2);
    const deleting = started(
      api()
        .post("/api/requirement/delete/bulk")
        .set("Authorization", auth)
        .send({ requirements: [target] }),
    );
    await untilWaiting(ctx.deps.db, other.pid, 1);
    const save = started(
      api()
        .put(`/api/requirement/${saving}`)
        .set("Authorization", auth)
        .send({ name: "Alarm handling", linked_requirements: [target] }),
    );
    await Promise.race([save, untilWaiting(ctx.deps.db, other.pid, 2)]);
    await other.trx.rollback();

    expect((await deleting).status).toBe(200);
    const saved = await save;
    expect(saved.status).toBe(400);
    expect(saved.body).toEqual({ linked_requirements: [`Linked requirement ${target} does not exist`] });
    const links = await ctx.deps.db("requirement_links").where({ tenant_id: tenant.tenantId }).whereIn("requirement_id", [target, saving]);
    expect(links).toEqual([]);
  });
});
