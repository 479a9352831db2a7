import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createSignedInApp,
  createTenant,
  insertRequirementRow,
  type TestContext,
  type TestTenant,
} from "../../../test/helpers/app.js";

let ctx: TestContext;
let tenant: TestTenant;
let auth: string;

beforeAll(async () => {
  ({ ctx, tenant, auth } = await createSignedInApp());
});
afterAll(() => ctx.destroy());

const options = (...names: string[]) => names.map((name) => ({ name }));

async function createField(body: Record<string, unknown>, authorization = auth) {
  return request(ctx.app).post("/api/attribute").set("Authorization", authorization).send(body);
}

describe("custom fields API", () => {
  it("creates a standard field and lists it for its project", async () => {
    const created = await createField({ name: "Risk notes", project: 10000, type: "string" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      attribute_id: expect.any(Number),
      name: "Risk notes",
      type: "string",
      options: [],
      atlassian_project_id: 10000,
      project: 10000,
    });

    const listed = await request(ctx.app).get("/api/attribute?atlassian_project_id=10000").set("Authorization", auth);
    expect(listed.status).toBe(200);
    expect(listed.body.attributes).toContainEqual(created.body);
  });

  it("creates a field with pre-defined options in the order given", async () => {
    const created = await createField({
      name: "Priority",
      project: "10000",
      type: "select",
      options: options("High", "Medium", "Low"),
    });
    expect(created.status).toBe(201);
    expect(created.body.options.map((option: { name: string }) => option.name)).toEqual(["High", "Medium", "Low"]);
    expect(created.body.options[0].attribute_option_id).toEqual(expect.any(Number));
  });

  it("keeps fields of other projects and Global Requirements apart", async () => {
    await createField({ name: "Global owner", project: 0, type: "string" });
    await createField({ name: "Other project field", project: 20000, type: "string" });

    const global = await request(ctx.app).get("/api/attribute?atlassian_project_id=0").set("Authorization", auth);
    expect(global.body.attributes.map((a: { name: string }) => a.name)).toEqual(["Global owner"]);

    const all = await request(ctx.app).get("/api/attribute").set("Authorization", auth);
    expect(all.body.attributes.map((a: { name: string }) => a.name)).toEqual(
      expect.arrayContaining(["Global owner", "Other project field", "Risk notes", "Priority"]),
    );
  });

  it("refuses a select field with 11 options", async () => {
    const res = await createField({
      name: "Too many",
      project: 10000,
      type: "select",
      options: options(...Array.from({ length: 11 }, (_, i) => `Option ${i + 1}`)),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ options: ["Enter no more than 10 options"] });
  });

  it("accepts exactly 10 options of 75 characters", async () => {
    const res = await createField({
      name: "Ten long options",
      project: 10000,
      type: "select",
      options: options(...Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(75, "x"))),
    });
    expect(res.status).toBe(201);
    expect(res.body.options).toHaveLength(10);
  });

  it("refuses an option of 76 characters with the spec's message", async () => {
    const res = await createField({
      name: "Long option",
      project: 10000,
      type: "select",
      options: options("Fine", "y".repeat(76)),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ "options.1.name": ["Enter no more than 75 characters"] });
  });

  it("refuses a select field without options, and empty option texts", async () => {
    const none = await createField({ name: "No options", project: 10000, type: "select", options: [] });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ options: ["Add at least one option"] });

    const blank = await createField({ name: "Blank option", project: 10000, type: "select", options: options("  ") });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ "options.0.name": ["Required"] });
  });

  it("requires a name and a project, and a known type", async () => {
    const res = await createField({ name: "   ", type: "string" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["Required"], project: ["Required"] });

    const badType = await createField({ name: "Field", project: 1, type: "number" });
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body)).toEqual(["type"]);

    const badProject = await createField({ name: "Field", project: "abc", type: "string" });
    expect(badProject.status).toBe(400);
    expect(badProject.body).toEqual({ project: ["Must be a project id"] });
  });

  it("refuses a second field of the same name in a project", async () => {
    await createField({ name: "Owner", project: 30000, type: "string" });
    const again = await createField({ name: "owner", project: 30000, type: "string" });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ name: ["A custom field with this name already exists in this project"] });

    const elsewhere = await createField({ name: "Owner", project: 30001, type: "string" });
    expect(elsewhere.status).toBe(201);
  });

  it("deletes a field with its options and every requirement's value of it", async () => {
    const field = await createField({ name: "Doomed", project: 10000, type: "select", options: options("A", "B") });
    const { db } = ctx.deps;
    const requirementId = await insertRequirementRow(db, tenant.tenantId, "Has a value");
    await db("requirement_attribute_values").insert({
      tenant_id: tenant.tenantId,
      requirement_id: requirementId,
      attribute_id: field.body.attribute_id,
      value: String(field.body.options[0].attribute_option_id),
    });

    const res = await request(ctx.app).delete(`/api/attribute/${field.body.attribute_id}`).set("Authorization", auth);
    expect(res.status).toBe(200);

    const listed = await request(ctx.app).get("/api/attribute").set("Authorization", auth);
    expect(listed.body.attributes.map((a: { attribute_id: number }) => a.attribute_id)).not.toContain(field.body.attribute_id);
    expect(await db("requirement_attribute_values").where({ attribute_id: field.body.attribute_id })).toEqual([]);
    expect(await db("attribute_options").where({ attribute_id: field.body.attribute_id })).toEqual([]);
    expect(await db("requirements").where({ requirement_id: requirementId })).toHaveLength(1);
  });

  it("answers 404 for a field that does not exist", async () => {
    const res = await request(ctx.app).delete("/api/attribute/999999").set("Authorization", auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Result: "Custom field not found" });
  });

  it("keeps each site's fields to itself", async () => {
    const other = await createTenant(ctx.deps.db);
    const otherAuth = await bearer(ctx, other);
    const mine = await createField({ name: "Private field", project: 10000, type: "string" });

    const listed = await request(ctx.app).get("/api/attribute").set("Authorization", otherAuth);
    expect(listed.status).toBe(200);
    expect(listed.body.attributes).toEqual([]);

    const deleted = await request(ctx.app).delete(`/api/attribute/${mine.body.attribute_id}`).set("Authorization", otherAuth);
    expect(deleted.status).toBe(404);
    const stillThere = await request(ctx.app).get("/api/attribute").set("Authorization", auth);
    expect(stillThere.body.attributes.map((a: { name: string }) => a.name)).toContain("Private field");
  });

  it("requires a signed-in user", async () => {
    const res = await request(ctx.app).get("/api/attribute");
    expect(res.status).toBe(401);
  });
});
