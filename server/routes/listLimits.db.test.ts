import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTRIBUTE_PAGE_MAX } from "../../common/schemas/attribute.js";
import { BASELINE_LIST_MAX } from "../../common/schemas/baseline.js";
import { FOLDER_PAGE_MAX } from "../../common/schemas/folder.js";
import { REVISION_PAGE_MAX } from "../../common/schemas/requirement.js";
import { REQUIREMENT_TYPE_PAGE_MAX } from "../../common/schemas/requirementType.js";
import { createSignedInApp, seedRequirementTypes, type TestContext, type TestTenant } from "../../test/helpers/app.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
const PROJECT = 10000;
const ACCOUNT = "557058:test-user";

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
});
afterAll(() => ctx.destroy());

const get = (path: string) => request(ctx.app).get(path).set("Authorization", auth);
const rows = <T>(count: number, row: (n: number) => T) => Array.from({ length: count }, (_, n) => row(n));
const insert = (table: string, values: object[]) => ctx.deps.db.batchInsert(table, values, 500);

/** Issue 37: every list route answers at most its documented maximum when no limit is given, and says more follows. */
describe("list routes called without limits", () => {
  it("GET /api/baseline answers the newest baselines, at most its maximum, then the rest from an offset", async () => {
    await insert(
      "baselines",
      rows(BASELINE_LIST_MAX + 1, (n) => ({ tenant_id: tenant.tenantId, project_id: PROJECT, name: `Baseline ${n}`, created_by: ACCOUNT })),
    );
    const first = await get(`/api/baseline?atlassian_project_id=${PROJECT}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ offset: 0, limit: BASELINE_LIST_MAX, has_more: true });
    expect(first.body.baselines).toHaveLength(BASELINE_LIST_MAX);
    expect(first.body.baselines[0].name).toBe(`Baseline ${BASELINE_LIST_MAX}`);
    const rest = await get(`/api/baseline?atlassian_project_id=${PROJECT}&offset=${BASELINE_LIST_MAX}`);
    expect(rest.body).toMatchObject({ baselines: [{ name: "Baseline 0" }], has_more: false });
    const tooMany = await get(`/api/baseline?atlassian_project_id=${PROJECT}&limit=${BASELINE_LIST_MAX + 1}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ limit: [`Must be at most ${BASELINE_LIST_MAX}`] });
  });

  it("GET /api/requirement/{id}/revision answers the newest revisions, at most its maximum, and older ones from an offset", async () => {
    const types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
    const created = await request(ctx.app)
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name: "Edited often", requirement_type_id: types.SYS, project: PROJECT });
    const id = created.body.requirement_id as number;
    await insert(
      "requirement_revisions",
      rows(REVISION_PAGE_MAX, (n) => ({
        tenant_id: tenant.tenantId,
        requirement_id: id,
        revision: n + 2,
        account_id: ACCOUNT,
        action: "updated",
        snapshot: "{}",
      })),
    );
    const first = await get(`/api/requirement/${id}/revision`);
    expect(first.body).toMatchObject({ offset: 0, limit: REVISION_PAGE_MAX, has_more: true });
    expect(first.body.revisions).toHaveLength(REVISION_PAGE_MAX);
    expect(first.body.revisions[0].revision).toBe(REVISION_PAGE_MAX + 1);
    const rest = await get(`/api/requirement/${id}/revision?offset=${REVISION_PAGE_MAX}`);
    expect(rest.body).toMatchObject({ revisions: [{ revision: 1, action: "created" }], has_more: false });
    expect((await get(`/api/requirement/${id}/revision?offset=${REVISION_PAGE_MAX + 5}`)).body).toMatchObject({
      revisions: [],
      has_more: false,
    });
    expect((await get("/api/requirement/99999999/revision?offset=10")).status).toBe(404);
  });

  it("GET /api/attribute answers at most its maximum", async () => {
    await insert(
      "attributes",
      rows(ATTRIBUTE_PAGE_MAX + 1, (n) => ({ tenant_id: tenant.tenantId, project_id: PROJECT, name: `Field ${n}`, type: "string" })),
    );
    const first = await get(`/api/attribute?atlassian_project_id=${PROJECT}`);
    expect(first.body).toMatchObject({ offset: 0, limit: ATTRIBUTE_PAGE_MAX, has_more: true });
    expect(first.body.attributes).toHaveLength(ATTRIBUTE_PAGE_MAX);
    expect((await get(`/api/attribute?atlassian_project_id=${PROJECT}&offset=${ATTRIBUTE_PAGE_MAX}`)).body).toMatchObject({
      attributes: [{ name: `Field ${ATTRIBUTE_PAGE_MAX}` }],
      has_more: false,
    });
  });

  it("GET /api/requirement/type answers at most its maximum", async () => {
    await insert(
      "requirement_types",
      rows(REQUIREMENT_TYPE_PAGE_MAX + 1, (n) => ({ tenant_id: tenant.tenantId, name: `Type ${n}`, prefix: `T${n}`, level: 5 })),
    );
    const first = await get("/api/requirement/type");
    expect(first.body).toMatchObject({ offset: 0, limit: REQUIREMENT_TYPE_PAGE_MAX, has_more: true });
    expect(first.body.requirement_types).toHaveLength(REQUIREMENT_TYPE_PAGE_MAX);
    expect((await get(`/api/requirement/type?limit=${REQUIREMENT_TYPE_PAGE_MAX + 1}`)).status).toBe(400);
  });

  it("GET /api/folder/primary and /api/folder/{id}/descendant answer at most their maximum", async () => {
    const project = PROJECT + 1;
    const [parent] = await ctx.deps
      .db("folders")
      .insert({ tenant_id: tenant.tenantId, project_id: project, name: "Parent", created_by: ACCOUNT })
      .returning("folder_id");
    const folders = (parentFolderId: number | null) =>
      rows(FOLDER_PAGE_MAX + 1, (n) => ({
        tenant_id: tenant.tenantId,
        project_id: project,
        parent_folder_id: parentFolderId,
        name: `Folder ${String(n).padStart(4, "0")}`,
        created_by: ACCOUNT,
      }));
    await insert("folders", [...folders(null), ...folders(Number(parent.folder_id))]);
    const top = await get(`/api/folder/primary?atlassian_project_id=${project}`);
    expect(top.body).toMatchObject({ offset: 0, limit: FOLDER_PAGE_MAX, has_more: true });
    expect(top.body.folders).toHaveLength(FOLDER_PAGE_MAX);
    const children = await get(`/api/folder/${parent.folder_id}/descendant?atlassian_project_id=${project}`);
    expect(children.body).toMatchObject({ offset: 0, limit: FOLDER_PAGE_MAX, has_more: true });
    expect(children.body.folders).toHaveLength(FOLDER_PAGE_MAX);
    const last = await get(`/api/folder/${parent.folder_id}/descendant?offset=${FOLDER_PAGE_MAX}`);
    expect(last.body).toMatchObject({ folders: [{ name: `Folder ${FOLDER_PAGE_MAX}` }], has_more: false });
  });
});
