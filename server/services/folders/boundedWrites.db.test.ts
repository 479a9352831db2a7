import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { WRITE_BATCH_ROWS } from "../batches.js";

const PROJECT = 10000;
/** More than a batch, so a batch boundary falls between linked requirements. */
const COUNT = WRITE_BATCH_ROWS + 300;
/** Thousands of revisions written on a busy machine. */
const SLOW = 180_000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

/** The most rows any statement answered while `work` ran: what one read of the set would have cost. */
async function largestAnswer(work: () => Promise<unknown>): Promise<number> {
  let largest = 0;
  const listener = (response: unknown) => {
    const rows = Array.isArray(response) ? response : (response as { rows?: unknown[] } | undefined)?.rows;
    if (Array.isArray(rows)) largest = Math.max(largest, rows.length);
  };
  ctx.deps.db.on("query-response", listener);
  try {
    await work();
  } finally {
    ctx.deps.db.off("query-response", listener);
  }
  return largest;
}

/** A folder (with a subfolder) holding COUNT requirements, each linked to the next; one outside links in. */
async function seedFolder(tenant: TestTenant) {
  const db = ctx.deps.db;
  const typeId = (await seedRequirementTypes(db, tenant.tenantId)).SYS as number;
  const [root] = await db("folders")
    .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, name: "Pump", created_by: "t" })
    .returning("folder_id");
  const [sub] = await db("folders")
    .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, name: "Alarms", parent_folder_id: root.folder_id, created_by: "t" })
    .returning("folder_id");
  const ids: number[] = [];
  for (let start = 0; start < COUNT; start += 500) {
    const rows = Array.from({ length: Math.min(500, COUNT - start) }, (_, i) => ({
      tenant_id: tenant.tenantId,
      project_id: PROJECT,
      parent_folder_id: (start + i) % 2 === 0 ? root.folder_id : sub.folder_id,
      requirement_type_id: typeId,
      name: `Requirement ${start + i}`,
      created_by: "557058:test-user",
    }));
    ids.push(...(await db("requirements").insert(rows).returning("requirement_id")).map((row) => Number(row.requirement_id)));
  }
  const [outside] = await db("requirements")
    .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, requirement_type_id: typeId, name: "Outside", created_by: "t" })
    .returning("requirement_id");
  const links = ids.slice(1).map((id, i) => ({ tenant_id: tenant.tenantId, requirement_id: ids[i], linked_requirement_id: id }));
  // A link is stored once, from the lower id to the higher.
  links.push({
    tenant_id: tenant.tenantId,
    requirement_id: ids[WRITE_BATCH_ROWS] as number,
    linked_requirement_id: Number(outside.requirement_id),
  });
  for (let start = 0; start < links.length; start += 500) await db("requirement_links").insert(links.slice(start, start + 500));
  return { root: Number(root.folder_id), ids, outside: Number(outside.requirement_id) };
}

const revisionsOf = (tenant: TestTenant, id: number) =>
  ctx.deps.db("requirement_revisions").where({ tenant_id: tenant.tenantId, requirement_id: id }).orderBy("revision");

describe("writes over thousands of requirements", () => {
  it(
    "deletes a folder of 1,300 requirements in bounded batches, with the same all-or-nothing result",
    async () => {
      const tenant = await createTenant(ctx.deps.db);
      const { root, ids, outside } = await seedFolder(tenant);
      const auth = await bearer(ctx, tenant);

      let status = 0;
      const largest = await largestAnswer(async () => {
        status = (await request(ctx.app).delete(`/api/folder/${root}`).set("Authorization", auth)).status;
      });
      expect(status).toBe(200);
      expect(largest).toBeLessThanOrEqual(WRITE_BATCH_ROWS);

      const left = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId }).whereNull("deleted_at").pluck("requirement_id");
      expect(left.map(Number)).toEqual([outside]);
      expect(Number((await ctx.deps.db("requirement_links").where({ tenant_id: tenant.tenantId }).count("* as n").first())?.n)).toBe(0);
      // A requirement on the far side of a batch boundary still froze its links to both neighbours.
      const [deleted] = (await revisionsOf(tenant, ids[WRITE_BATCH_ROWS] as number)).slice(-1);
      expect(deleted).toMatchObject({ action: "deleted" });
      const frozen = JSON.stringify(deleted.snapshot);
      for (const neighbour of [ids[WRITE_BATCH_ROWS - 1], ids[WRITE_BATCH_ROWS + 1], outside]) expect(frozen).toContain(String(neighbour));
      expect((await revisionsOf(tenant, outside)).slice(-1)[0]).toMatchObject({
        action: "updated",
        changed_fields: ["linked_requirements"],
      });
    },
    SLOW,
  );

  it(
    "moves 1,300 requirements in bounded batches, and moves none when one of them is missing",
    async () => {
      const tenant = await createTenant(ctx.deps.db);
      const { ids } = await seedFolder(tenant);
      const auth = await bearer(ctx, tenant);
      const [target] = await ctx.deps
        .db("folders")
        .insert({ tenant_id: tenant.tenantId, project_id: PROJECT, name: "Target", created_by: "t" })
        .returning("folder_id");
      const move = (requirements: number[]) =>
        request(ctx.app)
          .post("/api/requirement/move/bulk")
          .set("Authorization", auth)
          .send({ parent_folder_id: target.folder_id, requirements });

      const refused = await move([...ids, 999_999_999]);
      expect(refused.status).toBe(404);
      expect(Number((await ctx.deps.db("requirements").where({ parent_folder_id: target.folder_id }).count("* as n").first())?.n)).toBe(0);

      let status = 0;
      const largest = await largestAnswer(async () => {
        status = (await move(ids)).status;
      });
      expect(status).toBe(200);
      expect(largest).toBeLessThanOrEqual(WRITE_BATCH_ROWS);
      expect(Number((await ctx.deps.db("requirements").where({ parent_folder_id: target.folder_id }).count("* as n").first())?.n)).toBe(
        COUNT,
      );
      expect((await revisionsOf(tenant, ids[COUNT - 1] as number)).slice(-1)[0]).toMatchObject({ action: "moved" });
    },
    SLOW,
  );
});
