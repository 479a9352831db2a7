import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../../emulator/server.js";
import { DEFAULT_SITE, type Site } from "../../../emulator/sites.js";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant, testConfig } from "../../../test/helpers/app.js";
import { installOnEmulatedJira } from "../../../test/helpers/emulatedSiteInstall.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import { jobsSettled, queuedJobs } from "../../../test/helpers/jobs.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { JobQueue } from "../../jobs/queue.js";
import { createMailer } from "../../mail/mailer.js";
import { appActor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import type { RequirementEventState, RequirementSaved } from "../../../common/schemas/requirementSaved.js";
import { notifyRequirementsSaved, requirementSavedJob } from "../../jobs/requirementSavedJob.js";

type RecordedCall = HostCall & { tenantId: string; product: string };

/**
 * Jira as the emulator answers: every user has an address, statuses have names, comments are accepted.
 * `failures` maps a path to the statuses of its next answers that fail (e.g. 503 once).
 */
function fakeJira(): HostClient & { calls: RecordedCall[]; failures: Map<string, number[]> } {
  const calls: RecordedCall[] = [];
  const failures = new Map<string, number[]>();
  return {
    calls,
    failures,
    call: async <T>(tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T> => {
      // The settings change of a test's setup asks whether its user administers Jira: yes, and not recorded.
      if (isPermissionCheck(call)) return permissionCheckAnswer(call) as T;
      const failing = failures.get(call.path)?.shift();
      if (failing) throw Object.assign(new Error(`Jira answered ${failing}`), { status: failing });
      calls.push({ tenantId, product, ...call });
      if (call.path.startsWith("/rest/api/3/user?")) {
        const accountId = new URLSearchParams(call.path.split("?")[1]).get("accountId");
        return { accountId, emailAddress: `${accountId?.split(":").pop()}@example.test` } as T;
      }
      if (call.path.startsWith("/rest/api/3/status/")) return { name: `Status ${call.path.split("/").pop()}` } as T;
      return { id: "1" } as T;
    },
  };
}

type ReceivedMail = { to: string[]; raw: string };

/** A real SMTP server on a random port; `refuse` makes it answer 451 to the next n recipients. */
async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const state = { refuse: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse > 0) {
        state.refuse--;
        callback(Object.assign(new Error("Mailbox busy, try later"), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a MIME message with quoted-printable soft line breaks and escapes undone. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const requirement = (overrides: Partial<RequirementEventState> = {}): RequirementEventState => ({
  requirementId: 42,
  projectId: 10000,
  label: "SYS-42: Brake within 3 seconds",
  name: "Brake within 3 seconds",
  statusId: "1",
  assignedTo: null,
  issueIds: [],
  ...overrides,
});

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let jira: ReturnType<typeof fakeJira>;
let ctx: TestContext;
let worker: JobQueue | undefined;
const logLines: string[] = [];
let revision = 1;

/** A worker process of its own on the test's database; `deps` to give its jobs another Jira. */
async function startWorker(deps = ctx.deps): Promise<JobQueue> {
  const queue = new JobQueue(ctx.deps.db, ctx.deps.logger, {
    definitions: [requirementSavedJob],
    pollingIntervalSeconds: 0.5,
    retry: { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: false },
  });
  await queue.start();
  await queue.work({ ...deps, jobs: queue });
  return queue;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  jira = fakeJira();
  const logger = pino(
    { level: "warn" },
    new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    }),
  );
  ctx = await createTestApp(
    { hostClient: jira, logger, config: { ...testConfig(), smtpUrl: smtp.url } },
    { jobs: { retry: { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: false } } },
  );
});
beforeEach(async () => {
  worker = await startWorker();
});
afterAll(async () => {
  await ctx.destroy();
  await smtp.close();
});
afterEach(async () => {
  await worker?.stop({ timeoutMs: 1000 });
  jira.calls.length = 0;
  jira.failures.clear();
  smtp.received.length = 0;
  smtp.state.refuse = 0;
  logLines.length = 0;
});

async function siteWith(settings: Record<string, boolean>): Promise<TestTenant> {
  const tenant = await createTenant(ctx.deps.db);
  const res = await request(ctx.app)
    .patch("/api/customer/settings")
    .set("Authorization", await bearer(ctx, tenant))
    .send(settings);
  expect(res.status).toBe(200);
  return tenant;
}

const editor = (tenant: TestTenant) => ({ tenantId: tenant.tenantId, accountId: "557058:editor" });

/** A save of requirement 42 that commits its notifications; resolves when the worker is done with them. */
async function save(tenant: TestTenant, before: RequirementEventState | undefined, after: RequirementEventState | undefined) {
  const saved = { requirementId: 42, revision: revision++, before, after };
  await ctx.deps.db.transaction((trx) => notifyRequirementsSaved({ ...ctx.deps, db: trx }, editor(tenant), [saved]));
  await jobsSettled(ctx.deps.db, requirementSavedJob);
  return saved;
}

const commentCalls = () => jira.calls.filter((call) => call.method === "POST" && call.path.endsWith("/comment"));
const commentText = (call: RecordedCall) =>
  JSON.stringify((call.body as { body: unknown }).body)
    .match(/"text":"([^"]*)"/g)
    ?.map((m) => m.slice(8, -1))
    .join("");
const jobsOf = (tenant: TestTenant) => queuedJobs(ctx.deps.db, requirementSavedJob, tenant.tenantId);

describe("comments on associated Jira issues", () => {
  it("comments on an issue when a requirement is linked to it, as the app of that site", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    await save(tenant, requirement(), requirement({ issueIds: ["10001"] }));

    const calls = commentCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tenantId: tenant.tenantId, product: "jira", path: "/rest/api/3/issue/10001/comment" });
    expect(commentText(calls[0]!)).toBe("rmCloud requirement SYS-42: Brake within 3 seconds was linked to this issue.");
    expect(JSON.stringify(calls[0]!.body)).toContain(`${tenant.baseUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?`);
  });

  it("comments on unlinked issues and on linked issues when name or status change", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    await save(tenant, requirement({ issueIds: ["10001", "10002"] }), requirement({ issueIds: ["10002"], statusId: "3" }));

    const texts = commentCalls().map((call) => [call.path, commentText(call)]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ["/rest/api/3/issue/10001/comment", "rmCloud requirement SYS-42: Brake within 3 seconds was unlinked from this issue."],
        ["/rest/api/3/issue/10002/comment", "rmCloud requirement SYS-42: Brake within 3 seconds changed status from Status 1 to Status 3."],
      ]),
    );
    expect(texts).toHaveLength(2);
  });

  it("posts nothing with the switch off, as it was when the save committed", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: false, send_email_notification_to_assignee: false });
    await save(tenant, requirement({ issueIds: ["10001"] }), requirement({ issueIds: ["10002"], name: "Renamed" }));
    expect(await jobsOf(tenant)).toEqual([]);
    expect(jira.calls).toEqual([]);
  });

  it("posts nothing when no link, name or status changed", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    await save(tenant, requirement({ issueIds: ["10001"] }), requirement({ issueIds: ["10001"] }));
    expect(commentCalls()).toEqual([]);
  });

  it("tries a comment Jira could not take again, and posts each comment once", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    jira.failures.set("/rest/api/3/issue/10002/comment", [503]);
    await save(tenant, requirement(), requirement({ issueIds: ["10001", "10002"] }));

    expect(
      commentCalls()
        .map((call) => call.path)
        .sort(),
    ).toEqual(["/rest/api/3/issue/10001/comment", "/rest/api/3/issue/10002/comment"]);
    expect((await jobsOf(tenant)).map((job) => [job.state, job.retryCount])).toEqual([["completed", 1]]);
  });

  it("skips an issue Jira refuses (deleted or forbidden) without retrying", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    jira.failures.set("/rest/api/3/issue/10002/comment", [404]);
    await save(tenant, requirement(), requirement({ issueIds: ["10001", "10002"] }));

    expect(commentCalls().map((call) => call.path)).toEqual(["/rest/api/3/issue/10001/comment"]);
    expect((await jobsOf(tenant)).map((job) => [job.state, job.retryCount])).toEqual([["completed", 0]]);
  });
});

describe("email to the assignee", () => {
  it("sends the new assignee the requirement's label and a link to it", async () => {
    const tenant = await siteWith({ send_email_notification_to_assignee: true });
    await save(tenant, requirement(), requirement({ assignedTo: "557058:alice" }));

    expect(jira.calls).toContainEqual(expect.objectContaining({ method: "GET", path: "/rest/api/3/user?accountId=557058%3Aalice" }));
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(["alice@example.test"]);
    const text = decoded(mail.raw);
    expect(text).toContain("Subject: rmCloud: you were assigned SYS-42: Brake within 3 seconds");
    expect(text).toContain(
      `${tenant.baseUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.id=10000&ac.projectId=10000&ac.requirementId=42`,
    );
  });

  it("sends nothing when the assignee stays, and nothing with the switch off", async () => {
    const on = await siteWith({ send_email_notification_to_assignee: true });
    await save(on, requirement({ assignedTo: "557058:alice" }), requirement({ assignedTo: "557058:alice", name: "X" }));
    const off = await siteWith({ send_email_notification_to_assignee: false, comment_on_associated_issues: true });
    await save(off, requirement(), requirement({ assignedTo: "557058:bob" }));
    expect(smtp.received).toEqual([]);
  });

  it("is tried again while the mail server refuses, and the last failure is logged without the address", async () => {
    const tenant = await siteWith({ send_email_notification_to_assignee: true });
    smtp.state.refuse = 2;
    await save(tenant, requirement(), requirement({ assignedTo: "557058:carol" }));
    expect(smtp.received.map((mail) => mail.to)).toEqual([["carol@example.test"]]);
    expect((await jobsOf(tenant)).map((job) => [job.state, job.retryCount])).toEqual([["completed", 2]]);
    expect(logLines.filter((line) => line.includes("email failed, will retry"))).toHaveLength(2);

    smtp.state.refuse = 100;
    await save(tenant, requirement(), requirement({ assignedTo: "557058:carol" }));
    expect(smtp.received).toHaveLength(1);
    expect((await jobsOf(tenant)).map((job) => job.state)).toEqual(["completed", "failed"]);
    const final = logLines.filter((line) => line.includes("email not sent"));
    expect(final).toHaveLength(1);
    expect(final[0]).toContain("557058:carol");
    expect(logLines.join("\n")).not.toContain("@example.test");
  });

  it("writes the message to the outbox folder when no SMTP server is configured", async () => {
    const { mkdtemp, readdir, readFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dataDir = await mkdtemp(path.join(tmpdir(), "rmcloud-outbox-"));
    try {
      const tenant = await siteWith({ send_email_notification_to_assignee: true });
      const config = { ...testConfig(), dataDir, outboxDir: path.join(dataDir, "outbox"), smtpUrl: undefined };
      const saved: RequirementSaved = {
        ...editor(tenant),
        requirementId: 42,
        revision: revision++,
        before: requirement({ assignedTo: "557058:alice" }),
        after: requirement({ assignedTo: "557058:dave" }),
        send: { comments: false, email: true },
      };
      await requirementSavedJob.handler({ ...ctx.deps, mailer: createMailer(config) }, saved, {
        id: "direct",
        attempt: 0,
        isLastAttempt: true,
      });
      const files = await readdir(path.join(dataDir, "outbox"));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const message = decoded(await readFile(path.join(dataDir, "outbox", files[0]!), "utf8"));
      expect(message).toContain("To: dave@example.test");
      expect(message).toContain("SYS-42: Brake within 3 seconds");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("delivery on the job queue", () => {
  it("sends nothing for a save that rolls back: its notifications were never queued", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });
    const failedSave = ctx.deps.db.transaction(async (trx) => {
      await notifyRequirementsSaved({ ...ctx.deps, db: trx }, editor(tenant), [
        { requirementId: 42, revision: revision++, after: requirement({ issueIds: ["10001"], assignedTo: "557058:alice" }) },
      ]);
      throw new Error("The save failed after its notifications were enqueued");
    });
    await expect(failedSave).rejects.toThrow("The save failed");
    expect(await jobsOf(tenant)).toEqual([]);
    await jobsSettled(ctx.deps.db, requirementSavedJob);
    expect(jira.calls).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it("enqueues a revision once, and a repeated delivery posts no second comment and sends no second mail", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });
    const saved = await save(tenant, requirement(), requirement({ issueIds: ["10001"], assignedTo: "557058:frank" }));
    await ctx.deps.db.transaction((trx) =>
      notifyRequirementsSaved({ ...ctx.deps, db: trx }, editor(tenant), [
        { requirementId: saved.requirementId, revision: saved.revision, before: saved.before, after: saved.after },
      ]),
    );
    expect(await jobsOf(tenant)).toHaveLength(1);

    // The same revision delivered again (its first worker died after sending, before acknowledging).
    const [job] = await jobsOf(tenant);
    await ctx.deps.jobs.send(ctx.deps.db, requirementSavedJob, job?.data);
    await jobsSettled(ctx.deps.db, requirementSavedJob);
    expect((await jobsOf(tenant)).map((job) => job.state)).toEqual(["completed", "completed"]);
    expect(commentCalls()).toHaveLength(1);
    expect(smtp.received.map((mail) => mail.to)).toEqual([["frank@example.test"]]);
  });

  it("survives a stop between the save's commit and the send, and is sent once after the restart", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });
    await seedDefaultRequirementTypes(ctx.deps, appActor(tenant.tenantId));
    const auth = await bearer(ctx, tenant);
    const types = await request(ctx.app).get("/api/requirement/type").set("Authorization", auth);
    const type = types.body.requirement_types[0];

    await worker?.stop({ graceful: false });
    const created = await request(ctx.app)
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({
        name: "Stop within 40 m",
        project: 10000,
        requirement_type_id: type.requirement_type_id,
        assigned_to: "557058:erin",
        issues: [10200],
      });
    expect(created.status).toBe(201);
    expect((await jobsOf(tenant)).map((job) => job.state)).toEqual(["created"]);
    expect(jira.calls).toEqual([]);

    worker = await startWorker();
    await jobsSettled(ctx.deps.db, requirementSavedJob);

    const label = `${type.prefix}-${created.body.requirement_id}: Stop within 40 m`;
    const calls = commentCalls();
    expect(calls.map((call) => call.path)).toEqual(["/rest/api/3/issue/10200/comment"]);
    expect(commentText(calls[0]!)).toBe(`rmCloud requirement ${label} was linked to this issue.`);
    expect(smtp.received.map((mail) => mail.to)).toEqual([["erin@example.test"]]);
    expect(decoded(smtp.received[0]!.raw)).toContain(`requirementId=${created.body.requirement_id}`);
  });
});

describe("comments on the emulated Jira, over HTTP as the app", () => {
  let dataDir: string;
  let emulator: Emulator;
  let site: Site;
  let emulated: Awaited<ReturnType<typeof installOnEmulatedJira>>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-comments-"));
    // No add-on answers at this address: the emulator then accepts the app's JWT issued as the client key.
    emulator = await startEmulator({ port: 0, addonUrl: "http://127.0.0.1:9", dataDir, installOnStart: false, log: () => {} });
    const found = emulator.sites.get(DEFAULT_SITE);
    if (!found) throw new Error("the emulator has no site");
    site = found;
    emulated = await installOnEmulatedJira(ctx.deps.db, site);
  });
  beforeEach(async () => {
    // This block's jobs talk to the emulated Jira: the file's worker makes way for one that does.
    await worker?.stop({ timeoutMs: 1000 });
    worker = await startWorker({ ...ctx.deps, hostClient: emulated.hostClient });
  });
  afterEach(async () => {
    await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
  });
  afterAll(async () => {
    await emulator?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const issue = (key: string) => {
    const found = site.content.issues.find((i) => i.key === key);
    if (!found) throw new Error(`The emulator has no issue ${key}`);
    return found;
  };
  const fault = (body: Record<string, unknown>) =>
    fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  /** Links requirement 42 to the issue in a new revision, as a save would enqueue it; resolves when the worker is done. */
  async function link(issueId: string): Promise<RequirementSaved> {
    const saved: RequirementSaved = {
      tenantId: emulated.tenantId,
      accountId: "557058:editor",
      requirementId: 42,
      revision: revision++,
      before: requirement(),
      after: requirement({ issueIds: [issueId] }),
      send: { comments: true, email: false },
    };
    await ctx.deps.jobs.send(ctx.deps.db, requirementSavedJob, saved);
    await jobsSettled(ctx.deps.db, requirementSavedJob);
    return saved;
  }
  const jobsOfSite = () => queuedJobs(ctx.deps.db, requirementSavedJob, emulated.tenantId);
  const carrying = (key: string, comments: ReturnType<typeof issue>["comments"]) =>
    comments.filter((c) =>
      c.properties?.some((p) => p.key === "rmcloud-delivery" && JSON.stringify(p.value) === JSON.stringify({ deliveryKey: key })),
    );

  it("does not post again a comment Jira stored before answering 500, found on the retry among its newest comments", async () => {
    const target = issue("PUMP-7");
    // 150 comments newer than any the job posts: the retry finds its comment only on the second page.
    for (let n = 0; n < 150; n++)
      target.comments.push({
        id: String(site.content.nextCommentId++),
        author: { accountId: "addon-other", displayName: "Another app", accountType: "app" },
        body: `Comment ${n}`,
        created: new Date(Date.UTC(2099, 0, 1, 0, 0, n)).toISOString(),
      });
    const before = target.comments.length;
    expect((await fault({ pathPattern: `/rest/api/3/issue/${target.id}/comment$`, status: 500, times: 1, served: true })).status).toBe(201);

    const saved = await link(target.id);

    expect(target.comments.length - before).toBe(1);
    expect(carrying(`42:${saved.revision}:comment:${target.id}`, target.comments)).toHaveLength(1);
    expect((await jobsOfSite()).at(-1)).toMatchObject({ state: "completed", retryCount: 1 });
  });

  it("posts on the retry a comment Jira refused before storing it, once", async () => {
    const target = issue("PUMP-8");
    const before = target.comments.length;
    expect((await fault({ pathPattern: `/rest/api/3/issue/${target.id}/comment$`, status: 500, times: 1 })).status).toBe(201);

    const saved = await link(target.id);

    expect(target.comments.length - before).toBe(1);
    expect(carrying(`42:${saved.revision}:comment:${target.id}`, target.comments)).toHaveLength(1);
    expect((await jobsOfSite()).at(-1)).toMatchObject({ state: "completed", retryCount: 1 });
  });
});
