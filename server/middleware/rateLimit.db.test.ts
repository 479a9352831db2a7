import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestContext } from "../../test/helpers/app.js";
import { createRateLimitedApp } from "../../test/helpers/rateLimit.js";
import { RATE_LIMITED } from "./rateLimit.js";

let ctx: TestContext;
let user: Awaited<ReturnType<typeof createRateLimitedApp>>["user"];
beforeAll(async () => {
  ({ ctx, user } = await createRateLimitedApp());
});
afterAll(() => ctx.destroy());

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
});
