import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MatrixResponseSchema } from "../../../common/schemas/matrix.js";
import {
  bearer,
  createTenant,
  createTestApp,
  insertRequirementRow,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";

const PROJECT = 10000;
const OTHER_PROJECT = 10001;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

async function link(tenant: TestTenant, requirementId: number, issueIds: string[]) {
  for (const atlassian_issue_id of issueIds) {
    await ctx.deps.db("requirement_issue_links").insert({ tenant_id: tenant.tenantId, requirement_id: requirementId, atlassian_issue_id });
  }
}

const getMatrix = async (tenant: TestTenant, projectId: number | string, window: Record<string, unknown> = {}) =>
  request(ctx.app)
    .get("/api/requirement/matrix")
    .query({ atlassian_project_id: projectId, ...window })
    .set("Authorization", await bearer(ctx, tenant));

const rowIds = (body: { rows: { requirements: { requirement_id: number }[] }[] }) =>
  body.rows.map((row) => row.requirements[0]?.requirement_id);

/** `count` requirements of one type (prefix SYS), named "Requirement 1".., each linked to one issue. */
async function seedProject(tenant: TestTenant, count: number): Promise<number[]> {
  const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  const rows = Array.from({ length: count }, (_, i) => ({
    tenant_id: tenant.tenantId,
    project_id: PROJECT,
    requirement_type_id: types.SYS,
    name: `Requirement ${i + 1}`,
    created_by: "557058:test-user",
  }));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const inserted = await ctx.deps
      .db("requirements")
      .insert(rows.slice(start, start + 500))
      .returning("requirement_id");
    ids.push(...inserted.map((row) => Number(row.requirement_id)));
  }
  const links = ids.map((requirement_id, i) => ({ tenant_id: tenant.tenantId, requirement_id, atlassian_issue_id: String(40000 + i) }));
  for (let start = 0; start < links.length; start += 500)
    await ctx.deps.db("requirement_issue_links").insert(links.slice(start, start + 500));
  return ids;
}

describe("GET /api/requirement/matrix", () => {
  it("answers a row per active requirement with its linked issues, the types and the requirement headings", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
    const [braking] = await ctx.deps
      .db("requirements")
      .insert({
        tenant_id: tenant.tenantId,
        project_id: PROJECT,
        requirement_type_id: types.SYS,
        name: "Braking distance",
        display_id: "BRK-1",
        created_by: "557058:test-user",
      })
      .returning("requirement_id");
    const brakingId = Number(braking.requirement_id);
    const lonely = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Nobody tests this yet", PROJECT);
    const deleted = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Withdrawn", PROJECT);
    await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: deleted }).update({ deleted_at: new Date() });
    await link(tenant, brakingId, ["20001", "20002"]);
    await link(tenant, deleted, ["20003"]);

    const res = await getMatrix(tenant, PROJECT);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    const body = MatrixResponseSchema.parse(res.body);
    expect(body.header_row).toEqual(["ID", "Name", "Type"]);
    expect(body.rows).toEqual([
      {
        requirements: [
          { requirement_id: brakingId, display_id: "BRK-1", prefix: "SYS", name: "Braking distance", requirement_type_id: types.SYS },
        ],
        issues: [
          { atlassian_issue_id: "20001", suspect: false },
          { atlassian_issue_id: "20002", suspect: false },
        ],
        has_suspect_links: false,
      },
      {
        requirements: [expect.objectContaining({ requirement_id: lonely, name: "Nobody tests this yet", display_id: null })],
        issues: [],
        has_suspect_links: false,
      },
    ]);
    const typeIds = body.requirement_types.map((type) => type.requirement_type_id);
    expect(typeIds).toContain(types.SYS);
    expect(typeIds).toContain(body.rows[1]?.requirements[0]?.requirement_type_id);
  });

  it("answers the global project's requirements for project 0, and only them", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const global = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Everything is audited", 0);
    await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Login works", PROJECT);
    await link(tenant, global, ["30001"]);

    const res = await getMatrix(tenant, 0);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([
      {
        requirements: [expect.objectContaining({ requirement_id: global, name: "Everything is audited" })],
        issues: [{ atlassian_issue_id: "30001", suspect: false }],
        has_suspect_links: false,
      },
    ]);
  });

  it("never shows another project's or another site's requirements", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const other = await createTenant(ctx.deps.db);
    const ours = await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Ours", PROJECT);
    await insertRequirementRow(ctx.deps.db, tenant.tenantId, "Our other project's", OTHER_PROJECT);
    const theirs = await insertRequirementRow(ctx.deps.db, other.tenantId, "Theirs", PROJECT);
    await link(other, theirs, ["20001"]);

    const res = await getMatrix(tenant, PROJECT);
    expect(res.status).toBe(200);
    expect(res.body.rows.map((row: { requirements: { requirement_id: number }[] }) => row.requirements[0]?.requirement_id)).toEqual([ours]);
    const empty = await getMatrix(await createTenant(ctx.deps.db), PROJECT);
    expect(empty.body.rows).toEqual([]);
  });

  it("answers a window of at most its maximum, never the whole project, with the count the scrollbar needs", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const ids = await seedProject(tenant, 1205);

    const first = await getMatrix(tenant, PROJECT);
    expect(first.status).toBe(200);
    expect(first.body.total_rows).toBe(1205);
    expect(rowIds(first.body)).toEqual(ids.slice(0, 200));

    const window = await getMatrix(tenant, PROJECT, { offset: 1100, limit: 50 });
    expect(rowIds(window.body)).toEqual(ids.slice(1100, 1150));
    expect(window.body.rows[0].issues).toEqual([{ atlassian_issue_id: "41100", suspect: false }]);

    const widest = await getMatrix(tenant, PROJECT, { limit: 1000, offset: 200 });
    expect(widest.body.rows).toHaveLength(1000);
    const tail = await getMatrix(tenant, PROJECT, { limit: 1000, offset: 1200 });
    expect(rowIds(tail.body)).toEqual(ids.slice(1200));
    expect(tail.body.total_rows).toBe(1205);

    const tooMany = await getMatrix(tenant, PROJECT, { limit: 1001 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ limit: ["Must be at most 1000"] });
    expect((await getMatrix(tenant, PROJECT, { limit: 0 })).status).toBe(400);
    expect((await getMatrix(tenant, PROJECT, { offset: -1 })).status).toBe(400);
  });

  it("filters on the server by every word of the label (ID and name), case-insensitive, and counts the hits", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const ids = await seedProject(tenant, 300);
    await ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: ids[7] }).update({ display_id: "BRAKE-9" });

    const rename = (index: number, name: string) =>
      ctx.deps.db("requirements").where({ tenant_id: tenant.tenantId, requirement_id: ids[index] }).update({ name });
    await rename(40, "Brake pedal force");
    await rename(150, "Brake light");
    await rename(260, "Pedal travel of the brake");
    await rename(270, "Pedal travel");

    const byName = await getMatrix(tenant, PROJECT, { filter: " brake  PEDAL", limit: 1 });
    expect(byName.body.total_rows).toBe(2);
    expect(rowIds(byName.body)).toEqual([ids[40]]);
    const next = await getMatrix(tenant, PROJECT, { filter: "brake pedal", offset: 1 });
    expect(rowIds(next.body)).toEqual([ids[260]]);
    const byId = await getMatrix(tenant, PROJECT, { filter: "sys-brake-9" });
    expect(rowIds(byId.body)).toEqual([ids[7]]);
    const byNumericId = await getMatrix(tenant, PROJECT, { filter: `SYS-${ids[20]}:` });
    expect(rowIds(byNumericId.body)).toEqual([ids[20]]);

    const none = await getMatrix(tenant, PROJECT, { filter: "requirement nothing" });
    expect(none.body).toMatchObject({ rows: [], total_rows: 0 });
  });

  it("finds through the label index exactly the rows whose label holds every word, across the type's prefix too", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const ids = await seedProject(tenant, 1200);
    const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
    // A few of another type (SW) and with custom IDs, so words meet the prefix and the own ID in every way.
    for (const [index, displayId] of [
      [3, "BR-12"],
      [4, "100%_done"],
      [5, null],
      [6, "sys-7"],
    ] as const) {
      await ctx.deps
        .db("requirements")
        .where({ tenant_id: tenant.tenantId, requirement_id: ids[index] })
        .update({ requirement_type_id: types.SW, display_id: displayId });
    }
    const labels = new Map<number, string>();
    for (let offset = 0; offset < 1200; offset += 1000) {
      const page = await getMatrix(tenant, PROJECT, { offset, limit: 1000 });
      for (const row of page.body.rows as {
        requirements: { requirement_id: number; prefix: string; display_id: string | null; name: string }[];
      }[]) {
        const [requirement] = row.requirements;
        if (!requirement) continue;
        labels.set(
          requirement.requirement_id,
          `${requirement.prefix}-${requirement.display_id?.trim() || requirement.requirement_id}: ${requirement.name}`.toLowerCase(),
        );
      }
    }
    const filters = [
      "sys-1",
      "ys-",
      "s-1",
      "sys",
      "sw-",
      "w-br-1",
      "-br-12: req",
      "100%_",
      "0%_d",
      "_",
      "%",
      "requirement 11",
      "requirement",
      "ment 7",
      "zzz",
      "s",
      "7:",
      `sw-${ids[5]}:`,
    ];
    for (const filter of filters) {
      const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
      const expected = [...labels]
        .filter(([, label]) => words.every((word) => label.includes(word)))
        .map(([id]) => id)
        .sort((a, b) => a - b);
      const first = await getMatrix(tenant, PROJECT, { filter, limit: 50 });
      expect(first.status).toBe(200);
      expect({ filter, total: first.body.total_rows, first: rowIds(first.body) }).toEqual({
        filter,
        total: expected.length,
        first: expected.slice(0, 50),
      });
      const later = await getMatrix(tenant, PROJECT, { filter, offset: 60, limit: 5 });
      expect({ filter, later: rowIds(later.body) }).toEqual({ filter, later: expected.slice(60, 65) });
    }
  });

  it("refuses a missing or malformed project (400) and a caller without a token (401)", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const missing = await request(ctx.app)
      .get("/api/requirement/matrix")
      .set("Authorization", await bearer(ctx, tenant));
    expect(missing.status).toBe(400);
    expect(missing.body).toHaveProperty("atlassian_project_id");
    expect((await getMatrix(tenant, "abc")).status).toBe(400);
    expect((await request(ctx.app).get("/api/requirement/matrix").query({ atlassian_project_id: PROJECT })).status).toBe(401);
  });
});
