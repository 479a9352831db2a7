import JSZip from "jszip";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createTenant, createTestApp, insertRequirementRow, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { type FakeIssue, fakeJira } from "../../../test/helpers/fakeJira.js";
import { localPath } from "../../../test/helpers/storage.js";
import { JobQueue } from "../../jobs/queue.js";
import { cleanUpMatrixExports, MATRIX_EXPORT_RETENTION_HOURS } from "../../services/matrix/cleanUpMatrixExports.js";
import { matrixExportJob } from "../../jobs/matrixExportJob.js";
import { storageKey } from "../../storage/objectStorage.js";

const PROJECT = 10000;
const issues: FakeIssue[] = [
  { id: "20001", key: "PUMP-1", summary: "Brake test", status: "Done", issueTypeId: "10001" },
  { id: "20002", key: "PUMP-2", summary: "Brake squeals", status: "In Progress", issueTypeId: "10002" },
];
const jira = fakeJira(issues);

let ctx: TestContext;
const workers: JobQueue[] = [];

/** A worker process of its own on the same database, reading the fake Jira. */
async function startWorker(): Promise<JobQueue> {
  const queue = new JobQueue(ctx.deps.db, ctx.deps.logger, { definitions: [matrixExportJob], pollingIntervalSeconds: 0.5 });
  await queue.start();
  await queue.work({ ...ctx.deps, hostClient: jira.client, jobs: queue });
  workers.push(queue);
  return queue;
}

beforeAll(async () => {
  ctx = await createTestApp({ hostClient: jira.client }, { jobs: { definitions: [matrixExportJob] } });
});
afterEach(async () => {
  jira.state.failSearches = false;
  jira.state.hold = undefined;
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ timeoutMs: 1000 })));
});
afterAll(() => ctx.destroy());

async function siteWithMatrix(): Promise<{ tenant: TestTenant; auth: string }> {
  const tenant = await createTenant(ctx.deps.db);
  const braking = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Braking distance", PROJECT);
  await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Nobody tests this yet", PROJECT);
  await ctx.deps
    .db("requirement_issue_links")
    .insert(["20001", "20002"].map((atlassian_issue_id) => ({ tenant_id: tenant.tenantId, requirement_id: braking, atlassian_issue_id })));
  return { tenant, auth: await bearer(ctx, tenant) };
}

const startExport = (auth: string, body: object) =>
  request(ctx.app).post("/api/requirement/matrix/export").set("Authorization", auth).send(body);

const statusOf = (auth: string, jobId: string) => request(ctx.app).get(`/api/job/status/${jobId}`).set("Authorization", auth);

/** Waits for the status, and for the fields in `also` too: progress is written a moment after the job starts. */
const waitForStatus = (auth: string, jobId: string, status: string, also: Record<string, unknown> = {}) =>
  vi.waitFor(
    async () => {
      const response = await statusOf(auth, jobId);
      expect(response.body).toMatchObject({ ...also, status });
      return response.body as { status: string; completed_rows: number; total_rows: number; result: unknown; error: string | null };
    },
    { timeout: 25_000, interval: 200 },
  );

async function downloadedDocument(url: string): Promise<string> {
  const response = await request(ctx.app).get(localPath(ctx, url)).responseType("blob");
  expect(response.status).toBe(200);
  expect(response.headers["content-disposition"]).toMatch(/traceability-matrix-10000-\d{4}-\d{2}-\d{2}\.docx/);
  const zip = await JSZip.loadAsync(response.body as Buffer);
  return (await zip.file("word/document.xml")?.async("string")) ?? "";
}

describe("POST /api/requirement/matrix/export and the export job", () => {
  it("is queued, then started with its progress, then finished, and its file downloads from the presigned URL", async () => {
    const { auth } = await siteWithMatrix();
    const started = await startExport(auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ job_id: expect.any(String), presigned_url: expect.stringContaining("/storage/") });
    const jobId = started.body.job_id as string;
    expect((await statusOf(auth, jobId)).body).toMatchObject({ status: "queued", completed_rows: 0 });

    const { inJira, release } = jira.holdNextSearch();
    await startWorker();
    await inJira;
    await waitForStatus(auth, jobId, "started", { total_rows: 2 });
    release();

    expect(await waitForStatus(auth, jobId, "finished")).toMatchObject({ completed_rows: 2, total_rows: 2, error: null });
    const xml = await downloadedDocument(started.body.presigned_url);
    expect(xml).toContain("Braking distance");
    expect(xml).toContain("Nobody tests this yet");
    expect(xml).toContain(">Story<");
    expect(xml).toContain(">PUMP-1<");
    expect(xml).not.toContain("PUMP-2");
  });

  it("fails with the message when Jira cannot be read", async () => {
    const { auth } = await siteWithMatrix();
    jira.state.failSearches = true;
    await startWorker();
    const started = await startExport(auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001", "10002"] });
    const failed = await waitForStatus(auth, started.body.job_id, "failed");
    expect(failed.error).toBe("Jira could not be read: Jira answered 500");
  });

  it("whose worker dies mid-export is finished once, by another worker, with a whole document", async () => {
    const { auth } = await siteWithMatrix();
    const { inJira, release } = jira.holdNextSearch();
    const dying = await startWorker();
    const started = await startExport(auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001", "10002"] });
    await inJira;

    await dying.stop({ graceful: false });
    await startWorker();
    const finished = await waitForStatus(auth, started.body.job_id, "finished");
    expect(finished).toMatchObject({ completed_rows: 2, total_rows: 2 });

    // The dead worker's delivery, let go at last, finds the job finished: it stays finished, once.
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await statusOf(auth, started.body.job_id)).body).toMatchObject({ status: "finished", completed_rows: 2 });
    const xml = await downloadedDocument(started.body.presigned_url);
    expect(xml.match(/Braking distance/g)).toHaveLength(1);
    expect(xml).toContain(">PUMP-2<");
  });

  it("answers 404 when another site reads the job", async () => {
    const { auth } = await siteWithMatrix();
    const started = await startExport(auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: [] });
    const other = await bearer(ctx, await createTenant(ctx.deps.db));
    const res = await statusOf(other, started.body.job_id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Result: "Job not found" });
  });

  it("refuses another type than docx, a missing project and malformed issue types (400), and starts nothing", async () => {
    const { tenant, auth } = await siteWithMatrix();
    const csv = await startExport(auth, { atlassian_project_id: PROJECT, type: "csv", selected_issue_types: ["10001"] });
    expect(csv.status).toBe(400);
    expect(csv.body).toEqual({ type: ["The traceability matrix exports as Word (.docx) only"] });
    expect((await startExport(auth, { type: "docx", selected_issue_types: [] })).status).toBe(400);
    expect((await startExport(auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["Story"] })).status).toBe(400);
    expect(await ctx.deps.db("jobs").where({ tenant_id: tenant.tenantId })).toEqual([]);
  });
});

describe("the hourly clean-up of exported files", () => {
  const HOUR_MS = 60 * 60 * 1000;

  /** Moves the job's end back in time: the clean-up reads when a job ended from its status row. */
  const endedHoursAgo = (tenant: TestTenant, jobId: string, hours: number) =>
    ctx.deps
      .db("jobs")
      .where({ tenant_id: tenant.tenantId, job_id: jobId })
      .update({ updated_at: new Date(Date.now() - hours * HOUR_MS) });

  /** A finished export of the site whose job ended `hoursAgo`: its job, download link and stored file. */
  async function exportEnded(site: { tenant: TestTenant; auth: string }, hoursAgo: number) {
    const started = await startExport(site.auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
    const jobId = started.body.job_id as string;
    const { result } = await waitForStatus(site.auth, jobId, "finished");
    await endedHoursAgo(site.tenant, jobId, hoursAgo);
    const key = storageKey(site.tenant.tenantId, "exports", (result as { file_name: string }).file_name);
    return { ...site, jobId, url: started.body.presigned_url as string, key };
  }

  it("deletes every site's files of exports that ended over a day ago, keeps fresh ones, and the old ones' status and link answer 404", async () => {
    const first = await siteWithMatrix();
    const second = await siteWithMatrix();
    await startWorker();
    const stale = MATRIX_EXPORT_RETENTION_HOURS + 1;
    const firstOld = await exportEnded(first, stale);
    const firstFresh = await exportEnded(first, MATRIX_EXPORT_RETENTION_HOURS - 1);
    const secondOld = await exportEnded(second, stale);
    const secondFresh = await exportEnded(second, 0);

    expect(await cleanUpMatrixExports(ctx.deps)).toBe(2);

    for (const gone of [firstOld, secondOld]) {
      expect(await ctx.deps.storage.head(gone.key)).toBeUndefined();
      const status = await statusOf(gone.auth, gone.jobId);
      expect(status.status).toBe(404);
      expect(status.body).toEqual({ Result: "Job not found" });
      const download = await request(ctx.app).get(localPath(ctx, gone.url));
      expect(download.status).toBe(404);
      expect(download.body).toEqual({ Result: "File not found" });
    }
    for (const kept of [firstFresh, secondFresh]) {
      expect((await statusOf(kept.auth, kept.jobId)).body).toMatchObject({ status: "finished" });
      expect(await downloadedDocument(kept.url)).toContain("Braking distance");
    }

    // A second run, as a retried or doubled one would be, finds nothing more to do.
    expect(await cleanUpMatrixExports(ctx.deps)).toBe(0);
    expect(await ctx.deps.storage.head(secondFresh.key)).toBeDefined();
  });

  it("removes a failed export's status row, which has no file", async () => {
    const site = await siteWithMatrix();
    jira.state.failSearches = true;
    await startWorker();
    const started = await startExport(site.auth, { atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
    await waitForStatus(site.auth, started.body.job_id, "failed");
    await endedHoursAgo(site.tenant, started.body.job_id, MATRIX_EXPORT_RETENTION_HOURS + 1);

    expect(await cleanUpMatrixExports(ctx.deps)).toBe(1);
    expect((await statusOf(site.auth, started.body.job_id)).status).toBe(404);
  });
});
