import { randomBytes } from "node:crypto";
import { createDb, type Db, migrateToLatest } from "../../server/db/knex.js";
import { jobSchemaOf } from "../../server/jobs/queue.js";

export type TestDatabase = { db: Db; kind: "pglite" | "postgres"; destroy: () => Promise<void> };

/**
 * A migrated, empty database of its own for one test file or benchmark case: a fresh schema in
 * `postgresUrl` (tests in the db-postgres project get TEST_DATABASE_URL), else an in-memory PGlite.
 */
export async function createTestDatabase(options: { postgresUrl?: string } = {}): Promise<TestDatabase> {
  const connectionString = options.postgresUrl ?? postgresUrlOfTestRun();
  if (connectionString) {
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = createDb({ kind: "postgres", connectionString });
    await admin.raw("CREATE SCHEMA ??", [schema]);
    const db = createDb({ kind: "postgres", connectionString, searchPath: schema });
    await migrateToLatest(db);
    return {
      db,
      kind: "postgres",
      destroy: async () => {
        await db.destroy();
        await admin.raw("DROP SCHEMA ?? CASCADE", [schema]);
        await admin.raw("DROP SCHEMA IF EXISTS ?? CASCADE", [jobSchemaOf(db)]);
        await admin.destroy();
      },
    };
  }
  const db = createDb({ kind: "pglite" });
  await migrateToLatest(db);
  return { db, kind: "pglite", destroy: () => db.destroy() };
}

function postgresUrlOfTestRun(): string | undefined {
  if (process.env.TEST_DB !== "postgres") return undefined;
  const connectionString = process.env.TEST_DATABASE_URL;
  if (!connectionString) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  return connectionString;
}
