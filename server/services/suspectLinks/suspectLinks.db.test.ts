import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_HEADERS } from "../../../common/csvHeaders.js";
import { bearer, createTenant, createTestApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";
import { pumpHostClient } from "../../../test/helpers/csvImport.js";
import { isPermissionCheck, permissionCheckAnswer } from "../../../test/helpers/fakeJira.js";
import { importReqif, reqifFixture } from "../../../test/helpers/reqif.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { exportRequirementRows } from "../csv/exportRequirements.js";

const PROJECT = 10000;
const EDITOR = "557058:editor";
/** Browses every project, edits none. */
const READER = "557058:reader";
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let readerAuth: string;
let types: Record<string, number>;
let nextProject = 52000;

beforeAll(async () => {
  const pump = pumpHostClient();
  ctx = await createTestApp(
    {
      hostClient: {
        call: async <T>(tenantId: string, product: Parameters<HostClient["call"]>[1], call: HostCall): Promise<T> =>
          isPermissionCheck(call)
            ? (permissionCheckAnswer(call, {
                holds: (accountId, _project, permission) => accountId !== READER || permission === "BROWSE_PROJECTS",
              }) as T)
            : pump.call<T>(tenantId, product, call),
      },
    },
    { jobs: { work: true } },
  );
  tenant = await createTenant(ctx.deps.db);
  auth = await bearer(ctx, tenant, EDITOR);
  readerAuth = await bearer(ctx, tenant, READER);
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
});
afterAll(() => ctx.destroy());

const api = () => request(ctx.app);
const ok = <T extends { status: number; body: unknown }>(res: T, status = 200): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
};
const create = async (body: Record<string, unknown>, project = PROJECT) =>
  ok(
    await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ project, requirement_type_id: types.SYS, ...body }),
    201,
  ).body;
const read = async (id: number, as = auth) => ok(await api().get(`/api/requirement/${id}`).set("Authorization", as)).body;
const put = async (id: number, body: Record<string, unknown>) =>
  ok(await api().put(`/api/requirement/${id}`).set("Authorization", auth).send(body)).body;
const review = (id: number, body: Record<string, unknown>, as = auth) =>
  api().post(`/api/requirement/${id}/suspect-links/review`).set("Authorization", as).send(body);
const suspectOf = async (id: number) =>
  (await read(id)).suspect_links as { link_type: string; target_id: unknown; since_revision: number }[];
const targets = async (id: number) => (await suspectOf(id)).map((mark) => `${mark.link_type}:${mark.target_id}`);

/** A SYS requirement in a project of its own, linked to an SW requirement, issue 7001 and page 8001. */
async function linkedRequirement(extra: Record<string, unknown> = {}) {
  const project = nextProject++;
  const software = await create({ name: "Valve driver", requirement_type_id: types.SW }, project);
  const system = await create(
    {
      name: "Pump pressure",
      description: "Holds 3 bar",
      requirements: [software.requirement_id],
      issues: ["7001"],
      contents: ["8001"],
      ...extra,
    },
    project,
  );
  return { project, system, software };
}

describe("a change that makes a requirement's links suspect", () => {
  it("marks every link of a renamed requirement, with its revision, who and when; both ends see the requirement link", async () => {
    const { system, software } = await linkedRequirement();
    expect(await suspectOf(system.requirement_id)).toEqual([]);
    const saved = await put(system.requirement_id, { name: "Pump pressure at the outlet", revision: system.revision });
    const mark = {
      since_revision: saved.revision,
      changed_by: { account_id: EDITOR },
      changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    };
    expect(saved.suspect_links).toEqual([
      { link_type: "content", target_id: "8001", ...mark },
      { link_type: "issue", target_id: "7001", ...mark },
      { link_type: "requirement", target_id: software.requirement_id, ...mark },
    ]);
    expect(await suspectOf(software.requirement_id)).toEqual([{ link_type: "requirement", target_id: system.requirement_id, ...mark }]);
  });

  it.each<[string, Record<string, unknown> | "attribute"]>([
    ["description", { description: "Holds 4 bar" }],
    ["custom field", "attribute"],
  ])("marks them when the %s changes", async (_field, edit) => {
    const { system, project } = await linkedRequirement();
    const body =
      edit === "attribute"
        ? {
            attributes: {
              [String(
                ok(await api().post("/api/attribute").set("Authorization", auth).send({ name: "Source", type: "string", project }), 201)
                  .body.attribute_id,
              )]: "Customer",
            },
          }
        : edit;
    await put(system.requirement_id, { name: system.name, ...body });
    expect(await targets(system.requirement_id)).toEqual([
      "content:8001",
      "issue:7001",
      `requirement:${system.linked_requirements_v2[0].requirement_id}`,
    ]);
  });

  it("marks the issue and page links when the type changes (its requirement links go with the old level)", async () => {
    const { system } = await linkedRequirement();
    await put(system.requirement_id, { name: system.name, requirement_type_id: types.SR, linked_requirements: [] });
    expect(await targets(system.requirement_id)).toEqual(["content:8001", "issue:7001"]);
  });

  it.each([
    ["status", { status: "10001" }],
    ["assignee", { assigned_to: "557058:someone" }],
    ["components", { components: ["10100"] }],
  ])("leaves them alone when only the %s changes", async (_field, edit) => {
    const { system, software } = await linkedRequirement();
    const saved = await put(system.requirement_id, { name: system.name, ...edit });
    expect(saved.revision).toBe(system.revision + 1);
    expect(saved.suspect_links).toEqual([]);
    expect(await suspectOf(software.requirement_id)).toEqual([]);
  });

  it("does not mark a link the same save makes: its maker saw the new text", async () => {
    const { system } = await linkedRequirement();
    await put(system.requirement_id, { name: "Renamed", issues: ["7001", "7002"] });
    expect(await targets(system.requirement_id)).not.toContain("issue:7002");
    expect(await targets(system.requirement_id)).toContain("issue:7001");
  });

  it("keeps the first revision when the requirement changes again before a review", async () => {
    const { system } = await linkedRequirement();
    const first = await put(system.requirement_id, { name: "First change" });
    await put(system.requirement_id, { name: "Second change" });
    expect((await suspectOf(system.requirement_id)).map((mark) => mark.since_revision)).toEqual([
      first.revision,
      first.revision,
      first.revision,
    ]);
  });

  it("drops the mark with the link", async () => {
    const { system, software } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    await put(system.requirement_id, { name: "Changed", issues: [], linked_requirements: [] });
    expect(await targets(system.requirement_id)).toEqual(["content:8001"]);
    expect(await suspectOf(software.requirement_id)).toEqual([]);
  });

  it("marks the links of a requirement a ReqIF re-import changes back to the file's text", async () => {
    const project = nextProject++;
    const file = reqifFixture("doors-04.reqif");
    const importOnce = async () => {
      const outcome = await importReqif(ctx, tenant.tenantId, auth, file, { atlassian_project_id: project, parent_folder_id: null });
      expect(outcome.error).toBeNull();
    };
    await importOnce();
    const [imported] = ok(await api().get(`/api/requirement?atlassian_project_id=${project}`).set("Authorization", auth)).body.requirements;
    await put(imported.requirement_id, { name: imported.name, issues: ["7001"] });
    await importOnce();
    expect(await suspectOf(imported.requirement_id)).toEqual([]);
    // Someone renamed it outside the file; the re-import writes the file's name back.
    await ctx.deps
      .db("requirements")
      .where({ tenant_id: tenant.tenantId, requirement_id: imported.requirement_id })
      .update({ name: "Renamed meanwhile" });
    await importOnce();
    expect(await targets(imported.requirement_id)).toEqual(["issue:7001"]);
  });
});

describe("marking a suspect link reviewed", () => {
  it("clears a requirement link on both ends from the other end, and records it in both Activities", async () => {
    const { system, software } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    ok(await review(software.requirement_id, { link_type: "requirement", target_id: system.requirement_id }), 204);
    expect(await targets(system.requirement_id)).toEqual(["content:8001", "issue:7001"]);
    expect(await suspectOf(software.requirement_id)).toEqual([]);
    for (const [id, other] of [
      [system.requirement_id, software.requirement_id],
      [software.requirement_id, system.requirement_id],
    ]) {
      const activity = ok(await api().get(`/api/requirement/${id}/revision`).set("Authorization", auth)).body.revisions;
      expect(activity[0]).toMatchObject({
        action: "reviewed",
        account_id: EDITOR,
        reviewed_link: { link_type: "requirement", target_id: other },
      });
    }
  });

  it("clears every link of the requirement with all", async () => {
    const { system, software } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    ok(await review(system.requirement_id, { all: true }), 204);
    expect(await suspectOf(system.requirement_id)).toEqual([]);
    expect(await suspectOf(software.requirement_id)).toEqual([]);
  });

  it("answers 404 for a link the requirement does not have, 204 for one that is not suspect", async () => {
    const { system } = await linkedRequirement();
    const unknown = ok(await review(system.requirement_id, { link_type: "issue", target_id: "9999" }), 404);
    expect(unknown.body).toEqual({ Result: "Link not found" });
    ok(await review(system.requirement_id, { link_type: "issue", target_id: "7001" }), 204);
    ok(await review(system.requirement_id, { link_type: "page" }), 400);
  });

  it("shows the reviewer the requirement before the change and now", async () => {
    const { system, software } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed", status: "10001" });
    const change = ok(
      await api()
        .get(`/api/requirement/${software.requirement_id}/suspect-links/change?link_type=requirement&target_id=${system.requirement_id}`)
        .set("Authorization", auth),
    ).body;
    expect(change).toMatchObject({ requirement_id: system.requirement_id, before: { name: "Pump pressure" }, after: { name: "Changed" } });
  });
});

describe("who may see and review suspect links", () => {
  it("keeps them to the site: another site's person finds neither the requirement nor its links", async () => {
    const { system } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    const other = await bearer(ctx, await createTenant(ctx.deps.db), EDITOR);
    ok(await api().get(`/api/requirement/${system.requirement_id}`).set("Authorization", other), 404);
    ok(await review(system.requirement_id, { all: true }, other), 404);
    expect(await suspectOf(system.requirement_id)).toHaveLength(3);
  });

  it("lets a person who may browse but not edit the project read them, not clear them", async () => {
    const { system } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    expect((await read(system.requirement_id, readerAuth)).suspect_links).toHaveLength(3);
    ok(await review(system.requirement_id, { all: true }, readerAuth), 403);
    expect(await suspectOf(system.requirement_id)).toHaveLength(3);
  });
});

describe("lists, the matrix, baselines and the CSV export", () => {
  it("flag the requirements with suspect links, and filter to them", async () => {
    const { project, system, software } = await linkedRequirement();
    const quiet = await create({ name: "Unlinked" }, project);
    await put(system.requirement_id, { name: "Changed" });
    const list = async (query: string) =>
      ok(await api().get(`/api/requirement?atlassian_project_id=${project}${query}`).set("Authorization", auth)).body.requirements as {
        requirement_id: number;
        has_suspect_links: boolean;
        issue_link_suspect?: boolean;
      }[];
    expect((await list("")).map((row) => [row.requirement_id, row.has_suspect_links])).toEqual([
      [software.requirement_id, true],
      [system.requirement_id, true],
      [quiet.requirement_id, false],
    ]);
    expect((await list("&suspect=true")).map((row) => row.requirement_id)).toEqual([software.requirement_id, system.requirement_id]);
    expect(await list("&atlassian_issue_id=7001")).toEqual([
      expect.objectContaining({ requirement_id: system.requirement_id, issue_link_suspect: true }),
    ]);
    const lite = ok(await api().get(`/api/requirement/lite?atlassian_project_id=${project}`).set("Authorization", auth)).body.requirements;
    expect(lite.map((row: { has_suspect_links: boolean }) => row.has_suspect_links)).toEqual([true, true, false]);

    const matrix = ok(await api().get(`/api/requirement/matrix?atlassian_project_id=${project}`).set("Authorization", auth)).body;
    expect(matrix.rows.map((row: { has_suspect_links: boolean }) => row.has_suspect_links)).toEqual([true, true, false]);
    expect(matrix.rows[1].issues).toEqual([{ atlassian_issue_id: "7001", suspect: true }]);
    const suspectOnly = ok(
      await api().get(`/api/requirement/matrix?atlassian_project_id=${project}&suspect=true`).set("Authorization", auth),
    ).body;
    expect(suspectOnly.total_rows).toBe(2);
  });

  it("are frozen into baselines and compared", async () => {
    const { project, system } = await linkedRequirement();
    const baseline = async () =>
      ok(await api().post("/api/baseline").set("Authorization", auth).send({ name: "B", project, select_all_requirements: true }), 201).body
        .baseline_id;
    const compare = async (first: number, second: number) =>
      ok(
        await api()
          .get(`/api/baseline/compare?atlassian_project_id=${project}&baseline1=${first}&baseline2=${second}`)
          .set("Authorization", auth),
      ).body.requirements as { requirement_id: number; changed_fields: string[] }[];
    const before = await baseline();
    const changed = await put(system.requirement_id, { name: "Changed" });
    const suspect = await baseline();
    ok(await review(system.requirement_id, { all: true }), 204);
    const reviewed = await baseline();

    const frozen = ok(await api().get(`/api/baseline/${suspect}?atlassian_project_id=${project}`).set("Authorization", auth)).body;
    const frozenSystem = frozen.requirement_revisions.find(
      (row: { requirement_id: number }) => row.requirement_id === system.requirement_id,
    );
    expect(frozenSystem.suspect_links).toContainEqual({ link_type: "issue", target_id: "7001", since_revision: changed.revision });
    expect((await compare(before, suspect)).find((row) => row.requirement_id === system.requirement_id)?.changed_fields).toEqual([
      "name",
      "suspect_links",
    ]);
    // Reviewing writes no revision: only the frozen marks tell the two baselines apart.
    expect((await compare(suspect, reviewed)).map((row) => [row.requirement_id, row.changed_fields])).toEqual(
      expect.arrayContaining([[system.requirement_id, ["suspect_links"]]]),
    );
  });

  it("are written to the CSV export's Suspect links column", async () => {
    const { project, system, software } = await linkedRequirement();
    await put(system.requirement_id, { name: "Changed" });
    const rows: string[][] = [];
    for await (const row of exportRequirementRows(ctx.deps, { tenantId: tenant.tenantId, accountId: EDITOR }, project)) rows.push(row);
    const column = rows[0]?.indexOf(EXPORT_HEADERS.suspectLinks) ?? -1;
    expect(column).toBe((rows[0]?.length ?? 0) - 1);
    expect(rows[1]?.[column]).toBe(`SYS-${system.requirement_id}: Changed`);
    expect(rows[2]?.[column]).toBe(`SW-${software.requirement_id}: Valve driver\nPUMP-7001\nPage 8001`);
  });
});
