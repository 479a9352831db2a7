import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTenant, type TestContext } from "../../test/helpers/app.js";
import { createRateLimitedApp } from "../../test/helpers/rateLimit.js";
import { createApp } from "../app.js";
import { ApiRateLimits } from "./rateLimit.js";

// Replicas share one database only on PostgreSQL: PGlite belongs to the process that opened it.
let ctx: TestContext;
let user: Awaited<ReturnType<typeof createRateLimitedApp>>["user"];
beforeAll(async () => {
  ({ ctx, user } = await createRateLimitedApp());
});
afterAll(() => ctx.destroy());

describe("rate limits", () => {
  it("are counted for every replica together, in the database", async () => {
    const site = await createTenant(ctx.deps.db);
    const replica = await createApp({
      ...ctx.deps,
      rateLimits: new ApiRateLimits(ctx.deps.db, ctx.deps.logger, ctx.deps.config.rateLimits),
    });
    for (let i = 0; i < 3; i++) expect((await user(ctx.app, site, "557058:carol")).status).toBe(200);
    // The other replica learns the count once this one has shared it (every 250 ms).
    await vi.waitFor(async () => expect((await user(replica, site, "557058:carol")).status).toBe(429), { timeout: 5000, interval: 300 });
    const rows = await ctx.deps.db("api_rate_limits").where("key", "like", `account:${site.tenantId}:%`);
    expect(rows.map((row) => row.points)).toEqual([expect.any(Number)]);
  });

  it("that a stopping replica counted but had not yet shared are in the shared count once it has stopped", async () => {
    const site = await createTenant(ctx.deps.db);
    // Limits this high leave a few hits unshared for five seconds.
    const limits = { sitePerMinute: 100_000, accountPerMinute: 100_000 };
    const rateLimits = new ApiRateLimits(ctx.deps.db, ctx.deps.logger, limits);
    const replica = await createApp({ ...ctx.deps, config: { ...ctx.deps.config, rateLimits: limits }, rateLimits });
    for (let i = 0; i < 4; i++) expect((await user(replica, site, "557058:dave")).status).toBe(200);
    const sharedBefore = await ctx.deps.db("api_rate_limits").where("key", `site:${site.tenantId}`);
    await rateLimits.stop();
    const sharedAfter = await ctx.deps
      .db("api_rate_limits")
      .whereIn("key", [`site:${site.tenantId}`, `account:${site.tenantId}:557058:dave`]);
    expect(sharedBefore).toEqual([]);
    expect(sharedAfter.map((row) => row.points).sort()).toEqual([4, 4]);
  });
});
