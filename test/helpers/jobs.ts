import { expect, vi } from "vitest";
import type { Db } from "../../server/db/knex.js";
import type { AnyJobDefinition, JobDefinition } from "../../server/jobs/defineJob.js";
import { jobSchemaOf } from "../../server/jobs/queue.js";

type QueuedJob<P> = { id: string; state: string; data: P; retryCount: number };

/** The jobs of one definition on the queue (any state), oldest first; optionally of one tenant. */
export async function queuedJobs<P>(db: Db, definition: JobDefinition<P>, tenantId?: string): Promise<QueuedJob<P>[]> {
  const query = db
    .withSchema(jobSchemaOf(db))
    .from("job")
    .where({ name: definition.name })
    .orderBy([{ column: "created_on" }, { column: "id" }])
    .select("id", "state", "data", "retry_count as retryCount");
  if (tenantId) query.whereRaw("data->>'tenantId' = ?", [tenantId]);
  return query;
}

/** Waits until no job of the definition is waiting, retrying or running. */
export async function jobsSettled(db: Db, definition: AnyJobDefinition): Promise<void> {
  await vi.waitFor(
    async () => {
      const open = (await queuedJobs(db, definition)).filter((job) => ["created", "retry", "active"].includes(job.state));
      expect(open).toEqual([]);
    },
    { timeout: 30_000, interval: 200 },
  );
}
