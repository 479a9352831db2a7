import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext, type TestTenant, testConfig } from "../../test/helpers/app.js";
import { createApp } from "../app.js";
import { RATE_LIMITED } from "./rateLimit.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ config: { ...testConfig(), rateLimits: { sitePerMinute: 5, accountPerMinute: 3 } } });
});
afterAll(() => ctx.destroy());

const user = async (app: Parameters<typeof request>[0], tenant: TestTenant, accountId: string) =>
  request(app)
    .get("/api/user")
    .set("Authorization", await bearer(ctx, tenant, accountId));

describe("rate limits", () => {
  it("refuse a person over their limit with 429 and Retry-After, while others of the site go on", async () => {
    const site = await createTenant(ctx.deps.db);
    for (let i = 0; i < 3; i++) expect((await user(ctx.app, site, "557058:alice")).status).toBe(200);
    const refused = await user(ctx.app, site, "557058:alice");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ Result: RATE_LIMITED });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect((await user(ctx.app, site, "557058:bob")).status).toBe(200);
  });

  it("refuse a site over its limit, while another site keeps its answers", async () => {
    const flooding = await createTenant(ctx.deps.db);
    const other = await createTenant(ctx.deps.db);
    const statuses: number[] = [];
    for (const accountId of ["a", "b", "c", "d", "e", "f"]) statuses.push((await user(ctx.app, flooding, `557058:${accountId}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await user(ctx.app, other, "557058:a")).status).toBe(200);
  });

  it.runIf(process.env.TEST_DB === "postgres")("are counted for every replica together, in the database", async () => {
    const site = await createTenant(ctx.deps.db);
    const replica = await createApp(ctx.deps);
    for (let i = 0; i < 3; i++) expect((await user(ctx.app, site, "557058:carol")).status).toBe(200);
    // The other replica learns the count once this one has shared it (every 250 ms).
    await vi.waitFor(async () => expect((await user(replica, site, "557058:carol")).status).toBe(429), { timeout: 5000, interval: 300 });
    const rows = await ctx.deps.db("api_rate_limits").where("key", "like", `account:${site.tenantId}:%`);
    expect(rows.map((row) => row.points)).toEqual([expect.any(Number)]);
  });
});
