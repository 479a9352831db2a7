import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/db.js";
import { migrateToLatest, rollbackAll } from "./knex.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

/** Our tables (not Knex's bookkeeping) with the first column of each one's primary key, from the catalog. */
async function primaryKeyLeaders(): Promise<Record<string, string | null>> {
  const result = await database.db.raw(`
    SELECT c.relname AS table_name, a.attname AS leading_column
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname NOT LIKE 'knex\\_%'
    ORDER BY c.relname`);
  const rows = result.rows as { table_name: string; leading_column: string | null }[];
  return Object.fromEntries(rows.map((row) => [row.table_name, row.leading_column]));
}

/**
 * Tables that hold no tenant's data: each install callback's token (remembered before any tenant
 * exists) and rate-limiter-flexible's counters (its own layout; the key names the tenant).
 */
const KEYED_OTHERWISE: Record<string, string> = { lifecycle_tokens: "token_sha256", api_rate_limits: "key" };

describe("the migrations", () => {
  it("go all the way down to an empty schema and up again, every table keyed by tenant first", async () => {
    await rollbackAll(database.db);
    expect(await primaryKeyLeaders()).toEqual({});

    await migrateToLatest(database.db);
    const leaders = await primaryKeyLeaders();
    expect(Object.keys(leaders)).toEqual(expect.arrayContaining(["tenants", "installations", "requirements", "attachments", "jobs"]));
    for (const [table, leading] of Object.entries(leaders)) {
      expect({ table, leading }).toEqual({ table, leading: KEYED_OTHERWISE[table] ?? "tenant_id" });
    }

    await rollbackAll(database.db);
    expect(await primaryKeyLeaders()).toEqual({});
    await migrateToLatest(database.db);
    expect(await primaryKeyLeaders()).toEqual(leaders);
  });
});
