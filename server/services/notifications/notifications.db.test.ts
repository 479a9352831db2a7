import type { AddressInfo } from "node:net";
import { appActor } from "../context.js";
import { Writable } from "node:stream";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createTenant,
  createTestApp,
  type TestContext,
  type TestTenant,
  testConfig,
} from "../../../test/helpers/app.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { DomainEventBus, type RequirementEventState } from "../events.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { notificationsSettled, registerNotificationListeners } from "./index.js";

type RecordedCall = HostCall & { tenantId: string; product: string };

/** Jira as the emulator answers: every user has an address, statuses have names, comments are accepted. */
function fakeJira(): HostClient & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    call: async <T>(tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T> => {
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

beforeAll(async () => {
  smtp = await startSmtpServer();
  jira = fakeJira();
  ctx = await createTestApp({ hostClient: jira, config: { ...testConfig(), smtpUrl: smtp.url } });
});
afterAll(async () => {
  await ctx.destroy();
  await smtp.close();
});
afterEach(() => {
  jira.calls.length = 0;
  smtp.received.length = 0;
  smtp.state.refuse = 0;
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

function save(tenant: TestTenant, before: RequirementEventState | undefined, after: RequirementEventState | undefined) {
  ctx.deps.events.emit("requirementSaved", {
    tenantId: tenant.tenantId,
    accountId: "557058:editor",
    requirementId: 42,
    before,
    after,
  });
  return notificationsSettled(ctx.deps.events);
}

const commentCalls = () => jira.calls.filter((call) => call.method === "POST" && call.path.endsWith("/comment"));
const commentText = (call: RecordedCall) =>
  JSON.stringify((call.body as { body: unknown }).body).match(/"text":"([^"]*)"/g)?.map((m) => m.slice(8, -1)).join("");

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
    await save(
      tenant,
      requirement({ issueIds: ["10001", "10002"] }),
      requirement({ issueIds: ["10002"], statusId: "3" }),
    );

    const texts = commentCalls().map((call) => [call.path, commentText(call)]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ["/rest/api/3/issue/10001/comment", "rmCloud requirement SYS-42: Brake within 3 seconds was unlinked from this issue."],
        [
          "/rest/api/3/issue/10002/comment",
          "rmCloud requirement SYS-42: Brake within 3 seconds changed status from Status 1 to Status 3.",
        ],
      ]),
    );
    expect(texts).toHaveLength(2);
  });

  it("posts nothing with the switch off", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: false, send_email_notification_to_assignee: false });
    await save(tenant, requirement({ issueIds: ["10001"] }), requirement({ issueIds: ["10002"], name: "Renamed" }));
    expect(jira.calls).toEqual([]);
  });

  it("posts nothing when no link, name or status changed", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true });
    await save(tenant, requirement({ issueIds: ["10001"] }), requirement({ issueIds: ["10001"] }));
    expect(commentCalls()).toEqual([]);
  });
});

describe("email to the assignee", () => {
  it("sends the new assignee the requirement's label and a link to it", async () => {
    const tenant = await siteWith({ send_email_notification_to_assignee: true });
    await save(tenant, requirement(), requirement({ assignedTo: "557058:alice" }));

    expect(jira.calls).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/rest/api/3/user?accountId=557058%3Aalice" }),
    );
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

  it("retries when the mail server refuses for a while, without failing the save", async () => {
    const logLines: string[] = [];
    const logger = pino(
      { level: "warn" },
      new Writable({
        write(chunk, _encoding, callback) {
          logLines.push(String(chunk));
          callback();
        },
      }),
    );
    const events = new DomainEventBus();
    registerNotificationListeners({ ...ctx.deps, events, logger }, { retryDelaysMs: [10, 10, 10] });
    const tenant = await siteWith({ send_email_notification_to_assignee: true });

    smtp.state.refuse = 2;
    const emit = () =>
      events.emit("requirementSaved", {
        tenantId: tenant.tenantId,
        accountId: "557058:editor",
        requirementId: 42,
        before: undefined,
        after: requirement({ assignedTo: "557058:carol" }),
      });
    expect(emit).not.toThrow();
    await notificationsSettled(events);
    expect(smtp.received.map((mail) => mail.to)).toEqual([["carol@example.test"]]);
    expect(logLines.filter((line) => line.includes("email failed, will retry"))).toHaveLength(2);

    smtp.state.refuse = 100;
    expect(emit).not.toThrow();
    await notificationsSettled(events);
    expect(smtp.received).toHaveLength(1);
    const final = logLines.filter((line) => line.includes("email not sent"));
    expect(final).toHaveLength(1);
    expect(final[0]).toContain("557058:carol");
    expect(final[0]).not.toContain("@example.test");
  });

  it("writes the message to the outbox folder when no SMTP server is configured", async () => {
    const { mkdtemp, readdir, readFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dataDir = await mkdtemp(path.join(tmpdir(), "rmcloud-outbox-"));
    try {
      const events = new DomainEventBus();
      registerNotificationListeners({ ...ctx.deps, events, config: { ...testConfig(), dataDir, outboxDir: path.join(dataDir, "outbox"), smtpUrl: undefined } });
      const tenant = await siteWith({ send_email_notification_to_assignee: true });
      events.emit("requirementSaved", {
        tenantId: tenant.tenantId,
        accountId: "557058:editor",
        requirementId: 42,
        before: requirement({ assignedTo: "557058:alice" }),
        after: requirement({ assignedTo: "557058:dave" }),
      });
      await notificationsSettled(events);
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

describe("a requirement saved through the API", () => {
  it("comments on the linked issue and emails the assignee once the save has answered", async () => {
    const tenant = await siteWith({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });
    await seedDefaultRequirementTypes(ctx.deps, appActor(tenant.tenantId));
    const auth = await bearer(ctx, tenant);
    const types = await request(ctx.app).get("/api/requirement/type").set("Authorization", auth);
    const type = types.body.requirement_types[0];

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
    await notificationsSettled(ctx.deps.events);

    const label = `${type.prefix}-${created.body.requirement_id}: Stop within 40 m`;
    const calls = commentCalls();
    expect(calls.map((call) => call.path)).toEqual(["/rest/api/3/issue/10200/comment"]);
    expect(commentText(calls[0]!)).toBe(`rmCloud requirement ${label} was linked to this issue.`);
    expect(smtp.received.map((mail) => mail.to)).toEqual([["erin@example.test"]]);
    expect(decoded(smtp.received[0]!.raw)).toContain(`requirementId=${created.body.requirement_id}`);
  });
});
