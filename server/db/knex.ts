import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";
import { migrations } from "../../migrations/index.js";
import type { Config } from "../config.js";
import { inMemoryPglite } from "./inMemoryPglite.js";

// Ids and counts are int8; they stay far below 2^53, and PGlite already answers numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Knex;

/**
 * An open transaction. Functions that must run inside one take a `Tx`: the root handle is not one
 * (it lacks commit and rollback), so it cannot be passed by mistake, which on PGlite (one
 * connection, held by the open transaction) would wait forever.
 */
export type Tx = Knex.Transaction;

/** The extensions migrations create (0021's search indexes): PGlite loads an extension's files only when told. */
const pgliteExtensions = { btree_gin, pg_trgm };

export type DbOptions =
  | { kind: "postgres"; connectionString: string; searchPath?: string; poolSize?: number }
  /** PGlite keeps its data in `dataDir`, or in memory when it is omitted. */
  | { kind: "pglite"; dataDir?: string };

/** PGlite serves exactly one connection: code inside a transaction uses its `Tx`, never the root `Db`. */
export function createDb(options: DbOptions): Db {
  if (options.kind === "postgres") {
    return knexFactory({
      client: "pg",
      connection: options.connectionString,
      searchPath: options.searchPath ? [options.searchPath] : undefined,
      pool: { min: 0, max: options.poolSize ?? 10 },
    });
  }
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const pglite = options.dataDir
    ? new PGlite({ dataDir: options.dataDir, extensions: pgliteExtensions })
    : inMemoryPglite(pgliteExtensions);
  // knex-pglite takes an instance of ours as `pglite` (not in Knex's types).
  const connection = { pglite } as Knex.StaticConnectionConfig;
  return knexFactory({ client: ClientPgLite as unknown as typeof knexFactory.Client, dialect: "postgres", connection });
}

export function dbOptionsFromConfig(config: Pick<Config, "databaseUrl" | "databasePoolSize" | "dataDir">): DbOptions {
  return config.databaseUrl
    ? { kind: "postgres", connectionString: config.databaseUrl, poolSize: config.databasePoolSize }
    : { kind: "pglite", dataDir: path.join(config.dataDir, "pglite") };
}

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const entry = migrations.find(([candidate]) => candidate === name);
    if (!entry) throw new Error(`Unknown migration ${name}`);
    return entry[1];
  },
};

/**
 * Every process migrates at start. Knex's own lock refuses a second migrator (LockError) rather
 * than waiting, and two processes creating its tables at once collide, so replicas and workers
 * started together on PostgreSQL take turns on an advisory lock (per schema) and the later ones
 * find nothing left to do. PGlite belongs to one process and has one connection to hold.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const config = db.client.config as { client?: unknown; searchPath?: string | string[]; connection?: { pglite?: PGlite } };
  if (config.client !== "pg") {
    // PGlite starts its database (the WASM compiled, a new data folder's initdb) before its first
    // statement: half a minute on a loaded machine, which Knex would count against its 60 s wait for
    // the connection and give up on (the browser bench cases and tests failed at start that way).
    await config.connection?.pglite?.waitReady;
    await db.migrate.latest({ migrationSource });
    return;
  }
  const lockName = `rmcloud migrations ${[config.searchPath ?? "public"].flat().join(",")}`;
  const connection = (await db.client.acquireConnection()) as { query: (sql: string, values: unknown[]) => Promise<unknown> };
  try {
    await connection.query("SELECT pg_advisory_lock(hashtext($1))", [lockName]);
    try {
      await db.migrate.latest({ migrationSource });
    } finally {
      await connection.query("SELECT pg_advisory_unlock(hashtext($1))", [lockName]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * After an import's bulk write: PostgreSQL's autovacuum refreshes the planner's statistics of the
 * tables it filled and sets their visibility map, PGlite has no autovacuum. Without statistics its
 * plans of a freshly filled project (the coverage of a folder of 5,000 imported requirements took
 * 45 s) hold its one connection, and with it every other request; without the visibility map every
 * index-only scan (the tree's counts of a level) reads the table's pages as well.
 */
export async function vacuumAfterBulkWrite(db: Db): Promise<void> {
  const config = db.client.config as { client?: unknown };
  if (config.client === "pg") return;
  await db.raw(`VACUUM (ANALYZE) ${BULK_WRITTEN_TABLES}`);
}

/** The tables an import or the large seed fills in bulk. */
export const BULK_WRITTEN_TABLES = "requirements, requirement_links, requirement_issue_links, folders, requirement_revisions";

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
