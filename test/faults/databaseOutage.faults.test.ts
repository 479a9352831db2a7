import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import type { HostClient } from "../../server/connect/hostClient.js";
import { startImport } from "../../server/jobs/importRequirementsJob.js";
import { jobSchemaOf } from "../../server/jobs/queue.js";
import { storageKey } from "../../server/storage/objectStorage.js";
import {
  bearer,
  createTenant,
  createTestApp,
  postRequirement,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../helpers/app.js";
import { putImportFile } from "../helpers/csvImport.js";
import { createFaultDatabase, type FaultDatabase } from "../helpers/faultDatabase.js";
import { fakeJira } from "../helpers/fakeJira.js";

const PROJECT = 10000;
const IMPORTED_PROJECT = 30000;
const IMPORTED_ROWS = 20_000;
const OUTAGE_MS = 3000;

let database: FaultDatabase;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;
/** Lets the export's first Jira read through once the outage has begun, so the export runs across it. */
let outageBegun = () => {};
const duringOutage = new Promise<void>((resolve) => {
  outageBegun = resolve;
});

beforeAll(async () => {
  database = await createFaultDatabase();
  const jira = fakeJira([{ id: "10001", key: "PUMP-1", summary: "Dose accurately", status: "Done", issueTypeId: "10001" }]);
  const hostClient: HostClient = {
    call: async (tenantId, product, call) => {
      if (call.path.startsWith("/rest/api/3/issuetype")) await duringOutage;
      return jira.client.call(tenantId, product, call);
    },
  };
  ctx = await createTestApp({ hostClient }, { database, jobs: { work: true } });
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
}, 120_000);

afterAll(async () => {
  await ctx?.destroy();
});

const api = () => request(ctx.app);
const statusOf = async (jobId: string) => (await api().get(`/api/job/status/${jobId}`).set("Authorization", auth)).body;
const importedRows = async () =>
  Number((await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: IMPORTED_PROJECT }).count("* as n"))[0]?.n);

describe("PostgreSQL going away (every connection of the add-on's database cut, new ones refused)", () => {
  it(`for ${OUTAGE_MS / 1000} s while the API serves reads and an import and a Word export run: 503 meanwhile, then the API recovers without a restart, the import is whole or absent and then whole, the export finishes, each job once`, async () => {
    const requirementId = await postRequirement(ctx, auth, "Dose within 2 % of the set rate", types.SYS, PROJECT);
    const read = () => api().get(`/api/requirement/${requirementId}`).set("Authorization", auth);
    expect((await read()).status).toBe(200);

    const file = await putImportFile(
      ctx.deps,
      tenant.tenantId,
      ["Name,ID", ...Array.from({ length: IMPORTED_ROWS }, (_, index) => `Requirement ${index},K-${index}`)].join("\n"),
    );
    const importId = await startImport(
      ctx.deps,
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      ImportRequestSchema.parse({ file_name: file, requirement_type: types.SYS, location: null, atlassian_project_id: IMPORTED_PROJECT }),
    );
    const exported = await api()
      .post("/api/requirement/matrix/export")
      .set("Authorization", auth)
      .send({ atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
    expect(exported.status).toBe(200);
    await vi.waitFor(async () => expect((await statusOf(importId)).status).toBe("started"), { timeout: 20_000, interval: 50 });

    // Reads keep coming throughout; the import is seen whole or not at all at every look the database allows.
    const answers: { status: number; duringOutage: boolean }[] = [];
    const partialImports: number[] = [];
    let inOutage = true;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const res = await read();
        answers.push({ status: res.status, duringOutage: inOutage });
        const rows = await importedRows().catch(() => undefined);
        if (rows !== undefined && rows !== 0 && rows !== IMPORTED_ROWS) partialImports.push(rows);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const outage = database.outage(OUTAGE_MS);
    outageBegun();
    const cut = await outage;
    inOutage = false;
    const recoveredAt = Date.now();
    await vi.waitFor(async () => expect((await read()).status).toBe(200), { timeout: 10_000, interval: 100 });
    const recoveryMs = Date.now() - recoveredAt;
    reading = false;
    await reader;

    const refused = answers.filter((answer) => answer.duringOutage && answer.status === 503).length;
    console.info(`${cut} connections cut; ${refused} reads answered 503 during the outage; answering again ${recoveryMs} ms after it`);
    expect(cut).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    expect(recoveryMs).toBeLessThan(5000);
    expect(partialImports).toEqual([]);

    await vi.waitFor(async () => expect(await statusOf(importId)).toMatchObject({ status: "finished", completed_rows: IMPORTED_ROWS }), {
      timeout: 60_000,
      interval: 250,
    });
    const exportStatus = await vi.waitFor(
      async () => {
        const status = await statusOf(exported.body.job_id);
        expect(status.status).toBe("finished");
        return status;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(await importedRows()).toBe(IMPORTED_ROWS);
    expect(await ctx.deps.db("csv_imports").where({ uuid_file_name: file })).toHaveLength(1);
    expect(await ctx.deps.db("requirement_revisions").where({ tenant_id: tenant.tenantId })).toHaveLength(IMPORTED_ROWS + 1);
    // Each job's one delivery that ran to its end: pg-boss completed it once, after the try the outage broke.
    const deliveries = await ctx.deps.db
      .withSchema(jobSchemaOf(ctx.deps.db))
      .from("job")
      .whereIn("id", [importId, exported.body.job_id])
      .select("state");
    expect(deliveries.map((delivery) => delivery.state)).toEqual(["completed", "completed"]);
    const exportKey = storageKey(tenant.tenantId, "exports", exportStatus.result.file_name);
    expect((await ctx.deps.storage.head(exportKey))?.size).toBeGreaterThan(0);
  }, 150_000);
});
