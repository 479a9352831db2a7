import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { storageKey } from "../../storage/objectStorage.js";
import { pruneExpired } from "./pruneExpired.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

const DAY = 24 * 60 * 60 * 1000;
/** The sweep's clock: "now" is a fixed day, and every row's age is counted back from it. */
const NOW = new Date("2026-06-30T03:40:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

describe("retention", () => {
  it("deletes sent notification keys, ended jobs and import files older than the period, in batches, and keeps the rest", async () => {
    const db = ctx.deps.db;
    const tenant = await createTenant(db);
    const tenantId = tenant.tenantId;
    await db("notification_deliveries").insert([
      ...Array.from({ length: 5 }, (_, n) => ({ tenant_id: tenantId, delivery_key: `old-${n}`, sent_at: daysAgo(31 + n) })),
      { tenant_id: tenantId, delivery_key: "recent", sent_at: daysAgo(29) },
    ]);
    const job = (name: string, status: string, endedDaysAgo: number) => ({
      tenant_id: tenantId,
      job_id: randomUUID(),
      name,
      status,
      updated_at: daysAgo(endedDaysAgo),
      created_at: daysAgo(endedDaysAgo),
    });
    const oldJobs = [job("import-requirements", "finished", 40), job("import-requirements", "failed", 31), job("other", "finished", 35)];
    const keptJobs = [
      job("import-requirements", "finished", 10),
      // Still running after a long time is not ended: left alone.
      job("import-requirements", "started", 90),
      // Matrix exports have their own clean-up, which deletes their files first.
      job("matrix-export", "finished", 90),
    ];
    await db("jobs").insert([...oldJobs, ...keptJobs]);

    const upload = async (createdDaysAgo: number, operation = "import") => {
      const uuid = `${randomUUID()}.csv`;
      await db("attachments").insert({
        tenant_id: tenantId,
        uuid_file_name: uuid,
        operation,
        original_file_name: "requirements.csv",
        created_at: daysAgo(createdDaysAgo),
      });
      const key = storageKey(tenantId, operation === "import" ? "imports" : "attachments", uuid);
      await ctx.deps.storage.putObject(key, "Summary\nA\n", "text/csv");
      return key;
    };
    const oldFiles = [await upload(45), await upload(31), await upload(60)];
    const keptFiles = [await upload(2), await upload(400, "attachment")];

    const pruned = await pruneExpired(ctx.deps, { retentionDays: 30, now: NOW, batchRows: 2 });
    expect(pruned).toEqual({ deliveries: 5, jobs: 3, importFiles: 3 });

    expect(await db("notification_deliveries").where({ tenant_id: tenantId }).pluck("delivery_key")).toEqual(["recent"]);
    expect((await db("jobs").where({ tenant_id: tenantId }).pluck("job_id")).sort()).toEqual(keptJobs.map((row) => row.job_id).sort());
    for (const key of oldFiles) expect(await ctx.deps.storage.head(key)).toBeUndefined();
    for (const key of keptFiles) expect(await ctx.deps.storage.head(key)).toBeDefined();
    expect(Number((await db("attachments").where({ tenant_id: tenantId }).count("* as n").first())?.n)).toBe(2);

    // A day later with a shorter period: what was kept is now old enough.
    const later = await pruneExpired(ctx.deps, { retentionDays: 1, now: new Date(NOW.getTime() + DAY) });
    expect(later).toEqual({ deliveries: 1, jobs: 1, importFiles: 1 });
    expect(await ctx.deps.storage.head(keptFiles[1] as string)).toBeDefined();
  });
});
