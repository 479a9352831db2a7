import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestContext } from "../../test/helpers/app.js";
import { costOfRead, HOT_READS, type ReadCost } from "../../test/helpers/hotReads.js";
import { type RealisticTenant, seedRealisticTenant } from "../../test/helpers/realisticTenant.js";

/**
 * The hot reads must cost the same at any tenant size. Two tenants share the tables: one of
 * 1,000 requirements and one of 100,000 (50,000 links, 200,000 issue links, 120,000 revisions,
 * statistics analysed), whose project 10000 holds the same rows as the small tenant's. Each read
 * is sent to both, and every SELECT it ran is measured with EXPLAIN (ANALYZE, BUFFERS): a read
 * that touches more than a few buffers more for the big tenant reads more of the tenant than it
 * answers with. The slack absorbs plan flips between equally good plans (an index scan or a
 * bitmap scan of the same 20 rows differ by a few buffers as ANALYZE's sample varies) and the
 * bigger indexes' extra level, which a read of ten statements pays in each: a few buffers and a
 * twentieth of the read (once 525 at 1,000 and 548 at 100,000 for the tree's ten statements);
 * a read that scans the tenant costs hundreds or thousands more.
 */
const SLACK_BUFFERS = 12;
const SLACK_SHARE = 0.05;

let ctx: TestContext;
let small: RealisticTenant;
let big: RealisticTenant;

beforeAll(async () => {
  ctx = await createTestApp();
  small = await seedRealisticTenant(ctx.deps.db, 1_000);
  big = await seedRealisticTenant(ctx.deps.db, 100_000);
}, 600_000);
afterAll(() => ctx.destroy());

const describeCost = (cost: ReadCost) =>
  cost.queries.map((q) => `${q.buffers} buffers: ${q.sql.replace(/\s+/g, " ").slice(0, 160)}`).join("\n");

describe("hot reads at 1,000 and at 100,000 requirements", () => {
  it.each(HOT_READS.map((read) => [read.name, read] as const))("%s touches no more buffers in the big tenant", async (_name, read) => {
    const atSmall = await costOfRead(ctx.app, ctx.deps.db, await bearer(ctx, small), read);
    const atBig = await costOfRead(ctx.app, ctx.deps.db, await bearer(ctx, big), read);
    expect(atSmall.status).toBe(200);
    expect(atBig.status).toBe(200);
    expect(atBig.queries.length).toBeGreaterThan(0);
    expect(atBig.buffers, `at 1,000:\n${describeCost(atSmall)}\nat 100,000:\n${describeCost(atBig)}`).toBeLessThanOrEqual(
      Math.ceil(atSmall.buffers * (1 + SLACK_SHARE)) + SLACK_BUFFERS,
    );
  });
});
