import request from "supertest";
import { bearer, createTestApp, type TestContext, type TestTenant, testConfig } from "./app.js";

type Replica = Parameters<typeof request>[0];

/**
 * The add-on with limits a test reaches in a few requests (5 a minute per site, 3 per person), and
 * a person's GET /api/user on it or on another replica of it.
 */
export async function createRateLimitedApp(): Promise<{
  ctx: TestContext;
  user: (app: Replica, tenant: TestTenant, accountId: string) => Promise<request.Response>;
}> {
  const ctx = await createTestApp({ config: { ...testConfig(), rateLimits: { sitePerMinute: 5, accountPerMinute: 3 } } });
  const user = async (app: Replica, tenant: TestTenant, accountId: string) =>
    request(app)
      .get("/api/user")
      .set("Authorization", await bearer(ctx, tenant, accountId));
  return { ctx, user };
}
