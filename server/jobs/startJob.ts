import { randomUUID } from "node:crypto";
import { insertJob } from "../db/jobStore.js";
import type { AppDeps } from "../deps.js";
import type { Actor } from "../services/context.js";
import type { TrackedJobDefinition } from "./defineJob.js";

/**
 * Starts a user-visible job for the actor's site: its status row (queued) and its place on the queue
 * in one transaction (or in the caller's, when `deps.db` is one). Answers the job id the client polls.
 */
export async function startJob<P>(
  deps: Pick<AppDeps, "db" | "jobs">,
  actor: Actor,
  definition: TrackedJobDefinition<P>,
  payload: P,
): Promise<string> {
  const jobId = randomUUID();
  const data = { jobId, tenantId: actor.tenantId, accountId: actor.accountId, payload: definition.payload.parse(payload) };
  await deps.db.transaction(async (trx) => {
    await insertJob(trx, actor.tenantId, { jobId, name: definition.name, accountId: actor.accountId });
    await deps.jobs.send(trx, definition, data, { id: jobId });
  });
  return jobId;
}
