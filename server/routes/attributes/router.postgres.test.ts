import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { openTransaction, untilWaiting } from "../../../test/helpers/concurrency.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
});
afterAll(() => ctx.destroy());

const createField = async (body: Record<string, unknown>) => request(ctx.app).post("/api/attribute").set("Authorization", auth).send(body);

// Two transactions at once need two connections: PGlite is one connection in the process.
describe("two custom fields of one name created at the same moment", () => {
  it("creates one and refuses the other, so the CSV import still finds one field by the name", async () => {
    const other = await openTransaction(ctx.deps.db);
    // Each create's insert waits on the site's row (its foreign key's check), after its name check.
    await other.trx("tenants").where({ tenant_id: tenant.tenantId }).forUpdate().select("tenant_id");
    const body = { name: "Verification method", project: 10040, type: "string" };
    const first = createField(body);
    const second = createField({ ...body, name: "verification METHOD" });
    await untilWaiting(ctx.deps.db, other.pid, 2);
    await other.trx.commit();

    const answers = [await first, await second].map((res) => ({ status: res.status, body: res.status === 201 ? "created" : res.body }));
    expect(answers).toEqual(
      expect.arrayContaining([
        { status: 201, body: "created" },
        { status: 400, body: { name: ["A custom field with this name already exists in this project"] } },
      ]),
    );
    expect(await ctx.deps.db("attributes").where({ tenant_id: tenant.tenantId, project_id: 10040 })).toHaveLength(1);
  });
});
