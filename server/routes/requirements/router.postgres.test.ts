import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedInApp, postRequirement, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { openTransaction, started, untilWaiting } from "../../../test/helpers/concurrency.js";
import { uploadAttachment } from "../../../test/helpers/storage.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let systemTypeId: number | undefined;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  systemTypeId = (await seedRequirementTypes(ctx.deps.db, tenant.tenantId)).SYS;
});
afterAll(() => ctx.destroy());

const patch = (id: number, body: Record<string, unknown>) =>
  request(ctx.app).patch(`/api/requirement/${id}`).set("Authorization", auth).send(body);
const attachmentsOf = async (id: number) =>
  (await request(ctx.app).get(`/api/requirement/${id}`).set("Authorization", auth)).body.attachments;

describe("editing a requirement", () => {
  // Two transactions at once need two connections: PGlite is one connection in the process.
  it("gives a new upload named by two saves at the same moment to one requirement, refusing the other", async () => {
    const first = await postRequirement(ctx, auth, "Pump housing", systemTypeId);
    const second = await postRequirement(ctx, auth, "Pump cover", systemTypeId);
    const file = {
      original_file_name: "drawing.pdf",
      uuid_file_name: (await uploadAttachment(ctx, auth, "drawing.pdf", "application/pdf", "drawing.pdf bytes")).uuid,
    };
    const other = await openTransaction(ctx.deps.db);
    await other
      .trx("attachments")
      .where({ tenant_id: tenant.tenantId, uuid_file_name: file.uuid_file_name })
      .forUpdate()
      .select("uuid_file_name");
    const saves = [first, second].map((requirementId) => started(patch(requirementId, { attachments: [file] })));
    await untilWaiting(ctx.deps.db, other.pid, 2);
    await other.trx.commit();

    const statuses = (await Promise.all(saves)).map((res) => res.status).sort();
    expect(statuses).toEqual([200, 400]);
    const holders = await Promise.all([first, second].map(attachmentsOf));
    expect(holders.flat()).toEqual([file]);
  });
});
