import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createTenant, insertRequirementRow } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { createDb, type Db, dbOptionsFromConfig } from "./knex.js";
import { findRequirementDetails } from "./requirements/index.js";

const postgresUrl = process.env.TEST_DATABASE_URL;

// Connection pools and plan caches per connection exist only on PostgreSQL: PGlite is one connection in the process.
describe("a process's connections to PostgreSQL", () => {
  const opened: Db[] = [];
  const open = (db: Db) => {
    opened.push(db);
    return db;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.destroy()));
  });

  it("are at most DATABASE_POOL_SIZE however many reads wait", async () => {
    const db = open(createDb(dbOptionsFromConfig(loadConfig({ DATABASE_URL: postgresUrl, DATABASE_POOL_SIZE: "2" }))));
    const reads = Array.from({ length: 8 }, () => db.raw("SELECT pg_backend_pid() AS pid, pg_sleep(0.05)"));
    const backends = new Set((await Promise.all(reads)).map((result) => result.rows[0].pid));
    expect(backends.size).toBe(2);
  });

  it("plan the requirement detail generically (one requirement's after PostgreSQL's five custom plans, several from the first read) and leave every other statement to PostgreSQL's choice", async () => {
    const database = await createTestDatabase({ postgresUrl });
    try {
      const { tenantId } = await createTenant(database.db);
      const requirementId = await insertRequirementRow(database.db, tenantId, "Dose limit");
      const otherId = await insertRequirementRow(database.db, tenantId, "Flow rate");
      const searchPath = (database.db.client.config as { searchPath: string[] }).searchPath;
      const db = open(createDb({ kind: "postgres", connectionString: postgresUrl ?? "", searchPath: searchPath[0], poolSize: 1 }));
      for (let read = 0; read < 8; read++) {
        expect((await findRequirementDetails(db, tenantId, [requirementId])).map((row) => row.name)).toEqual(["Dose limit"]);
      }
      for (let read = 0; read < 3; read++) {
        expect((await findRequirementDetails(db, tenantId, [otherId, requirementId])).map((row) => row.name)).toEqual([
          "Dose limit",
          "Flow rate",
        ]);
      }
      const { rows } = await db.raw("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name");
      expect(rows).toEqual([
        { name: "requirement_detail", generic_plans: 3, custom_plans: 0 },
        { name: "requirement_detail_one", generic_plans: 3, custom_plans: 5 },
      ]);
      expect((await db.raw("SHOW plan_cache_mode")).rows).toEqual([{ plan_cache_mode: "auto" }]);
    } finally {
      await database.destroy();
    }
  });
});
