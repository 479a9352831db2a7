import request from "supertest";
import { appActor } from "../../services/context.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createSignedInApp,
  createTenant,
  seedRequirementTypes,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";
import { seedDefaultRequirementTypes } from "../../services/requirementTypes/seedDefaultRequirementTypes.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;
beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
  await seedRequirementTypes(ctx.deps.db, tenant.tenantId);
});
afterAll(() => ctx.destroy());

const api = () => request(ctx.app);

describe("requirement types", () => {
  it("gives a new site the default types with levels, by level", async () => {
    const res = await api().get("/api/requirement/type").set("Authorization", auth);
    expect(res.status).toBe(200);
    expect(res.body.requirement_types.map((t: { prefix: string; level: number }) => [t.prefix, t.level])).toEqual([
      ["BR", 1],
      ["SR", 2],
      ["SYS", 3],
      ["SW", 4],
    ]);
    expect(res.body.requirement_types[0]).toEqual({
      requirement_type_id: expect.any(Number),
      name: "Business",
      prefix: "BR",
      level: 1,
      level_editable: false,
    });
  });

  it("seeds the defaults only once", async () => {
    await seedDefaultRequirementTypes(ctx.deps, appActor(tenant.tenantId));
    const res = await api().get("/api/requirement/type").set("Authorization", auth);
    expect(res.body.requirement_types).toHaveLength(4);
  });

  it("answers an empty list for a site without types", async () => {
    const bare = await createTenant(ctx.deps.db);
    const res = await api()
      .get("/api/requirement/type")
      .set("Authorization", await bearer(ctx, bare));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requirement_types: [], offset: 0, limit: 1000, has_more: false });
  });

  it("creates a type from the wrapped or the bare body, and requires name and prefix", async () => {
    const wrapped = await api()
      .post("/api/requirement/type")
      .set("Authorization", auth)
      .send({ requirement_type: { name: "Hardware", prefix: "HW" } });
    expect(wrapped.status).toBe(201);
    expect(wrapped.body).toMatchObject({ name: "Hardware", prefix: "HW", level: 1, level_editable: true });

    const bare = await api().post("/api/requirement/type").set("Authorization", auth).send({ name: "Test", prefix: "TST", level: 5 });
    expect(bare.status).toBe(201);
    expect(bare.body.level).toBe(5);

    const missing = await api().post("/api/requirement/type").set("Authorization", auth).send({ name: " " });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ name: ["Required"], prefix: ["Required"] });
  });

  it("updates name, prefix and the level of an editable type, but not the level of a default type", async () => {
    const created = await api().post("/api/requirement/type").set("Authorization", auth).send({ name: "Safety", prefix: "SF" });
    const id = created.body.requirement_type_id;
    const updated = await api()
      .put(`/api/requirement/type/${id}`)
      .set("Authorization", auth)
      .send({ requirement_type: { name: "Safety goal", prefix: "SG", level: 2 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ requirement_type_id: id, name: "Safety goal", prefix: "SG", level: 2 });

    const types = await api().get("/api/requirement/type").set("Authorization", auth);
    const business = types.body.requirement_types[0];
    const refused = await api()
      .put(`/api/requirement/type/${business.requirement_type_id}`)
      .set("Authorization", auth)
      .send({ name: "Business", prefix: "BR", level: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.level).toEqual(["The level of a default requirement type cannot change"]);

    const noPrefix = await api().put(`/api/requirement/type/${id}`).set("Authorization", auth).send({ name: "X", prefix: "" });
    expect(noPrefix.status).toBe(400);
    expect(noPrefix.body).toEqual({ prefix: ["Required"] });
  });

  it("refuses to delete a type that active requirements have, and allows it once they are deleted", async () => {
    const type = await api().post("/api/requirement/type").set("Authorization", auth).send({ name: "Temp", prefix: "TMP" });
    const id = type.body.requirement_type_id;
    const requirement = await api()
      .post("/api/requirement")
      .set("Authorization", auth)
      .send({ name: "Uses the type", requirement_type_id: id, project: 10000 });
    expect(requirement.status).toBe(201);

    const refused = await api().delete(`/api/requirement/type/${id}`).set("Authorization", auth);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ Result: "This requirement type cannot be deleted because 1 requirement uses it" });

    await api()
      .post("/api/requirement/delete/bulk")
      .set("Authorization", auth)
      .send({ requirements: [requirement.body.requirement_id] });
    const deleted = await api().delete(`/api/requirement/type/${id}`).set("Authorization", auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ requirement_type_id: id });
    const types = await api().get("/api/requirement/type").set("Authorization", auth);
    expect(types.body.requirement_types.map((t: { requirement_type_id: number }) => t.requirement_type_id)).not.toContain(id);
  });

  it("keeps types to their site: another site cannot see, change or delete them", async () => {
    const other = await createTenant(ctx.deps.db);
    const otherAuth = await bearer(ctx, other);
    const types = await api().get("/api/requirement/type").set("Authorization", auth);
    const id = types.body.requirement_types[0].requirement_type_id;

    const list = await api().get("/api/requirement/type").set("Authorization", otherAuth);
    expect(list.body.requirement_types).toEqual([]);
    const put = await api().put(`/api/requirement/type/${id}`).set("Authorization", otherAuth).send({ name: "X", prefix: "X" });
    expect(put.status).toBe(404);
    const del = await api().delete(`/api/requirement/type/${id}`).set("Authorization", otherAuth);
    expect(del.status).toBe(404);
    const create = await api()
      .post("/api/requirement")
      .set("Authorization", otherAuth)
      .send({ name: "Borrowed type", requirement_type_id: id, project: 10000 });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ requirement_type_id: ["Choose an existing requirement type"] });
  });
});
