import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createDb, type Db, dbOptionsFromConfig } from "./knex.js";

const postgresUrl = process.env.TEST_DB === "postgres" ? process.env.TEST_DATABASE_URL : undefined;

// Connection pools and plan caches per connection exist only on PostgreSQL: PGlite is one connection in the process.
describe.runIf(postgresUrl)("a process's connections to PostgreSQL", () => {
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

  it("run named statements on a generic plan, planned once per connection", async () => {
    const db = open(createDb({ kind: "postgres", connectionString: postgresUrl ?? "", poolSize: 1 }));
    const named = async () => (await db.raw("SELECT count(*)::int AS n FROM generate_series(1, ?::int)", [3]).options({ name: "counted" })).rows[0].n;
    expect(await named()).toBe(3);
    expect(await named()).toBe(3);
    const { rows } = await db.raw("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'counted'");
    expect(rows).toEqual([{ generic_plans: 2, custom_plans: 0 }]);
  });
});
