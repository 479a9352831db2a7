import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { putImportFile } from "../../../test/helpers/csvImport.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import { reqifFixture } from "../../../test/helpers/reqif.js";
import type { HostCall } from "../../connect/hostClient.js";

/** A project the person may not browse in Jira, and one they may browse but not edit. */
const HIDDEN = 61000;
const READ_ONLY = 62000;

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;

beforeAll(async () => {
  ctx = await createTestApp({
    hostClient: {
      call: async <T>(_tenantId: string, _product: string, call: HostCall): Promise<T> => {
        if (!isPermissionCheck(call)) throw new Error(`unexpected host call ${call.path}`);
        return permissionCheckAnswer(call, {
          mayBrowseProject: (_account, project) => project !== HIDDEN,
          holds: (_account, project) => project !== READ_ONLY,
        }) as T;
      },
    },
  });
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
});
afterAll(() => ctx.destroy());

describe("ReqIF routes and Jira's permissions", () => {
  it("export a project the person may not browse as if it had nothing", async () => {
    const res = await request(ctx.app).post("/api/requirement/export/reqif").set("Authorization", auth).send({ atlassian_project_id: HIDDEN });
    expect(res.status).toBe(404);
  });

  it("refuse an import into a project the person may only read", async () => {
    const fileName = await putImportFile(ctx.deps, tenant.tenantId, reqifFixture("doors-04.reqif"), "a.reqif");
    const res = await request(ctx.app)
      .post("/api/import-reqif")
      .set("Authorization", auth)
      .send({ atlassian_project_id: READ_ONLY, file_name: fileName, original_file_name: "a.reqif", parent_folder_id: null });
    expect(res.status).toBe(403);
    expect(await ctx.deps.db("jobs").where({ tenant_id: tenant.tenantId })).toEqual([]);
  });

  it("answer 400 with the field for a request that is not one", async () => {
    const res = await request(ctx.app).post("/api/import-reqif").set("Authorization", auth).send({ atlassian_project_id: 1 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["file_name", "original_file_name"]);
  });
});
