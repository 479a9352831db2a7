import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_IMPORT_BYTES } from "../../../common/schemas/storage.js";
import { bearer, createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { PUMP_COMPONENTS, PUMP_STATUSES, putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { storageKey } from "../../storage/objectStorage.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

describe("the import's size limit", () => {
  it("refuses a stored file over 512 MB (S3 cannot bound the upload) with 400 before any job starts, and deletes it", async () => {
    const tenant = await createTenant(ctx.deps.db);
    await seedDefaultRequirementTypes(ctx.deps, { tenantId: tenant.tenantId, accountId: "557058:test-user" });
    const typeId = (await listRequirementTypes(ctx.deps.db, tenant.tenantId))[0]?.requirement_type_id;
    const fileName = await putImportFile(ctx.deps, tenant.tenantId, "Summary\nPump stops on occlusion\n");
    const key = storageKey(tenant.tenantId, "imports", fileName);
    // What S3's HEAD answers for an object uploaded through a presigned PUT of any length.
    const head = ctx.deps.storage.head.bind(ctx.deps.storage);
    vi.spyOn(ctx.deps.storage, "head").mockImplementation(async (asked) =>
      asked === key ? { size: MAX_IMPORT_BYTES + 1, contentType: "text/csv" } : head(asked),
    );

    const res = await request(ctx.app)
      .post("/api/import-issues")
      .set("Authorization", await bearer(ctx, tenant))
      .send({
        file_name: fileName,
        requirement_type: typeId,
        location: null,
        atlassian_project_id: 10000,
        atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
        atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
        additional_headers: [],
        assign_based_on_component: false,
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ file_name: ["File size cannot exceed 512MB"] });
    expect(Number((await ctx.deps.db("jobs").where({ tenant_id: tenant.tenantId }).count("* as n").first())?.n)).toBe(0);
    vi.restoreAllMocks();
    expect(await ctx.deps.storage.head(key)).toBeUndefined();
  });
});
