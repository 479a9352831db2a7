import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUIREMENT_LIST_LIMIT_MAX } from "../../../common/schemas/requirement.js";
import { createSignedInApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../../test/helpers/app.js";

const BIG_PROJECT = 10000;
const SMALL_PROJECT = 10001;
const IN_BIG_PROJECT = REQUIREMENT_LIST_LIMIT_MAX + 5;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let described: number;

const api = () => request(ctx.app);
const ids = (body: { requirements: { requirement_id: number }[] }) => body.requirements.map((r) => r.requirement_id);

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  await ctx.deps.db.raw(
    `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, name, created_by)
     SELECT ?, ?, ?, 'Requirement ' || i, 'seed' FROM generate_series(1, ?) i`,
    [tenant.tenantId, BIG_PROJECT, types.SYS as number, IN_BIG_PROJECT],
  );
  const created = await api()
    .post("/api/requirement")
    .set("Authorization", auth)
    .send({ name: "Described", description: "A long description", project: SMALL_PROJECT, requirement_type_id: types.SYS });
  expect(created.status).toBe(201);
  described = created.body.requirement_id;
});
afterAll(() => ctx.destroy());

describe("requirement lists are bounded", () => {
  it("answer at most their maximum when no limit is asked, and the rest page by page", async () => {
    for (const path of ["/api/requirement", "/api/requirement/lite"]) {
      const first = await api().get(path).query({ atlassian_project_id: BIG_PROJECT }).set("Authorization", auth);
      expect(first.status).toBe(200);
      expect(first.body.requirements).toHaveLength(REQUIREMENT_LIST_LIMIT_MAX);
      expect(first.body).toMatchObject({ offset: 0, limit: REQUIREMENT_LIST_LIMIT_MAX, has_more: true });

      const rest = await api()
        .get(path)
        .query({ atlassian_project_id: BIG_PROJECT, offset: REQUIREMENT_LIST_LIMIT_MAX })
        .set("Authorization", auth);
      expect(rest.body.requirements).toHaveLength(IN_BIG_PROJECT - REQUIREMENT_LIST_LIMIT_MAX);
      expect(rest.body.has_more).toBe(false);
      expect(new Set([...ids(first.body), ...ids(rest.body)]).size).toBe(IN_BIG_PROJECT);

      const small = await api().get(path).query({ atlassian_project_id: BIG_PROJECT, limit: 3 }).set("Authorization", auth);
      expect(ids(small.body)).toEqual(ids(first.body).slice(0, 3));
    }
  });

  it("refuse a limit above the maximum", async () => {
    const refused = await api()
      .get("/api/requirement")
      .query({ atlassian_project_id: BIG_PROJECT, limit: REQUIREMENT_LIST_LIMIT_MAX + 1 })
      .set("Authorization", auth);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ limit: [`At most ${REQUIREMENT_LIST_LIMIT_MAX}`] });
  });

  it("list the whole site's lite requirements a page at a time when no project or page is named", async () => {
    const first = await api().get("/api/requirement/lite").set("Authorization", auth);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ offset: 0, limit: REQUIREMENT_LIST_LIMIT_MAX, has_more: true });
    const rest = await api().get("/api/requirement/lite").query({ offset: REQUIREMENT_LIST_LIMIT_MAX }).set("Authorization", auth);
    expect(rest.body.has_more).toBe(false);
    const listed = [...ids(first.body), ...ids(rest.body)];
    expect(listed).toHaveLength(IN_BIG_PROJECT + 1);
    expect(listed.at(-1)).toBe(described);
  });

  it("carry descriptions only when asked for", async () => {
    const plain = await api().get("/api/requirement").query({ atlassian_project_id: SMALL_PROJECT }).set("Authorization", auth);
    expect(plain.body.requirements[0]).not.toHaveProperty("description");
    const asked = await api()
      .get("/api/requirement/lite")
      .query({ atlassian_project_id: SMALL_PROJECT, with_description: "true" })
      .set("Authorization", auth);
    expect(asked.body.requirements[0]).toMatchObject({ requirement_id: described, description: "A long description" });
    const byId = await api()
      .post("/api/requirement/by-id/lite")
      .set("Authorization", auth)
      .send({ requirementIds: [described], with_description: true });
    expect(byId.body.requirements[0]).toMatchObject({ description: "A long description" });
    const byIdPlain = await api()
      .post("/api/requirement/by-id/lite")
      .set("Authorization", auth)
      .send({ requirementIds: [described] });
    expect(byIdPlain.body.requirements[0]).not.toHaveProperty("description");
  });
});

describe("answers on the wire", () => {
  it("arrive gzipped when the browser accepts it, and a kilobyte or less stays as it is", async () => {
    const list = await api()
      .get("/api/requirement")
      .query({ atlassian_project_id: BIG_PROJECT })
      .set("Authorization", auth)
      .set("Accept-Encoding", "gzip");
    expect(list.status).toBe(200);
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect(list.body.requirements).toHaveLength(REQUIREMENT_LIST_LIMIT_MAX);

    const small = await api()
      .get("/api/requirement/lite")
      .query({ atlassian_project_id: SMALL_PROJECT })
      .set("Authorization", auth)
      .set("Accept-Encoding", "gzip");
    expect(small.status).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });
});
