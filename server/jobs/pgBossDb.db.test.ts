import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/db.js";
import { pgBossDb } from "./pgBossDb.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe("the job queue's database connection", () => {
  it("is usable again after a plan failed inside its own transaction, as when two processes create the queue's tables at once", async () => {
    const queueDb = pgBossDb(database.db);
    await expect(queueDb.executeSql("BEGIN; CREATE TEMP TABLE racing (id int); SELECT 1 / 0; COMMIT;", [])).rejects.toThrow(
      /division by zero/,
    );

    const { rows } = await database.db.raw("SELECT to_regclass('pg_temp.racing') AS created, 2 AS next");
    expect(rows).toEqual([{ created: null, next: 2 }]);
    expect(await queueDb.executeSql("SELECT 3 AS next", [])).toMatchObject({ rows: [{ next: 3 }] });
  });

  it("leaves a caller's transaction for the caller to end", async () => {
    await expect(
      database.db.transaction(async (trx) => {
        await trx.raw("CREATE TEMP TABLE kept_until_rollback (id int)");
        await expect(pgBossDb(trx).executeSql("SELECT 1 / 0", [])).rejects.toThrow(/division by zero/);
        // Still the caller's aborted transaction: not rolled back underneath it.
        await expect(trx.raw("SELECT 1")).rejects.toThrow(/current transaction is aborted/);
        throw new Error("rolled back by its owner");
      }),
    ).rejects.toThrow("rolled back by its owner");
    const { rows } = await database.db.raw("SELECT to_regclass('pg_temp.kept_until_rollback') AS created");
    expect(rows).toEqual([{ created: null }]);
  });
});
