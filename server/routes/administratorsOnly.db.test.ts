import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMINISTRATORS_ONLY } from "../../common/errors.js";
import { bearer, createTenant, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../test/helpers/app.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../test/helpers/fakeJira.js";
import type { HostCall, HostClient } from "../connect/hostClient.js";
import { HostCallError } from "../connect/hostClientImpl.js";
import { HOST_DATA_PROBLEM } from "../services/issueLinks/findJiraIssue.js";

const ADMIN = "557058:site-admin";
const MEMBER = "557058:member";

/** A Jira where ADMIN administers and MEMBER does not; `down` makes every call fail as an overloaded Jira does. */
const jira = { down: false, checks: [] as (HostCall & { tenantId: string; product: string })[] };
const hostClient: HostClient = {
  async call<T>(tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T> {
    if (jira.down) throw new HostCallError(503, "", "Jira answered 503");
    if (!isPermissionCheck(call)) throw new Error(`unexpected host call ${call.path}`);
    // The administrator question only: reads also ask which projects the user may browse.
    if ((call.body as { globalPermissions?: unknown } | undefined)?.globalPermissions) jira.checks.push({ tenantId, product, ...call });
    return permissionCheckAnswer(call, { isAdministrator: (accountId) => accountId === ADMIN }) as T;
  },
};

let ctx: TestContext;
let tenant: TestTenant;
let admin: string;
let member: string;
let types: Record<string, number>;
let fieldId: number;

beforeAll(async () => {
  ctx = await createTestApp({ hostClient });
  tenant = await createTenant(ctx.deps.db);
  admin = await bearer(ctx, tenant, ADMIN);
  member = await bearer(ctx, tenant, MEMBER);
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  const field = await request(ctx.app)
    .post("/api/attribute")
    .set("Authorization", admin)
    .send({ name: "Risk", project: 10000, type: "string" });
  expect(field.status).toBe(201);
  fieldId = field.body.attribute_id;
});
afterAll(() => ctx.destroy());
beforeEach(() => {
  jira.down = false;
  jira.checks.length = 0;
});

const api = () => request(ctx.app);

/** Everything the configuration page shows, read as the member: reads stay open to every user. */
async function configuration() {
  const [typeList, fields, settings] = await Promise.all([
    api().get("/api/requirement/type").set("Authorization", member),
    api().get("/api/attribute").set("Authorization", member),
    api().get("/api/customer/settings").set("Authorization", member),
  ]);
  for (const res of [typeList, fields, settings]) expect(res.status).toBe(200);
  return { types: typeList.body, fields: fields.body, settings: settings.body };
}

type Write = { name: string; send: (authorization: string) => request.Test };
const writes = (): Write[] => [
  {
    name: "create a requirement type",
    send: (a) => api().post("/api/requirement/type").set("Authorization", a).send({ name: "Hazard", prefix: "HZ" }),
  },
  {
    name: "rename a requirement type",
    send: (a) => api().put(`/api/requirement/type/${types.SW}`).set("Authorization", a).send({ name: "Firmware", prefix: "FW" }),
  },
  { name: "delete a requirement type", send: (a) => api().delete(`/api/requirement/type/${types.SW}`).set("Authorization", a) },
  {
    name: "create a custom field",
    send: (a) => api().post("/api/attribute").set("Authorization", a).send({ name: "Owner", project: 10000, type: "string" }),
  },
  { name: "delete a custom field", send: (a) => api().delete(`/api/attribute/${fieldId}`).set("Authorization", a) },
  {
    name: "change the settings",
    send: (a) =>
      api()
        .patch("/api/customer/settings")
        .set("Authorization", a)
        .send({ comment_on_associated_issues: true, confluence_spaces_to_filter: "ENG" }),
  },
];

describe("configuration changes are Jira administrators' only", () => {
  it.each(writes().map((write) => [write.name, write] as const))(
    "refuses a member who is not a Jira administrator to %s, changing nothing",
    async (_name, write) => {
      const before = await configuration();

      const res = await write.send(member);

      expect(res.status).toBe(403);
      expect(res.body).toEqual({ Result: ADMINISTRATORS_ONLY });
      expect(await configuration()).toEqual(before);
      // The token's site's Jira was asked about this person, by account, for the global permission only.
      expect(jira.checks).toEqual([
        {
          tenantId: tenant.tenantId,
          product: "jira",
          method: "POST",
          path: "/rest/api/3/permissions/check",
          body: { accountId: MEMBER, globalPermissions: ["ADMINISTER"] },
        },
      ]);
    },
  );

  it.each(writes().map((write) => [write.name, write] as const))(
    "answers 503 when Jira cannot be asked whether the user may %s, changing nothing",
    async (_name, write) => {
      const before = await configuration();
      jira.down = true;

      const res = await write.send(admin);

      expect(res.status).toBe(503);
      expect(res.body).toEqual({ Result: HOST_DATA_PROBLEM });
      jira.down = false;
      expect(await configuration()).toEqual(before);
    },
  );

  it("refuses a member before reading the body: an invalid change is still a 403", async () => {
    const res = await api().post("/api/attribute").set("Authorization", member).send({ name: "", type: "colour" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ Result: ADMINISTRATORS_ONLY });
  });

  it("lets a Jira administrator make every change", async () => {
    const created = await api().post("/api/requirement/type").set("Authorization", admin).send({ name: "Hazard", prefix: "HZ" });
    expect(created.status).toBe(201);
    const renamed = await api()
      .put(`/api/requirement/type/${created.body.requirement_type_id}`)
      .set("Authorization", admin)
      .send({ name: "Hazards", prefix: "HZ" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Hazards");
    expect((await api().delete(`/api/requirement/type/${created.body.requirement_type_id}`).set("Authorization", admin)).status).toBe(200);

    const field = await api().post("/api/attribute").set("Authorization", admin).send({ name: "Owner", project: 10000, type: "string" });
    expect(field.status).toBe(201);
    expect((await api().delete(`/api/attribute/${field.body.attribute_id}`).set("Authorization", admin)).status).toBe(200);

    const settings = await api()
      .patch("/api/customer/settings")
      .set("Authorization", admin)
      .send({ send_email_notification_to_assignee: true });
    expect(settings.status).toBe(200);
    expect(settings.body.send_email_notification_to_assignee).toBe(true);

    expect(jira.checks).toHaveLength(6);
    expect(jira.checks.every((call) => (call.body as { accountId: string }).accountId === ADMIN)).toBe(true);
    const after = await configuration();
    expect(after.types.requirement_types.map((type: { name: string }) => type.name)).not.toContain("Hazards");
    expect(after.settings.send_email_notification_to_assignee).toBe(true);
  });
});
