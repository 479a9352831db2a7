import { randomBytes } from "node:crypto";
import pg from "pg";

/** A database made for one run of the whole product on a PostgreSQL server, and dropped after it. */
export type OwnDatabase = { url: string; drop(): Promise<void> };

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new database `<prefix>_<pid>_<random>` on the server `adminUrl` names: processes of the product
 * started on it (their migrations, pg-boss's schema) share nothing with any other run. `drop()`
 * ends its connections and drops it, and only warns when it cannot.
 */
export async function createOwnDatabase(adminUrl: string, prefix: string): Promise<OwnDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) => {
        process.stderr.write(`could not drop database ${name}: ${(error as Error).message}\n`);
      }),
  };
}
