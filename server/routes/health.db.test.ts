import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext } from "../../test/helpers/app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

describe("the add-on's API edge", () => {
  it("reports healthy when the database answers", async () => {
    const res = await request(ctx.app).get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("refuses /api calls without an app token in the spec's error format", async () => {
    const res = await request(ctx.app).get("/api/requirement/type");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ Result: "Authentication required" });
  });

  it("refuses a token signed with another secret", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const res = await request(ctx.app)
      .get("/api/nothing-here")
      .set("Authorization", `${await bearer(ctx, tenant)}x`);
    expect(res.status).toBe(401);
  });

  it("answers unknown API paths with 404 in the spec's format for a signed-in user", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const res = await request(ctx.app)
      .get("/api/nothing-here")
      .set("Authorization", await bearer(ctx, tenant));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Result: "Not found" });
  });

  it("serves an OpenAPI document", async () => {
    const res = await request(ctx.app).get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
  });
});
