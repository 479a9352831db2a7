import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import type { HostClient } from "../../server/connect/hostClient.js";
import { startImport } from "../../server/jobs/importRequirementsJob.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { storageKey } from "../../server/storage/objectStorage.js";
import { type AddonProcess, PROCESS_TOKEN_SECRET, startAddonProcess } from "../helpers/addonProcess.js";
import { type StubHost, startStubHost } from "../helpers/stubHost.js";
import {
  bearer,
  createTenant,
  createTestApp,
  postRequirement,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
  testConfig,
} from "../helpers/app.js";
import { putImportFile } from "../helpers/csvImport.js";
import { createFaultDatabase, type FaultDatabase } from "../helpers/faultDatabase.js";
import { fakeJira } from "../helpers/fakeJira.js";

/** A try older than this counts as dead (JOB_EXPIRE_SECONDS): long enough for a whole import, short enough for a test. */
const EXPIRE_SECONDS = 8;
const IMPORTED_ROWS = 20_000;
const PROJECT = 10000;

let database: FaultDatabase;
let dataDir: string;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;
let jira: StubHost;
/** While set, Jira's answer about issue types waits for it: a worker's export stays mid-way. */
let issueTypesHeld: Promise<void> | undefined;
let issueTypesAsked = () => {};
const workers: AddonProcess[] = [];

beforeAll(async () => {
  database = await createFaultDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "rmcloud-faults-"));
  const config = testConfig();
  // The same files as the worker processes: what the test uploads, they read, and what they export, it finds.
  const storage = new LocalDiskStorage({ root: path.join(dataDir, "storage"), baseUrl: config.baseUrl, secret: PROCESS_TOKEN_SECRET });
  const fake = fakeJira([{ id: "10001", key: "PUMP-1", summary: "Dose accurately", status: "Done", issueTypeId: "10001" }]);
  const host: HostClient = {
    call: async (tenantId, product, call) => {
      if (call.path.startsWith("/rest/api/3/issuetype") && issueTypesHeld) {
        issueTypesAsked();
        await issueTypesHeld;
      }
      return fake.client.call(tenantId, product, call);
    },
  };
  ctx = await createTestApp({ hostClient: host, storage }, { database, jobs: { retry: { expireInSeconds: EXPIRE_SECONDS } } });
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  jira = await startStubHost(ctx.deps.db, tenant.tenantId, host);
}, 120_000);

afterEach(async () => {
  for (const worker of workers.splice(0)) {
    worker.child.kill("SIGKILL");
    await worker.exited;
  }
});

afterAll(async () => {
  await jira?.close();
  await ctx?.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const startWorker = async () => {
  const worker = await startAddonProcess("worker", {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
    DATABASE_POOL_SIZE: "4",
  });
  workers.push(worker);
  return worker;
};

const statusOf = async (jobId: string) => (await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth)).body;

/** SIGKILL: no handler runs, no connection is closed politely, the try is simply gone. */
async function kill(worker: AddonProcess): Promise<void> {
  worker.child.kill("SIGKILL");
  await worker.exited;
}

describe("a worker process killed with SIGKILL", () => {
  it("mid-import: another worker tries the import again and it finishes once, every row once", async () => {
    const file = await putImportFile(
      ctx.deps,
      tenant.tenantId,
      ["Name,ID", ...Array.from({ length: IMPORTED_ROWS }, (_, index) => `Requirement ${index},K-${index}`)].join("\n"),
    );
    const dying = await startWorker();
    const jobId = await startImport(
      ctx.deps,
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      ImportRequestSchema.parse({ file_name: file, requirement_type: types.SYS, location: null, atlassian_project_id: 30000 }),
    );
    await vi.waitFor(async () => expect((await statusOf(jobId)).completed_rows).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    await kill(dying);
    const atKill = await statusOf(jobId);
    expect(atKill.status).toBe("started");

    const killedAt = Date.now();
    await startWorker();
    await vi.waitFor(async () => expect(await statusOf(jobId)).toMatchObject({ status: "finished", completed_rows: IMPORTED_ROWS }), {
      timeout: 60_000,
      interval: 250,
    });
    const rows = ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, project_id: 30000 });
    expect(Number((await rows.clone().count("* as n"))[0]?.n)).toBe(IMPORTED_ROWS);
    expect(Number((await rows.clone().countDistinct("display_id as n"))[0]?.n)).toBe(IMPORTED_ROWS);
    expect(await ctx.deps.db("csv_imports").where({ uuid_file_name: file })).toHaveLength(1);
    console.info(`import retried and finished ${Date.now() - killedAt} ms after its worker was killed (expiry ${EXPIRE_SECONDS} s)`);
  }, 120_000);

  it("mid-export: another worker writes the Word file again and the export finishes once", async () => {
    await postRequirement(ctx, auth, "Alarm within 1 s of an occlusion", types.SYS, PROJECT);
    const asked = new Promise<void>((resolve) => {
      issueTypesAsked = resolve;
    });
    let release = () => {};
    issueTypesHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const dying = await startWorker();
    const exported = await request(ctx.app)
      .post("/api/requirement/matrix/export")
      .set("Authorization", auth)
      .send({ atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
    expect(exported.status).toBe(200);
    await asked;
    await kill(dying);
    issueTypesHeld = undefined;
    release();
    expect((await statusOf(exported.body.job_id)).status).toBe("started");

    await startWorker();
    const status = await vi.waitFor(
      async () => {
        const current = await statusOf(exported.body.job_id);
        expect(current.status).toBe("finished");
        return current;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(status.result).toMatchObject({ total_rows: 1 });
    expect((await ctx.deps.storage.head(storageKey(tenant.tenantId, "exports", status.result.file_name)))?.size).toBeGreaterThan(0);
  }, 120_000);
});
