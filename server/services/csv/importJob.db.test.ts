import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { bearer, createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { putImportFile } from "../../../test/helpers/csvImport.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { jobDefinitions } from "../../jobs/index.js";
import { JobQueue } from "../../jobs/queue.js";
import type { ObjectStorage } from "../../storage/objectStorage.js";
import type { Actor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { startImport } from "../../jobs/importRequirementsJob.js";

let ctx: TestContext;
let actor: Actor;
let auth: string;
const workers: JobQueue[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  const tenant = await createTenant(ctx.deps.db);
  actor = { tenantId: tenant.tenantId, accountId: "557058:test-user" };
  auth = await bearer(ctx, tenant);
  await seedDefaultRequirementTypes(ctx.deps, actor);
});
afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ timeoutMs: 1000 })));
  await ctx.destroy();
});

async function startWorker(storage: ObjectStorage = ctx.deps.storage): Promise<JobQueue> {
  const queue = new JobQueue(ctx.deps.db, ctx.deps.logger, { definitions: jobDefinitions, pollingIntervalSeconds: 0.5 });
  await queue.start();
  await queue.work({ ...ctx.deps, storage, jobs: queue });
  workers.push(queue);
  return queue;
}

describe("the import job", () => {
  it("whose worker dies mid-import is finished once by another worker, without duplicate rows", async () => {
    const rows = Array.from({ length: 1500 }, (_, index) => `Requirement ${index},K-${index}`);
    const file = await putImportFile(ctx.deps, actor.tenantId, ["Name,ID", ...rows].join("\n"));
    let entered = () => {};
    const reading = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // The dying worker stalls while it reads the file, as a worker does when its machine goes away: it never reads on.
    const stalling = new Proxy(ctx.deps.storage, {
      get: (target, property, receiver) =>
        property === "getObject"
          ? async () => {
              entered();
              return new Promise<never>(() => {});
            }
          : Reflect.get(target, property, receiver),
    });
    const dying = await startWorker(stalling);
    const [type] = await listRequirementTypes(ctx.deps.db, actor.tenantId);
    const jobId = await startImport(
      ctx.deps,
      actor,
      ImportRequestSchema.parse({
        file_name: file,
        requirement_type: type?.requirement_type_id,
        location: null,
        atlassian_project_id: 30000,
      }),
    );
    await reading;

    await dying.stop({ graceful: false, timeoutMs: 1000 });
    await startWorker();
    await vi.waitFor(
      async () => {
        const status = await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth);
        expect(status.body).toMatchObject({ status: "finished", completed_rows: 1500, total_rows: 1500 });
      },
      { timeout: 60_000, interval: 500 },
    );

    const project = () => ctx.deps.db("requirements").where({ tenant_id: actor.tenantId, project_id: 30000 });
    expect(await ctx.deps.db("csv_imports").where({ uuid_file_name: file })).toHaveLength(1);
    expect(await project()).toHaveLength(1500);
    expect(new Set((await project()).map((row) => row.display_id)).size).toBe(1500);
    expect(await ctx.deps.db("requirement_revisions").where({ tenant_id: actor.tenantId })).toHaveLength(1500);
  }, 120_000);

  it("whose requirement type was deleted after it was queued fails at once with the reason and writes nothing", async () => {
    const file = await putImportFile(ctx.deps, actor.tenantId, "Name\nFlow sensor calibration");
    const created = await request(ctx.app)
      .post("/api/requirement/type")
      .set("Authorization", auth)
      .send({ name: "Interface", prefix: "IF" });
    expect(created.status).toBe(201);
    const typeId = created.body.requirement_type_id as number;
    const jobId = await startImport(
      ctx.deps,
      actor,
      ImportRequestSchema.parse({ file_name: file, requirement_type: typeId, location: null, atlassian_project_id: 30001 }),
    );
    expect((await request(ctx.app).delete(`/api/requirement/type/${typeId}`).set("Authorization", auth)).status).toBe(200);

    await startWorker();
    await vi.waitFor(
      async () => {
        const status = await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth);
        expect(status.body).toMatchObject({ status: "failed", error: "requirement_type - Choose an existing requirement type" });
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(await ctx.deps.db("requirements").where({ tenant_id: actor.tenantId, project_id: 30001 })).toEqual([]);
  }, 60_000);

  it("fails at once with the row when a quote left open makes the rest of the file one endless row, and writes nothing", async () => {
    const unclosed = `Name,Description\nFlow sensor,"calibrated at ${"x".repeat(3_000_000)}\nAlarm,Loud\n`;
    const file = await putImportFile(ctx.deps, actor.tenantId, unclosed);
    const [type] = await listRequirementTypes(ctx.deps.db, actor.tenantId);
    const jobId = await startImport(
      ctx.deps,
      actor,
      ImportRequestSchema.parse({
        file_name: file,
        requirement_type: type?.requirement_type_id,
        location: null,
        atlassian_project_id: 30002,
      }),
    );

    await startWorker();
    await vi.waitFor(
      async () => {
        const status = await request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth);
        expect(status.body).toMatchObject({ status: "failed", error: "Row 2: the row is longer than 1 MB (is a quote left open?)" });
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(await ctx.deps.db("requirements").where({ tenant_id: actor.tenantId, project_id: 30002 })).toEqual([]);
  }, 60_000);
});
