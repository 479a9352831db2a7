import pino from "pino";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { RequirementEventState } from "../../../common/schemas/requirementSaved.js";
import {
  bearer,
  createTenant,
  createTestApp,
  postRequirement,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";
import { createTestDatabase } from "../../../test/helpers/db.js";
import { fakeJira } from "../../../test/helpers/fakeJira.js";
import { type StubHost, startStubHost } from "../../../test/helpers/stubHost.js";
import type { HostClient } from "../../connect/hostClient.js";
import { createHostClient, HOST_CALL_TRIES, HostCallError } from "../../connect/hostClientImpl.js";
import { jobSchemaOf } from "../../jobs/queue.js";
import { notifyRequirementsSaved, requirementSavedJob } from "../../jobs/requirementSavedJob.js";

const PROJECT = 10000;
const PROJECT_READ = /^\/rest\/api\/3\/project\//;
const COMMENT = /^\/rest\/api\/3\/issue\/\d+\/comment$/;
const COMMENT_READ = /^\/rest\/api\/3\/issue\/\d+\/comment\?/;

/** What Jira answers next to calls whose path matches: a refusal (with its Retry-After), or a late answer. */
type Fault = { status?: number; retryAfterSeconds?: number; delayMs?: number };
type Call = { method: string; path: string; at: number; status: number };

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let jira: StubHost;
const faults: { pattern: RegExp; next: Fault[] }[] = [];
const calls: Call[] = [];

beforeAll(async () => {
  const database = await createTestDatabase();
  const fake = fakeJira([{ id: "10001", key: "PUMP-1", summary: "Dose accurately", status: "Done", issueTypeId: "10001" }]);
  // Jira over HTTP, with the faults a test queues; comments are accepted.
  const host: HostClient = {
    call: async <T>(tenantId: string, product: "jira" | "confluence", call: Parameters<HostClient["call"]>[2]): Promise<T> => {
      const at = Date.now();
      const fault = faults.find((entry) => entry.pattern.test(call.path) && entry.next.length > 0)?.next.shift();
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault?.status) {
        calls.push({ method: call.method, path: call.path, at, status: fault.status });
        throw new HostCallError(fault.status, "", `Jira answered ${fault.status}`, fault.retryAfterSeconds);
      }
      calls.push({ method: call.method, path: call.path, at, status: 200 });
      if (COMMENT.test(call.path)) return { id: String(calls.length) } as T;
      // A retry's look for its comment: every failed post here failed before Jira stored it.
      if (COMMENT_READ.test(call.path)) return { startAt: 0, maxResults: 100, total: 0, comments: [] } as T;
      return fake.client.call<T>(tenantId, product, call);
    },
  };
  // The real host client, over HTTP: Retry-After travels as a header, a slow answer is slow.
  ctx = await createTestApp(
    { hostClient: createHostClient(database.db, pino({ level: "silent" })) },
    { database, jobs: { work: true, retry: { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: false } } },
  );
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant);
  jira = await startStubHost(ctx.deps.db, tenant.tenantId, host);
  const settings = await request(ctx.app)
    .patch("/api/customer/settings")
    .set("Authorization", auth)
    .send({ comment_on_associated_issues: true });
  expect(settings.status).toBe(200);
  const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  await postRequirement(ctx, auth, "Alarm within 1 s of an occlusion", types.SYS, PROJECT);
});

beforeEach(() => {
  faults.length = 0;
  calls.length = 0;
});

afterAll(async () => {
  await jira?.close();
  await ctx?.destroy();
});

/** A rate limit asking for a second's pause, then an overload, then a failure of Jira's own, then a 2 s answer, then Jira as usual. */
const RATE_LIMITED_THEN_DOWN_THEN_SLOW: Fault[] = [
  { status: 429, retryAfterSeconds: 1 },
  { status: 503 },
  { status: 500 },
  { delayMs: 2000 },
];

async function exportStatus() {
  const started = await request(ctx.app)
    .post("/api/requirement/matrix/export")
    .set("Authorization", auth)
    .send({ atlassian_project_id: PROJECT, type: "docx", selected_issue_types: ["10001"] });
  expect(started.status).toBe(200);
  return vi.waitFor(
    async () => {
      const status = await request(ctx.app).get(`/api/job/status/${started.body.job_id}`).set("Authorization", auth);
      expect(["failed", "finished"]).toContain(status.body.status);
      return status.body;
    },
    { timeout: 30_000, interval: 200 },
  );
}

describe("Jira answering 429 with Retry-After, then 503, then 500, then slowly", () => {
  it("during a Word export: each read waits the Retry-After, tries again, and the export finishes", async () => {
    faults.push({ pattern: PROJECT_READ, next: [...RATE_LIMITED_THEN_DOWN_THEN_SLOW] });
    const status = await exportStatus();

    expect(status).toMatchObject({ status: "finished", result: { total_rows: 1 } });
    const reads = calls.filter((call) => PROJECT_READ.test(call.path));
    expect(reads.map((read) => read.status)).toEqual([429, 503, 500, 200]);
    const [limited, afterLimit] = reads;
    expect((afterLimit?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it(`during a Word export, for good: tried ${HOST_CALL_TRIES} times, then the export fails saying what it could not read`, async () => {
    faults.push({ pattern: PROJECT_READ, next: Array.from({ length: 50 }, () => ({ status: 500, retryAfterSeconds: 0 })) });
    const status = await exportStatus();

    expect(status).toMatchObject({
      status: "failed",
      error: `Jira could not be read: GET /rest/api/3/project/${PROJECT} on jira answered 500`,
    });
    expect(calls.filter((call) => PROJECT_READ.test(call.path))).toHaveLength(HOST_CALL_TRIES);
  });

  it("during notifications: the comment is posted later, after the Retry-After, and exactly once", async () => {
    faults.push({ pattern: COMMENT, next: [...RATE_LIMITED_THEN_DOWN_THEN_SLOW] });
    const state = (issueIds: string[]): RequirementEventState => ({
      requirementId: 42,
      projectId: PROJECT,
      label: "SYS-42: Alarm within 1 s of an occlusion",
      name: "Alarm within 1 s of an occlusion",
      statusId: "1",
      assignedTo: null,
      issueIds,
    });
    const saved = { requirementId: 42, revision: 2, before: state([]), after: state(["10001"]) };
    const actor = { tenantId: tenant.tenantId, accountId: "557058:editor" };
    await notifyRequirementsSaved(ctx.deps, actor, [saved]);

    const posts = () => calls.filter((call) => COMMENT.test(call.path));
    await vi.waitFor(() => expect(posts().map((post) => post.status)).toEqual([429, 503, 500, 200]), { timeout: 20_000, interval: 100 });
    const [limited, afterLimit] = posts();
    expect((afterLimit?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    // A comment Jira answered 503 or 500 to is not sent again by the host client (only the 429 is):
    // each ended its job's try, and the job's next try posted it (three tries).
    // This revision's job: the requirement posted before these tests was told as well, in a job of its own.
    const job = () =>
      ctx.deps.db
        .withSchema(jobSchemaOf(ctx.deps.db))
        .from("job")
        .where({ name: requirementSavedJob.name })
        .whereRaw("data->>'requirementId' = '42' and data->>'revision' = '2'")
        .first("retry_count", "state");
    await vi.waitFor(async () => expect(await job()).toEqual({ retry_count: 2, state: "completed" }), { timeout: 5000, interval: 100 });

    // The same revision told again (a repeated delivery, a second save of it) posts nothing more.
    await notifyRequirementsSaved(ctx.deps, actor, [saved]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(posts()).toHaveLength(4);
  });
});
