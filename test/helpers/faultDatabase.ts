import { randomBytes } from "node:crypto";
import { createDb, type Db, migrateToLatest } from "../../server/db/knex.js";
import type { TestDatabase } from "./db.js";

export type FaultDatabase = TestDatabase & {
  /** Its connection string, for the add-on's own processes (DATABASE_URL). */
  url: string;
  /**
   * An outage of this database alone, as a restart looks from the add-on: for `ms` every new
   * connection is refused (ALLOW_CONNECTIONS false) and every open one is cut (pg_terminate_backend,
   * every 50 ms), then connections are allowed again. Resolves with how many connections were cut.
   */
  outage: (ms: number) => Promise<number>;
};

/**
 * A migrated PostgreSQL database of its own (`rmcloud_faults_<pid>_<random>`) on TEST_DATABASE_URL's
 * server, dropped by `destroy`. Its connections are killed and refused by the fault tests; the server
 * itself, which others share, is never stopped.
 */
export async function createFaultDatabase(): Promise<FaultDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("The fault tests need TEST_DATABASE_URL");
  const name = `rmcloud_faults_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = createDb({ kind: "postgres", connectionString: serverUrl, poolSize: 2 });
  await admin.raw("CREATE DATABASE ??", [name]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ kind: "postgres", connectionString: url.toString() });
  await migrateToLatest(db);

  const cutEveryConnection = async (admin: Db): Promise<number> => {
    const { rows } = await admin.raw(
      "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()",
      [name],
    );
    return (rows as { cut: boolean }[]).filter((row) => row.cut).length;
  };

  return {
    db,
    kind: "postgres",
    url: url.toString(),
    outage: async (ms) => {
      const until = Date.now() + ms;
      let cut = 0;
      await admin.raw("ALTER DATABASE ?? ALLOW_CONNECTIONS false", [name]);
      try {
        while (Date.now() < until) {
          cut += await cutEveryConnection(admin);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await admin.raw("ALTER DATABASE ?? ALLOW_CONNECTIONS true", [name]);
      }
      return cut;
    },
    destroy: async () => {
      await db.destroy();
      await admin.raw("DROP DATABASE IF EXISTS ?? WITH (FORCE)", [name]);
      await admin.destroy();
    },
  };
}
