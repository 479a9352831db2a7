import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, insertRequirementRow, type TestContext, type TestTenant } from "../../test/helpers/app.js";
import { displayIdHolders } from "./requirements/index.js";
import { findReqifTargets, saveReqifTargets } from "./reqifStore.js";

const PROJECT = 42000;
let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await createTestApp();
  tenant = await createTenant(ctx.deps.db);
});
afterAll(() => ctx.destroy());

describe("the ReqIF identifiers of a large file", () => {
  it("are saved and found again past PostgreSQL's 65,535 bind parameters, and saved again update", async () => {
    const first = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Holds many identifiers", PROJECT);
    const second = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Takes them over", PROJECT);
    const identifiers = Array.from({ length: 14_000 }, (_, index) => `SO-${index}`);
    await saveReqifTargets(
      ctx.deps.db,
      tenant.tenantId,
      PROJECT,
      identifiers.map((identifier) => ({ identifier, target: { requirementId: first } })),
    );
    const found = await findReqifTargets(ctx.deps.db, tenant.tenantId, PROJECT, identifiers);
    expect(found.size).toBe(14_000);
    expect(found.get("SO-13999")).toEqual({ requirementId: first });

    await saveReqifTargets(ctx.deps.db, tenant.tenantId, PROJECT, [{ identifier: "SO-7", target: { requirementId: second } }]);
    expect((await findReqifTargets(ctx.deps.db, tenant.tenantId, PROJECT, ["SO-7", "SO-8"])).get("SO-7")).toEqual({
      requirementId: second,
    });
  });
});

describe("the holders of a file's custom IDs", () => {
  it("are the project's live requirements holding them, asked in one statement", async () => {
    const held = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Holds PUMP-1", PROJECT);
    const deleted = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Held PUMP-2 once", PROJECT);
    const elsewhere = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Holds PUMP-3 in another project", PROJECT + 1);
    await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: held }).update({ display_id: "PUMP-1" });
    await ctx.deps
      .db("requirements")
      .where({ tenant_id: tenant.tenantId, requirement_id: deleted })
      .update({ display_id: "PUMP-2", deleted_at: new Date() });
    await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: elsewhere }).update({ display_id: "PUMP-3" });
    const holders = await displayIdHolders(ctx.deps.db, tenant.tenantId, PROJECT, ["PUMP-1", "PUMP-2", "PUMP-3", "PUMP-4"]);
    expect([...holders]).toEqual([["PUMP-1", held]]);
    expect(await displayIdHolders(ctx.deps.db, tenant.tenantId, PROJECT, [])).toEqual(new Map());
  });
});
