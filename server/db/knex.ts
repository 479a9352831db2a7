import fs from "node:fs";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";
import { migrations } from "../../migrations/index.js";

// Ids and counts are int8; they stay far below 2^53, and PGlite already answers numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Knex;

export type DbOptions =
  | { kind: "postgres"; connectionString: string; searchPath?: string }
  /** PGlite keeps its data in `dataDir`, or in memory when it is omitted. */
  | { kind: "pglite"; dataDir?: string };

/**
 * PGlite serves exactly one connection: code must pass the transaction (`trx`)
 * down instead of reaching for the root `db` while a transaction is open, or it waits forever.
 */
export function createDb(options: DbOptions): Db {
  if (options.kind === "postgres") {
    return knexFactory({
      client: "pg",
      connection: options.connectionString,
      searchPath: options.searchPath ? [options.searchPath] : undefined,
      pool: { min: 0, max: 10 },
    });
  }
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  return knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: "postgres",
    connection: options.dataDir ? { filename: options.dataDir } : {},
  });
}

export function dbOptionsFromConfig(config: { databaseUrl: string | undefined; dataDir: string }): DbOptions {
  return config.databaseUrl
    ? { kind: "postgres", connectionString: config.databaseUrl }
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

export async function migrateToLatest(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
