import { randomBytes } from "node:crypto";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index.js";
import { jobDefinitions } from "../jobs/index.js";
import { JobQueue, jobSchemaOf } from "../jobs/queue.js";
import { createDb, migrateToLatest } from "./knex.js";

const postgresUrl = process.env.TEST_DATABASE_URL;

// Several processes on one database exist only on PostgreSQL: PGlite belongs to the process that opened it.
describe("add-on and worker processes started together on a new database", () => {
  it("all start: the schema is migrated once and the job queues are created once", async () => {
    const connectionString = postgresUrl ?? "";
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = createDb({ kind: "postgres", connectionString });
    await admin.raw("CREATE SCHEMA ??", [schema]);
    const processes = Array.from({ length: 3 }, () => createDb({ kind: "postgres", connectionString, searchPath: schema }));
    try {
      await Promise.all(
        processes.map(async (db) => {
          await migrateToLatest(db);
          const queue = new JobQueue(db, pino({ level: "silent" }), { definitions: jobDefinitions });
          await queue.start();
          await queue.stop({ timeoutMs: 1000 });
        }),
      );
      const applied = await admin.withSchema(schema).table("knex_migrations").pluck("name");
      expect(applied).toEqual(migrations.map(([name]) => name));
      const queues = await admin
        .withSchema(jobSchemaOf(processes[0] ?? admin))
        .table("queue")
        .pluck("name");
      expect(new Set(queues).size).toBe(queues.length);
      expect(queues).toEqual(expect.arrayContaining(jobDefinitions.map((definition) => definition.name)));
    } finally {
      await Promise.all(processes.map((db) => db.destroy()));
      await admin.raw("DROP SCHEMA IF EXISTS ?? CASCADE", [schema]);
      await admin.raw("DROP SCHEMA IF EXISTS ?? CASCADE", [`${schema}_pgboss`]);
      await admin.destroy();
    }
  });
});
