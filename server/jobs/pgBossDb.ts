import type { Knex } from "knex";
import type PgBoss from "pg-boss";

type QueryResult = { rows: unknown[] };

/** What a Knex connection is underneath: a pg client, or the PGlite instance itself. */
type RawConnection = {
  query: (text: string, values?: unknown[]) => Promise<QueryResult>;
  exec?: (text: string) => Promise<QueryResult[]>;
};

type KnexClient = {
  acquireConnection: () => Promise<RawConnection>;
  releaseConnection: (connection: RawConnection) => Promise<unknown>;
};

/**
 * pg-boss's `db` option over a Knex instance or an open Knex transaction: its SQL runs on the same
 * connection, so a job sent with a transaction's adapter commits or rolls back with it. pg-boss writes
 * `$n` placeholders (Knex's raw() would read `?`), so the SQL goes to the connection directly; PGlite
 * runs one statement per query(), so pg-boss's multi-statement plans (always without values) go through
 * its `exec` and answer the last statement's rows.
 */
export function pgBossDb(db: Knex | Knex.Transaction): PgBoss.Db {
  const client = db.client as unknown as KnexClient;
  const ownsConnection = !("isTransaction" in db && db.isTransaction);
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const connection = await client.acquireConnection();
      try {
        if (connection.exec && (values === undefined || values.length === 0)) {
          const results = await connection.exec(text);
          return results.at(-1) ?? { rows: [] };
        }
        return await connection.query(text, values);
      } catch (error) {
        // A plan that failed after its own BEGIN (two processes creating pg-boss's schema at once:
        // pg-boss expects the loser's "already exists") leaves the connection in an aborted
        // transaction; rolled back here, or the pool hands it to the next query. A caller's
        // transaction is the caller's to end.
        if (ownsConnection) await connection.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}
