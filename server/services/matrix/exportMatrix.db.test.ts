import { randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, insertRequirementRow, type TestContext } from "../../../test/helpers/app.js";
import { type FakeIssue, fakeJira } from "../../../test/helpers/fakeJira.js";
import { HostCallError } from "../../connect/hostClientImpl.js";
import { SUSPECT_MARKER } from "../../../common/labels.js";
import { storageKey } from "../../storage/objectStorage.js";
import { EXPORT_PAGE_ROWS, writeMatrixExport } from "./exportMatrix.js";

const PROJECT = 10000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

const issues: FakeIssue[] = [
  { id: "20001", key: "PUMP-1", summary: "Brake test", status: "Done", issueTypeId: "10001" },
  { id: "20002", key: "PUMP-2", summary: "Brake squeals", status: "In Progress", issueTypeId: "10002" },
  { id: "20003", key: "PUMP-3", summary: "Wire the brake", status: "To Do", issueTypeId: "10003" },
];

async function documentText(key: string) {
  const zip = await JSZip.loadAsync(await buffer(await ctx.deps.storage.getObject(key)));
  return (await zip.file("word/document.xml")?.async("string")) ?? "";
}

/** `count` requirements of the project named "Requirement 1" onwards, their ids in that order. */
async function insertRequirements(tenantId: string, count: number): Promise<{ requirement_id: number }[]> {
  const [type] = await ctx.deps
    .db("requirement_types")
    .insert({ tenant_id: tenantId, name: "System", prefix: "SYS", level: 3 })
    .returning("requirement_type_id");
  await ctx.deps.db.batchInsert(
    "requirements",
    Array.from({ length: count }, (_, i) => ({
      tenant_id: tenantId,
      project_id: PROJECT,
      requirement_type_id: type.requirement_type_id,
      name: `Requirement ${i + 1}`,
      created_by: "557058:test-user",
    })),
    500,
  );
  return ctx.deps.db("requirements").where({ tenant_id: tenantId }).orderBy("requirement_id").select("requirement_id");
}

describe("the Word export of the traceability matrix", () => {
  it("writes the selected issue-type columns only, with key, summary and status, and reports progress up to every row", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const braking = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Braking distance", PROJECT);
    await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Nobody tests this yet", PROJECT);
    await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Another project's", PROJECT + 1);
    await ctx.deps.db("requirement_issue_links").insert(
      ["20001", "20002", "20003", "29999"].map((atlassian_issue_id) => ({
        tenant_id: tenant.tenantId,
        requirement_id: braking,
        atlassian_issue_id,
      })),
    );
    const jira = fakeJira(issues);
    jira.state.rateLimit = 2;
    const progress: [number, number][] = [];
    const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);

    const result = await writeMatrixExport(
      { ...ctx.deps, hostClient: jira.client },
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      { projectId: PROJECT, selectedIssueTypes: ["10001", "10002"], storageKey: key },
      async (completed, total) => void progress.push([completed, total]),
      { now: new Date("2026-11-23T10:00:00Z"), sleep: async () => {} },
    );

    expect(result.totalRows).toBe(2);
    expect(progress).toEqual([
      [0, 2],
      [2, 2],
    ]);
    const xml = await documentText(key);
    expect(xml).toContain("Project: Pump Controller (PUMP)");
    expect(xml).toContain("Exported: 2026-11-23");
    expect(xml).toContain(">Story<");
    expect(xml).toContain(">Bug<");
    expect(xml).not.toContain(">Task<");
    expect(xml).toContain("Braking distance");
    expect(xml).toContain("Nobody tests this yet");
    expect(xml).not.toContain("Another project");
    expect(xml).toContain(">PUMP-1<");
    expect(xml).toContain(" Brake test");
    expect(xml).toContain(" (In Progress)");
    expect(xml).not.toContain("PUMP-3");
    // The two 429 answers were waited out and asked again.
    expect(jira.state.searches).toBe(3);
  });

  it("marks a requirement with suspect links after its ID, and each suspect issue link before its key (issue 34)", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const braking = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Braking distance", PROJECT);
    await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Nobody changed this", PROJECT);
    const links = ["20001", "20002"].map((atlassian_issue_id) => ({
      tenant_id: tenant.tenantId,
      requirement_id: braking,
      atlassian_issue_id,
    }));
    await ctx.deps.db("requirement_issue_links").insert(links);
    await ctx.deps
      .db("suspect_issue_links")
      .insert({ ...links[0], since_revision: 2, changed_by: "557058:test-user", changed_at: new Date() });
    const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);
    await writeMatrixExport(
      { ...ctx.deps, hostClient: fakeJira(issues).client },
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      { projectId: PROJECT, selectedIssueTypes: ["10001", "10002"], storageKey: key },
      async () => {},
      { now: new Date("2026-11-23T10:00:00Z"), sleep: async () => {} },
    );
    const [braked, unchanged] = (await documentText(key)).split("<w:tr>").slice(2);
    const texts = (row = "") => [...row.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map((match) => match[1]);
    expect(texts(braked)).toEqual(expect.arrayContaining([` ${SUSPECT_MARKER}`, `${SUSPECT_MARKER} `]));
    expect(texts(braked).indexOf(`${SUSPECT_MARKER} `)).toBe(texts(braked).indexOf("PUMP-1") - 1);
    expect(texts(braked).filter((text) => text?.includes(SUSPECT_MARKER))).toHaveLength(2);
    expect(unchanged).not.toContain(SUSPECT_MARKER);
  });

  it("walks a project larger than one page, progress moving page by page", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const count = EXPORT_PAGE_ROWS + 5;
    await insertRequirements(tenant.tenantId, count);
    const progress: number[] = [];
    const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);
    await writeMatrixExport(
      { ...ctx.deps, hostClient: fakeJira([]).client },
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      { projectId: PROJECT, selectedIssueTypes: [], storageKey: key },
      async (completed) => void progress.push(completed),
    );
    expect(progress).toEqual([0, EXPORT_PAGE_ROWS, count]);
    const xml = await documentText(key);
    expect(xml.match(/<w:tr>/g)).toHaveLength(count + 1);
    expect(xml).toContain(`Requirement ${count}<`);
  });

  it("reads the issues of pages ahead while writing, every row keeping its own issues in order", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const count = 3 * EXPORT_PAGE_ROWS + 7;
    const created = await insertRequirements(tenant.tenantId, count);
    const linked: FakeIssue[] = created.map((_row, i) => ({
      id: String(30000 + i),
      key: `PUMP-${1000 + i}`,
      summary: `Verifies requirement ${i + 1}`,
      status: "Done",
      issueTypeId: "10001",
    }));
    await ctx.deps.db.batchInsert(
      "requirement_issue_links",
      created.map((row, i) => ({ tenant_id: tenant.tenantId, requirement_id: row.requirement_id, atlassian_issue_id: linked[i]?.id })),
      500,
    );
    const jira = fakeJira(linked);
    const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);
    await writeMatrixExport(
      { ...ctx.deps, hostClient: jira.client },
      { tenantId: tenant.tenantId, accountId: "557058:test-user" },
      { projectId: PROJECT, selectedIssueTypes: ["10001"], storageKey: key },
      async () => {},
    );
    // One bulk fetch a page of requirements.
    expect(jira.state.searches).toBe(4);
    const rows = (await documentText(key)).split("<w:tr>").slice(2);
    expect(rows).toHaveLength(count);
    rows.forEach((row, i) => {
      expect(row).toContain(`>Requirement ${i + 1}<`);
      expect(row).toContain(`>PUMP-${1000 + i}<`);
    });
  });

  it("leaves out the issues the exporting person may not browse, as if not linked, asking Jira once for all of them", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const braking = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Braking distance", PROJECT);
    await ctx.deps.db("requirement_issue_links").insert(
      ["20001", "20002", "20003"].map((atlassian_issue_id) => ({
        tenant_id: tenant.tenantId,
        requirement_id: braking,
        atlassian_issue_id,
      })),
    );
    // Issue 20002 (PUMP-2) lies in a project the member may not browse; an administrator browses everything.
    const permissions = { mayBrowse: (accountId: string, issueId: string) => accountId !== "557058:member" || issueId !== "20002" };
    const exportAs = async (accountId: string) => {
      const jira = fakeJira(issues);
      jira.state.permissions = permissions;
      const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);
      await writeMatrixExport(
        { ...ctx.deps, hostClient: jira.client },
        { tenantId: tenant.tenantId, accountId },
        { projectId: PROJECT, selectedIssueTypes: ["10001", "10002", "10003"], storageKey: key },
        async () => {},
      );
      return { xml: await documentText(key), calls: jira.state.calls };
    };

    const member = await exportAs("557058:member");
    expect(member.xml).toContain(">PUMP-1<");
    expect(member.xml).toContain(">PUMP-3<");
    expect(member.xml).not.toContain("PUMP-2");
    expect(member.xml).not.toContain("Brake squeals");
    expect(member.xml).not.toContain("In Progress");
    // One permission check for the project's issues, as the member; the hidden issue's details are not even read.
    const checks = member.calls.filter((call) => call.path === "/rest/api/3/permissions/check");
    expect(checks.map((call) => call.body)).toEqual([
      {
        accountId: "557058:member",
        projectPermissions: [{ permissions: ["BROWSE_PROJECTS"], issues: expect.arrayContaining([20001, 20002, 20003]) }],
      },
    ]);
    const fetched = member.calls
      .filter((call) => call.path === "/rest/api/3/issue/bulkfetch")
      .flatMap((call) => (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys);
    expect(fetched.toSorted()).toEqual(["20001", "20003"]);

    const administrator = await exportAs("557058:site-admin");
    for (const text of [">PUMP-1<", ">PUMP-2<", ">PUMP-3<", " Brake squeals", " (In Progress)"]) expect(administrator.xml).toContain(text);
  });

  /** A project with one linked requirement exported through `jira`: the export must fail and leave no file. */
  async function expectFailedExportWithoutFile(jira: ReturnType<typeof fakeJira>): Promise<void> {
    const tenant = await createTenant(ctx.deps.db);
    const requirement = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Braking distance", PROJECT);
    await ctx.deps
      .db("requirement_issue_links")
      .insert({ tenant_id: tenant.tenantId, requirement_id: requirement, atlassian_issue_id: "20001" });
    const key = storageKey(tenant.tenantId, "exports", `${randomUUID()}.docx`);
    await expect(
      writeMatrixExport(
        { ...ctx.deps, hostClient: jira.client },
        { tenantId: tenant.tenantId, accountId: "557058:test-user" },
        { projectId: PROJECT, selectedIssueTypes: ["10001"], storageKey: key },
        async () => {},
      ),
    ).rejects.toThrow("Jira answered 500");
    expect(await ctx.deps.storage.head(key)).toBeUndefined();
  }

  it("fails, leaving no file, when Jira cannot tell which issues the person may browse", async () => {
    const jira = fakeJira(issues);
    jira.state.permissions = {
      mayBrowse: () => {
        throw new HostCallError(500, "", "Jira answered 500");
      },
    };
    await expectFailedExportWithoutFile(jira);
    expect(jira.state.searches).toBe(0);
  });

  it("fails, leaving no file, when Jira fails for good", async () => {
    const jira = fakeJira(issues);
    jira.state.failSearches = true;
    await expectFailedExportWithoutFile(jira);
  });
});
