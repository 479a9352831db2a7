import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, insertRequirementRow } from "../../../test/helpers/app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";

describe("a requirement's components and revisions", () => {
  let database: TestDatabase;
  let site: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    site = (await createTenant(database.db)).tenantId;
  });
  afterAll(() => database.destroy());

  // Two transactions at once need two connections: PGlite is one connection in the process.
  it("hold their requirement against a concurrent delete until they commit", async () => {
    const requirementId = await insertRequirementRow(database.db, site, "Free-flow protection");
    await database.db.transaction(async (trx) => {
      await trx("requirement_components").insert({ tenant_id: site, requirement_id: requirementId, atlassian_component_id: "10100" });
      await expect(
        database.db.transaction(async (other) => {
          await other.raw("SET LOCAL lock_timeout = '300ms'");
          await other("requirements").where({ tenant_id: site, requirement_id: requirementId }).delete();
        }),
      ).rejects.toMatchObject({ code: "55P03" });
    });
    expect(await database.db("requirement_components").where({ tenant_id: site, requirement_id: requirementId })).toHaveLength(1);
  });
});
