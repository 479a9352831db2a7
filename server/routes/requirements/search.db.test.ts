import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_LIMIT_MAX } from "../../../common/constants.js";
import type { RequirementSearchHit } from "../../../common/schemas/requirementSearch.js";
import {
  bearer,
  createSignedInApp,
  createTenant,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";

const PROJECT = 10000;
const OTHER_PROJECT = 10001;
let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
let types: Record<string, number>;
const ids: Record<string, number> = {};
let folderId: number;

const api = () => request(ctx.app);
const create = async (key: string, body: Record<string, unknown>, authorization = auth) => {
  const res = await api()
    .post("/api/requirement")
    .set("Authorization", authorization)
    .send({ project: PROJECT, requirement_type_id: types.SYS, ...body });
  expect(res.status).toBe(201);
  ids[key] = res.body.requirement_id;
  return res.body.requirement_id as number;
};
const search = async (query: Record<string, unknown>, authorization = auth): Promise<RequirementSearchHit[]> => {
  const res = await api().get("/api/requirement/search").query(query).set("Authorization", authorization);
  expect(res.status).toBe(200);
  return res.body.requirements;
};
const found = (hits: RequirementSearchHit[]) => hits.map((hit) => hit.requirement_id);
const marked = (runs: { text: string; match: boolean }[] | null | undefined) =>
  (runs ?? []).filter((run) => run.match).map((run) => run.text);

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  types = await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
  const risk = await api().post("/api/attribute").set("Authorization", auth).send({ name: "Rationale", type: "string", project: PROJECT });
  expect(risk.status).toBe(201);
  const select = await api()
    .post("/api/attribute")
    .set("Authorization", auth)
    .send({ name: "Priority", type: "select", project: PROJECT, options: [{ name: "High" }] });
  expect(select.status).toBe(201);
  const outer = await api().post("/api/folder").set("Authorization", auth).send({ name: "Vehicle", project: PROJECT });
  const inner = await api()
    .post("/api/folder")
    .set("Authorization", auth)
    .send({ name: "Brakes", project: PROJECT, parent_folder_id: outer.body.folder_id });
  folderId = inner.body.folder_id;
  await create("braking", {
    name: "Braking distance",
    description: "The car stops within 40 m on dry asphalt.",
    parent_folder_id: inner.body.folder_id,
  });
  await create("described", { name: "Stopping on wet roads", description: "Braking on wet asphalt takes longer." });
  await create("custom", { name: "Brake light", display_id: "BRK-LIGHT-7", requirement_type_id: types.SW });
  await create("fielded", {
    name: "Dashboard warning",
    attributes: {
      [risk.body.attribute_id]: "Required by homologation rules",
      [select.body.attribute_id]: String(select.body.options[0].attribute_option_id),
    },
  });
  await create("other", { name: "Braking in the other project", project: OTHER_PROJECT });
  await create("global", { name: "Braking regulation", project: 0, requirement_type_id: types.SR });
});
afterAll(() => ctx.destroy());

describe("searching requirements", () => {
  it("finds a requirement by its label, its number and any part of its custom ID, the exact ID first", async () => {
    const braking = ids.braking as number;
    expect(found(await search({ q: `SYS-${braking}` }))[0]).toBe(braking);
    expect(found(await search({ q: `sys-${braking}`, atlassian_project_id: PROJECT }))[0]).toBe(braking);
    expect(found(await search({ q: String(braking) }))[0]).toBe(braking);
    expect(found(await search({ q: "SW-BRK-LIGHT-7" }))[0]).toBe(ids.custom);
    expect(found(await search({ q: "light-7" }))).toContain(ids.custom);
    const byPart = await search({ q: "brk-li" });
    expect(byPart[0]).toMatchObject({ requirement_id: ids.custom, matched: "id", display_id: "BRK-LIGHT-7", prefix: "SW" });
  });

  it("lists a type's requirements for its prefix and a hyphen", async () => {
    const hits = await search({ q: "SW-" });
    expect(found(hits)).toEqual([ids.custom]);
  });

  it("finds words of names and descriptions by their beginnings, name matches first, with the found words marked", async () => {
    const hits = await search({ q: "brak", atlassian_project_id: PROJECT });
    expect(found(hits)).toEqual([ids.braking, ids.custom, ids.described]);
    expect(marked(hits[0]?.highlights.name)).toEqual(["Braking"]);
    expect(hits[0]?.parent_folder_id).toBe(folderId);
    expect(hits[0]?.highlights.description).toBeNull();
    expect(hits[2]?.matched).toBe("text");
    expect(marked(hits[2]?.highlights.description)).toEqual(["Braking"]);
    expect(hits[2]?.highlights.name).toEqual([{ text: "Stopping on wet roads", match: false }]);

    const twoWords = await search({ q: "wet asph" });
    expect(found(twoWords)).toEqual([ids.described]);
    expect(marked(twoWords[0]?.highlights.description)).toEqual(["wet", "asphalt"]);
  });

  it("finds the text of custom fields, not the option ids of select fields", async () => {
    const hits = await search({ q: "homolog" });
    expect(found(hits)).toEqual([ids.fielded]);
    expect(hits[0]?.matched).toBe("field");
    expect(hits[0]?.highlights.field).toMatchObject({ name: "Rationale" });
    expect(marked(hits[0]?.highlights.field?.value)).toEqual(["homologation"]);
  });

  it("searches the projects asked for, or the whole site, and only types of the asked levels", async () => {
    expect(found(await search({ q: "braking", atlassian_project_id: PROJECT }))).not.toContain(ids.other);
    expect(found(await search({ q: "braking", atlassian_project_id: [PROJECT, 0] }))).toContain(ids.global);
    expect(found(await search({ q: "braking" }))).toEqual(expect.arrayContaining([ids.braking, ids.other, ids.global]));
    expect(found(await search({ q: "brak", level: [2, 4] }))).toEqual([ids.custom, ids.global]);
  });

  it("answers the first requirements of the scope by id when nothing is typed", async () => {
    expect(found(await search({ atlassian_project_id: PROJECT, limit: 2 }))).toEqual([ids.braking, ids.described]);
    expect((await search({ atlassian_project_id: PROJECT }))[0]?.matched).toBe("none");
  });

  it("finds a requirement by its new words after an edit and no longer after its delete", async () => {
    const id = await create("renamed", { name: "Headlamp levelling" });
    const put = await api().put(`/api/requirement/${id}`).set("Authorization", auth).send({ name: "Adaptive beam pattern" });
    expect(put.status).toBe(200);
    expect(found(await search({ q: "headlamp" }))).not.toContain(id);
    expect(found(await search({ q: "adaptive beam" }))).toEqual([id]);
    const deleted = await api()
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [id] });
    expect(deleted.status).toBe(200);
    expect(found(await search({ q: "adaptive" }))).toEqual([]);
    expect(found(await search({ q: String(id) }))).not.toContain(id);
  });

  it("never answers another site's requirements", async () => {
    const otherSite = await createTenant(ctx.deps.db);
    const otherAuth = await bearer(ctx, otherSite);
    const otherTypes = await seedRequirementTypes(ctx.deps.db, otherSite.tenantId);
    const foreign = await create("foreign", { name: "Braking of the other site", requirement_type_id: otherTypes.SYS }, otherAuth);
    expect(found(await search({ q: "braking" }))).not.toContain(foreign);
    expect(found(await search({ q: String(foreign) }))).not.toContain(foreign);
    expect(found(await search({ q: "braking" }, otherAuth))).toEqual([foreign]);
  });

  it("answers at most the limit asked for, at most 50, and refuses more", async () => {
    expect(await search({ q: "", limit: 1 })).toHaveLength(1);
    const refused = await api()
      .get("/api/requirement/search")
      .query({ limit: SEARCH_LIMIT_MAX + 1 })
      .set("Authorization", auth);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ limit: [`At most ${SEARCH_LIMIT_MAX}`] });
  });

  it("takes typed wildcards and quotes as text", async () => {
    expect(await search({ q: "%" })).toEqual([]);
    expect(await search({ q: "_'\\:*&|!" })).toEqual([]);
  });

  it("needs a signed-in user", async () => {
    expect((await api().get("/api/requirement/search").query({ q: "braking" })).status).toBe(401);
  });
});
