import { randomBytes } from "node:crypto";
import { createDb, type Db, migrateToLatest } from "../../server/db/knex.js";

export type TestDatabase = { db: Db; kind: "pglite" | "postgres"; destroy: () => Promise<void> };

/**
 * A migrated, empty database of its own for one test file: an in-memory PGlite, or a
 * fresh schema in TEST_DATABASE_URL when the file runs in the db-postgres project.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB === "postgres") {
    const connectionString = process.env.TEST_DATABASE_URL;
    if (!connectionString) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
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
        await admin.destroy();
      },
    };
  }
  const db = createDb({ kind: "pglite" });
  await migrateToLatest(db);
  return { db, kind: "pglite", destroy: () => db.destroy() };
}
