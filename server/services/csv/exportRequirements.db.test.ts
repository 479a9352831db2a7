import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { PUMP_COMPONENTS, PUMP_STATUSES } from "../../../test/helpers/csvImport.js";
import { type FakeJiraPermissions, isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { AppError } from "../../errors.js";
import { HOST_DATA_PROBLEM } from "../issueLinks/findJiraIssue.js";
import type { Actor } from "../context.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { exportRequirementRows } from "./exportRequirements.js";

const PROJECT = 10000;
/** More than two pages of the export, so rows and their names must line up across page boundaries. */
const REQUIREMENTS = 2500;
/** More people than one `user/bulk` call answers. */
const PEOPLE = 120;

let ctx: TestContext;
let actor: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  actor = { tenantId: (await createTenant(ctx.deps.db)).tenantId, accountId: "557058:test-user" };
  await seedDefaultRequirementTypes(ctx.deps, actor);
  const type = (await listRequirementTypes(ctx.deps.db, actor.tenantId)).find((candidate) => candidate.prefix === "SYS");
  // Requirement n of the project: custom ID R-n, assignee person n % PEOPLE, issue 30000 + n. Every
  // third requirement of the site belongs to another project, with issues of its own, so the
  // project's ids are not one unbroken range and nothing of the other project may show.
  await ctx.deps.db.raw(
    `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, display_id, name, assigned_to, created_by)
     SELECT ?, CASE WHEN g % 3 = 0 THEN ?::bigint ELSE ?::bigint END, ?, CASE WHEN g % 3 = 0 THEN 'O-' || g ELSE 'R-' || (g - g / 3) END,
       'Requirement ' || g, '557058:person-' || ((g - g / 3) % ?), 'test'
     FROM generate_series(1, ?) g`,
    [actor.tenantId, PROJECT + 1, PROJECT, type?.requirement_type_id ?? 0, PEOPLE, (REQUIREMENTS * 3) / 2],
  );
  await ctx.deps.db.raw(
    `INSERT INTO requirement_issue_links (tenant_id, requirement_id, atlassian_issue_id)
     SELECT tenant_id, requirement_id, (CASE WHEN project_id = ?::bigint THEN 30000 + substr(display_id, 3)::int ELSE 90000 + requirement_id END)::text
     FROM requirements WHERE tenant_id = ?`,
    [PROJECT, actor.tenantId],
  );
});
afterAll(() => ctx.destroy());

type Jira = { client: HostClient; calls: HostCall[]; rateLimitedOnce: boolean; failIssueReads: boolean };

/**
 * A Jira that names issue n `PUMP-n` and person p `Person p`, and can answer 429 once or fail issue
 * reads for good; everyone browses every issue unless `permissions` say otherwise.
 */
function jira(options: { rateLimitedOnce?: boolean; failIssueReads?: boolean; permissions?: FakeJiraPermissions } = {}): Jira {
  const state: Jira = {
    calls: [],
    rateLimitedOnce: options.rateLimitedOnce ?? false,
    failIssueReads: options.failIssueReads ?? false,
    client: {
      call: async <T>(_tenantId: string, _product: string, call: HostCall): Promise<T> => {
        state.calls.push(call);
        if (isPermissionCheck(call)) return permissionCheckAnswer(call, options.permissions) as T;
        if (call.path.endsWith("/components")) return PUMP_COMPONENTS as T;
        if (call.path.endsWith("/statuses")) return [{ id: "10001", name: "Story", statuses: PUMP_STATUSES }] as T;
        if (call.path === "/rest/api/3/issue/bulkfetch") {
          if (state.rateLimitedOnce) {
            state.rateLimitedOnce = false;
            throw new HostCallError(429, "", "Jira answered 429", 0);
          }
          if (state.failIssueReads) throw new HostCallError(500, "", "Jira answered 500");
          const ids = (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys;
          return { issues: ids.map((id) => ({ id, key: `PUMP-${Number(id) - 30000}`, fields: { issuetype: { id: "10001" } } })) } as T;
        }
        if (call.path.startsWith("/rest/api/3/user/bulk")) {
          const ids = new URLSearchParams(call.path.split("?")[1]).getAll("accountId");
          return { values: ids.map((accountId) => ({ accountId, displayName: `Person ${accountId.split("-")[1]}` })) } as T;
        }
        throw new Error(`unexpected host call ${call.path}`);
      },
    },
  };
  return state;
}

async function exported(host: HostClient, by: Actor = actor): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of exportRequirementRows({ ...ctx.deps, hostClient: host }, by, PROJECT)) rows.push(row);
  return rows;
}

const column = (rows: string[][], name: string) => {
  const index = rows[0]?.indexOf(name) ?? -1;
  return rows.slice(1).map((row) => row[index]);
};

describe("exporting a project larger than a page", () => {
  it("lists every requirement once, in order, with its issue's key and its assignee's name, waiting out Jira's rate limit", async () => {
    const host = jira({ rateLimitedOnce: true });

    const rows = await exported(host.client);

    const numbers = Array.from({ length: REQUIREMENTS }, (_, index) => index + 1);
    expect(column(rows, "ID")).toEqual(numbers.map((n) => `SYS-R-${n}`));
    expect(column(rows, "Linked issues")).toEqual(numbers.map((n) => `PUMP-${n}`));
    expect(column(rows, "Assignee")).toEqual(numbers.map((n) => `Person ${n % PEOPLE}`));
    const issueReads = host.calls.filter((call) => call.path === "/rest/api/3/issue/bulkfetch");
    // One read per page of 1000 requirements, and the one Jira refused with 429 asked again.
    expect(issueReads.map((call) => (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys.length).toSorted((a, b) => b - a)).toEqual([
      1000, 1000, 1000, 500,
    ]);
    const askedPeople = host.calls
      .filter((call) => call.path.startsWith("/rest/api/3/user/bulk"))
      .flatMap((call) => new URLSearchParams(call.path.split("?")[1]).getAll("accountId"));
    expect(askedPeople.toSorted()).toEqual(Array.from({ length: PEOPLE }, (_, p) => `557058:person-${p}`).toSorted());
  });

  it("still downloads when Jira cannot be read, with the issue ids in place of their keys", async () => {
    const rows = await exported(jira({ failIssueReads: true }).client);

    expect(column(rows, "Linked issues")).toEqual(Array.from({ length: REQUIREMENTS }, (_, index) => String(30001 + index)));
    expect(column(rows, "Assignee")[0]).toBe("Person 1");
  });
});

describe("exporting as someone who may not browse every linked issue", () => {
  const member = () => ({ tenantId: actor.tenantId, accountId: "557058:member" });
  /** The member may not browse the issues of even-numbered requirements (another project of Jira's). */
  const permissions: FakeJiraPermissions = {
    mayBrowse: (accountId, issueId) => accountId !== "557058:member" || Number(issueId) % 2 === 1,
  };

  it("leaves those issues out as if not linked, asking Jira once for all of the project's issues, 1000 a call, as that person", async () => {
    const host = jira({ permissions });

    const rows = await exported(host.client, member());

    const numbers = Array.from({ length: REQUIREMENTS }, (_, index) => index + 1);
    expect(column(rows, "Linked issues")).toEqual(numbers.map((n) => (n % 2 === 1 ? `PUMP-${n}` : "")));
    // The issue checks; the export also asks once which projects its person may browse (services/access).
    const checks = host.calls
      .filter(isPermissionCheck)
      .map((call) => call.body as { accountId: string; projectPermissions: { permissions: string[]; issues?: number[] }[] })
      .filter((body) => body.projectPermissions.some((entry) => entry.issues !== undefined));
    expect(checks.map((body) => body.accountId)).toEqual(["557058:member", "557058:member", "557058:member"]);
    const asked = checks.flatMap((body) => body.projectPermissions.flatMap((entry) => entry.issues ?? []));
    expect(checks.map((body) => body.projectPermissions[0]?.issues?.length).toSorted((a, b) => (b ?? 0) - (a ?? 0))).toEqual([
      1000, 1000, 500,
    ]);
    // The project's own issues only, each once.
    expect(asked.toSorted((a, b) => a - b)).toEqual(numbers.map((n) => 30000 + n));
    // Keys are read only for the issues shown.
    const keyed = host.calls
      .filter((call) => call.path === "/rest/api/3/issue/bulkfetch")
      .flatMap((call) => (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys);
    expect(keyed).toHaveLength(REQUIREMENTS / 2);
  });

  it("shows an administrator every issue", async () => {
    const rows = await exported(jira({ permissions }).client, { tenantId: actor.tenantId, accountId: "557058:site-admin" });

    expect(column(rows, "Linked issues")).toEqual(Array.from({ length: REQUIREMENTS }, (_, index) => `PUMP-${index + 1}`));
  });

  it("fails before the first row, with the spec's host message, when Jira cannot tell", async () => {
    const failing: FakeJiraPermissions = {
      mayBrowse: () => {
        throw new HostCallError(500, "", "Jira answered 500");
      },
    };
    const rows = exportRequirementRows({ ...ctx.deps, hostClient: jira({ permissions: failing }).client }, member(), PROJECT);

    const failure = await rows.next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, body: { Result: HOST_DATA_PROBLEM } });
  });
});
