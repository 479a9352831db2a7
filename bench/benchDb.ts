import { randomBytes } from "node:crypto";
import { createDb, type Db, migrateToLatest } from "../server/db/knex.js";
import type { BenchContext } from "./types.js";

/** A migrated, empty database for one case: in-memory PGlite, or a fresh schema on the benchmark PostgreSQL. */
export async function createBenchDb(context: BenchContext): Promise<{ db: Db; destroy: () => Promise<void> }> {
  if (context.db === "postgres" && context.databaseUrl) {
    const schema = `bench_${randomBytes(5).toString("hex")}`;
    const admin = createDb({ kind: "postgres", connectionString: context.databaseUrl });
    await admin.raw("CREATE SCHEMA ??", [schema]);
    const db = createDb({ kind: "postgres", connectionString: context.databaseUrl, searchPath: schema });
    await migrateToLatest(db);
    return {
      db,
      destroy: async () => {
        await db.destroy();
        await admin.raw("DROP SCHEMA ?? CASCADE", [schema]);
        await admin.destroy();
      },
    };
  }
  const db = createDb({ kind: "pglite" });
  await migrateToLatest(db);
  return { db, destroy: () => db.destroy() };
}
