import { parse as parseCsv } from "csv-parse/sync";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createTenant, createTestApp, insertRequirementRow, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { csvFixture, PUMP_COMPONENTS, PUMP_STATUSES, pumpHostClient, putImportFile } from "../../../test/helpers/csvImport.js";
import { isPermissionCheck } from "../../../test/helpers/fakeJira.js";
import type { HostCall } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { HOST_DATA_PROBLEM } from "../../services/issueLinks/findJiraIssue.js";
import { seedDefaultRequirementTypes } from "../../services/requirementTypes/seedDefaultRequirementTypes.js";

const PROJECT = 10000;
let ctx: TestContext;
let tenant: TestTenant;
let otherTenant: TestTenant;
let auth: string;
let otherAuth: string;
let typeId: number;

beforeAll(async () => {
  ctx = await createTestApp({ hostClient: pumpHostClient() }, { jobs: { work: true } });
  tenant = await createTenant(ctx.deps.db);
  otherTenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
  otherAuth = await bearer(ctx, otherTenant);
  for (const site of [tenant, otherTenant]) {
    await seedDefaultRequirementTypes(ctx.deps, { tenantId: site.tenantId, accountId: "557058:test-user" });
  }
  const types = await listRequirementTypes(ctx.deps.db, tenant.tenantId);
  typeId = types.find((type) => type.prefix === "SYS")?.requirement_type_id ?? 0;
});
afterAll(() => ctx.destroy());

const importBody = (fileName: string | undefined, overrides: Record<string, unknown> = {}) => ({
  file_name: fileName,
  requirement_type: typeId,
  location: null,
  atlassian_project_id: PROJECT,
  atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
  atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
  additional_headers: ["Priority"],
  assign_based_on_component: false,
  ...overrides,
});

const startImport = (body: object, authorization = auth) =>
  request(ctx.app).post("/api/import-issues").set("Authorization", authorization).send(body);

async function jobEnd(jobId: string, authorization = auth) {
  let body: Record<string, unknown> = {};
  await vi.waitFor(
    async () => {
      const res = await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", authorization);
      body = res.body;
      expect(["finished", "failed"]).toContain(body.status);
    },
    { timeout: 30_000, interval: 200 },
  );
  return body;
}

describe("POST /api/import-issues", () => {
  it("answers a job at once; the job imports the file and reports its rows", async () => {
    const file = await putImportFile(ctx.deps, tenant.tenantId, csvFixture("jira-export-valid.csv"));
    const res = await startImport(importBody(file));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ job_id: expect.any(String) });
    const end = await jobEnd(res.body.job_id);
    expect(end).toMatchObject({
      status: "finished",
      completed_rows: 7,
      total_rows: 7,
      result: { imported: 7, errors: [], error_count: 0 },
    });
    const names = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: PROJECT }).pluck("name");
    expect(names).toHaveLength(7);
  });

  it("fails the job with each bad row's number and reason, writing nothing", async () => {
    const file = await putImportFile(ctx.deps, tenant.tenantId, csvFixture("jira-export-one-bad-row.csv"));
    const res = await startImport(importBody(file, { atlassian_project_id: 10001 }));
    const end = await jobEnd(res.body.job_id);
    expect(end).toMatchObject({
      status: "failed",
      error: "Row 9: Name is required",
      result: { imported: 0, errors: [{ row: 9, reason: "Name is required" }], error_count: 1 },
    });
    expect(await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: 10001 })).toHaveLength(0);
  });

  it("refuses a missing type or file with 400 before any job starts", async () => {
    const jobsBefore = await ctx.deps.db("jobs").count({ n: "*" });
    const noType = await startImport(
      importBody(await putImportFile(ctx.deps, tenant.tenantId, "Name\nA\n"), { requirement_type: undefined }),
    );
    expect(noType.status).toBe(400);
    expect(noType.body).toEqual({ requirement_type: ["Required"] });
    const noFile = await startImport(importBody(undefined));
    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({ file_name: ["No file selected"] });
    const unknownType = await startImport(
      importBody(await putImportFile(ctx.deps, tenant.tenantId, "Name\nA\n"), { requirement_type: 999999 }),
    );
    expect(unknownType.status).toBe(400);
    expect(unknownType.body).toEqual({ requirement_type: ["Choose an existing requirement type"] });
    expect(await ctx.deps.db("jobs").count({ n: "*" })).toEqual(jobsBefore);
  });

  it("refuses another site's file, and another site cannot see the job", async () => {
    const file = await putImportFile(ctx.deps, tenant.tenantId, "Name\nSecret\n");
    const otherTypes = await listRequirementTypes(ctx.deps.db, otherTenant.tenantId);
    const refused = await startImport(importBody(file, { requirement_type: otherTypes[0]?.requirement_type_id }), otherAuth);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ file_name: ["The file was not found. Upload it again."] });

    const mine = await startImport(importBody(file, { atlassian_project_id: 10002 }));
    const status = await request(ctx.app).get(`/api/job/status/${mine.body.job_id}`).set("Authorization", otherAuth);
    expect(status.status).toBe(404);
    await jobEnd(mine.body.job_id);
  });
});

describe("GET /api/requirement/export", () => {
  it("streams the project's requirements as a dated CSV with Jira's names, spreadsheet-safe, without deleted ones or other projects", async () => {
    const file = await putImportFile(
      ctx.deps,
      tenant.tenantId,
      [
        "Name,ID,Description,Component/s,Component/s,Status",
        '"=cmd|calc",X-1,"a, ""b""\nc",Dosing,Alarms,Done',
        "Gone,X-2,,,,",
        "Plain,,,,,",
      ].join("\r\n"),
    );
    const imported = await jobEnd(
      (await startImport(importBody(file, { atlassian_project_id: 10003, additional_headers: [] }))).body.job_id,
    );
    expect(imported.status).toBe("finished");
    const [gone] = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, display_id: "X-2" }).pluck("requirement_id");
    await request(ctx.app)
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [gone] })
      .expect(200);

    const [x1] = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, display_id: "X-1" }).pluck("requirement_id");
    const software = (await listRequirementTypes(ctx.deps.db, tenant.tenantId)).find((type) => type.prefix === "SW");
    const linked = await request(ctx.app)
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({
        name: "Pump driver",
        project: 10003,
        requirement_type_id: software?.requirement_type_id,
        requirements: [x1],
        assigned_to: "557058:dana",
      });
    expect(linked.status).toBe(201);

    const res = await request(ctx.app)
      .get("/api/requirement/export?atlassian_project_id=10003")
      .set("Authorization", auth)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="rmcloud-requirements-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const text = (res.body as Buffer).toString("utf8");
    expect(text.startsWith("\uFEFFID,Name,")).toBe(true);
    const rows: string[][] = parseCsv(text, { bom: true });
    const plainId = await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, name: "Plain" }).first("requirement_id");
    expect(rows).toEqual([
      [
        "ID",
        "Name",
        "Description",
        "Type",
        "Status",
        "Assignee",
        "Component/s",
        "Component/s",
        "Linked issues",
        "Linked requirements",
        "Folder",
        "Suspect links",
      ],
      [
        "SYS-X-1",
        "'=cmd|calc",
        'a, "b"\nc',
        "System",
        "Done",
        "",
        "Dosing",
        "Alarms",
        "",
        `SW-${linked.body.requirement_id}: Pump driver`,
        "",
        "",
      ],
      [`SYS-${plainId.requirement_id}`, "Plain", "", "System", "", "", "", "", "", "", "", ""],
      [`SW-${linked.body.requirement_id}`, "Pump driver", "", "Software", "", "User 557058:dana", "", "", "", "SYS-X-1: =cmd|calc", "", ""],
    ]);

    const elsewhere = await request(ctx.app).get("/api/requirement/export?atlassian_project_id=10003").set("Authorization", otherAuth);
    expect(parseCsv(elsewhere.text, { bom: true })).toHaveLength(1);
  });

  it("answers 503 with the spec's host message, not a file, when Jira cannot tell which issues the user may browse", async () => {
    const requirement = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Linked to an issue", 10004);
    await ctx.deps
      .db("requirement_issue_links")
      .insert({ tenant_id: tenant.tenantId, requirement_id: requirement, atlassian_issue_id: "10001" });
    const host = ctx.deps.hostClient;
    const answer = host.call.bind(host);
    const refusing = vi.spyOn(host, "call").mockImplementation((async (
      tenantId: string,
      product: "jira" | "confluence",
      call: HostCall,
    ) => {
      if (isPermissionCheck(call)) throw new HostCallError(500, "", "Jira answered 500");
      return answer(tenantId, product, call);
    }) as typeof host.call);
    try {
      const res = await request(ctx.app).get("/api/requirement/export?atlassian_project_id=10004").set("Authorization", auth);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ Result: HOST_DATA_PROBLEM });
      expect(res.headers["content-disposition"]).toBeUndefined();
    } finally {
      refusing.mockRestore();
    }
  });

  it("refuses a missing project with 400", async () => {
    const res = await request(ctx.app).get("/api/requirement/export").set("Authorization", auth);
    expect(res.status).toBe(400);
  });
});
