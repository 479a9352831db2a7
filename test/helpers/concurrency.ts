import type { Test } from "supertest";
import type { Db } from "../../server/db/knex.js";

/** Sends the request now (supertest sends only once awaited or then'd), so others can be started beside it. */
export const started = (request: Test) => request.then((res) => res);

/**
 * Another user's transaction, left open until the test commits or rolls it back: what it locks or
 * writes holds the requests started meanwhile at the point a real concurrent save would.
 */
export async function openTransaction(db: Db) {
  const trx = await db.transaction();
  const pid = Number((await trx.raw("SELECT pg_backend_pid() AS pid")).rows[0].pid);
  return { trx, pid };
}

/** Waits until `count` backends wait, directly or behind one another, on the transaction of `pid`. */
export async function untilWaiting(db: Db, pid: number, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await db.raw(
      `WITH RECURSIVE blocked(pid) AS (
         SELECT a.pid FROM pg_stat_activity a WHERE ?::int = ANY(pg_blocking_pids(a.pid))
         UNION
         SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY(pg_blocking_pids(a.pid))
       ) SELECT count(*)::int AS waiting FROM blocked`,
      [pid],
    );
    if (rows[0].waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${count} requests never waited on the open transaction`);
}
