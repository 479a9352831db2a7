import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportRequestSchema } from "../../../common/schemas/csvImport.js";
import { createTenant, createTestApp, seedRequirementTypes, type TestContext } from "../../../test/helpers/app.js";
import { csvFixture, PUMP_COMPONENTS, PUMP_STATUSES, putImportFile } from "../../../test/helpers/csvImport.js";
import type { Actor } from "../context.js";
import { runImport } from "./importRequirements.js";

// PostgreSQL's planner learns imported rows from autovacuum, at a time of its own: only PGlite's is known right after the import.
let ctx: TestContext;
let actor: Actor;
let systemTypeId: number | undefined;

beforeAll(async () => {
  ctx = await createTestApp();
  actor = { tenantId: (await createTenant(ctx.deps.db)).tenantId, accountId: "557058:test-user" };
  systemTypeId = (await seedRequirementTypes(ctx.deps.db, actor.tenantId)).SYS;
});
afterAll(() => ctx.destroy());

/** The valid Jira export's seven requirements, imported at the top level of a project. */
async function importValidExport(projectId: number): Promise<void> {
  const file = await putImportFile(ctx.deps, actor.tenantId, csvFixture("jira-export-valid.csv"));
  await runImport(
    ctx.deps,
    actor,
    ImportRequestSchema.parse({
      file_name: file,
      requirement_type: systemTypeId,
      location: null,
      atlassian_project_id: projectId,
      atlassian_component_json: JSON.stringify(PUMP_COMPONENTS),
      atlassian_statuses_json: JSON.stringify(PUMP_STATUSES),
    }),
  );
}

describe("runImport", () => {
  it("leaves the embedded database's planner knowing the imported rows, as PostgreSQL's autovacuum would", async () => {
    const estimated = async () =>
      Number((await ctx.deps.db.raw("SELECT reltuples FROM pg_class WHERE relname = 'requirements'")).rows[0]?.reltuples);
    await ctx.deps.db.raw("ANALYZE requirements");
    const before = await estimated();
    await importValidExport(10000);
    expect(await estimated()).toBe(before + 7);
  });

  it("leaves the imported rows visible to index-only scans, as PostgreSQL's autovacuum would", async () => {
    const pages = async () =>
      (await ctx.deps.db.raw("SELECT relpages, relallvisible FROM pg_class WHERE relname = 'requirements'")).rows[0] as {
        relpages: number;
        relallvisible: number;
      };
    await importValidExport(10001);
    const after = await pages();
    expect(after.relpages).toBeGreaterThan(0);
    expect(after.relallvisible).toBe(after.relpages);
  });
});
