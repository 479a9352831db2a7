import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import { z } from "zod";
import { flattenErrorBody } from "../../common/errors.js";
import { HostCallError } from "../connect/hostClientImpl.js";
import { endJob, markJobStarted, setJobProgress } from "../db/jobStore.js";
import type { AppDeps } from "../deps.js";
import { reportError } from "../errorReporting.js";
import { AppError } from "../errors.js";
import { type AnyJobDefinition, type Delivery, JobAlreadyFinished, JobFailure } from "./defineJob.js";

/** What a user-visible job carries on the queue: whose it is, then its own payload. */
export const TrackedJobData = z.object({
  jobId: z.guid(),
  tenantId: z.guid(),
  accountId: z.string(),
  payload: z.unknown(),
});

export const stoppedMessage = "The job stopped before it finished";
const invalidPayloadMessage = "The job's input is not valid";

export async function runDefinition(deps: AppDeps, definition: AnyJobDefinition, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
  const delivery: Delivery = {
    id: job.id,
    attempt: job.retryCount,
    isLastAttempt: job.retryCount >= job.retryLimit,
  };
  const log = deps.logger.child({ job: definition.name, jobId: job.id, attempt: delivery.attempt });
  if (definition.kind === "tracked") return runTrackedJob(deps, log, definition, job.data, delivery);

  const payload = definition.payload.safeParse(job.data);
  try {
    if (!payload.success) throw new JobFailure(invalidPayloadMessage, payload.error.issues);
    await definition.handler(deps, payload.data, delivery);
  } catch (err) {
    // No try can mend it: reported once and not retried.
    if (err instanceof JobFailure) return reportFailure(log, definition, err);
    log[delivery.isLastAttempt ? "error" : "warn"](
      { err },
      delivery.isLastAttempt ? "job failed, no tries left" : "job failed, will retry",
    );
    if (delivery.isLastAttempt) reportError(err, { job: definition.name });
    throw err;
  }
}

async function runTrackedJob(
  deps: AppDeps,
  log: Logger,
  definition: AnyJobDefinition & { kind: "tracked" },
  data: unknown,
  delivery: Delivery,
): Promise<void> {
  const envelope = TrackedJobData.safeParse(data);
  if (!envelope.success) return reportFailure(log, definition, new JobFailure(invalidPayloadMessage, envelope.error.issues));
  const { jobId, tenantId, accountId } = envelope.data;
  if (!(await markJobStarted(deps.db, tenantId, jobId))) {
    log.info({ tenantId }, "the job is already over (a repeated delivery, or its site was removed)");
    return;
  }
  const payload = definition.payload.safeParse(envelope.data.payload);
  if (!payload.success) {
    const failure = new JobFailure(invalidPayloadMessage, payload.error.issues);
    await endJob(deps.db, tenantId, jobId, { status: "failed", error: failure.message });
    return reportFailure(log, definition, failure);
  }
  const progress = progressWriter(log, (rows) => setJobProgress(deps.db, tenantId, jobId, rows));
  try {
    const result = await definition.handler(deps, payload.data, {
      ...delivery,
      tenantId,
      accountId,
      progress: progress.report,
      finish: async (trx, finishResult) => {
        if (!(await endJob(trx, tenantId, jobId, { status: "finished", result: finishResult }))) {
          throw new JobAlreadyFinished();
        }
      },
    });
    await progress.settled();
    // A no-op when the handler already finished it in its own transaction.
    await endJob(deps.db, tenantId, jobId, { status: "finished", result });
  } catch (err) {
    await progress.settled();
    if (err instanceof JobAlreadyFinished) return;
    const failure = failureOf(err);
    if (failure) {
      await endJob(deps.db, tenantId, jobId, { status: "failed", error: failure.message, result: failure.result });
      return reportFailure(log, definition, failure);
    }
    log[delivery.isLastAttempt ? "error" : "warn"]({ err, tenantId }, "job failed");
    if (delivery.isLastAttempt) {
      reportError(err, { job: definition.name });
      await endJob(deps.db, tenantId, jobId, { status: "failed", error: errorMessage(err) });
    }
    throw err;
  }
}

/**
 * A user-visible job's error as the failure its user reads, the same way for every job, when no
 * retry can mend it: the handler's own JobFailure; a request that no longer holds (an AppError 4xx:
 * its type or folder deleted after it was queued, its user no longer allowed), with the reason;
 * Jira failing still after the host client's own retries (rate limits, resets), with Jira's message.
 * Anything else is retried.
 */
function failureOf(err: unknown): JobFailure | undefined {
  if (err instanceof JobFailure) return err;
  if (err instanceof AppError && err.status >= 400 && err.status < 500) return new JobFailure(flattenErrorBody(err.body));
  if (err instanceof HostCallError) return new JobFailure(`Jira could not be read: ${err.message}`);
  return undefined;
}

/**
 * A failure no retry can mend. A user-visible job's status already tells its user (the import's
 * bad rows are theirs to fix, and not reported); an invalid payload is our defect, and reported.
 */
function reportFailure(log: Logger, definition: AnyJobDefinition, failure: JobFailure): void {
  const ours = failure.message === invalidPayloadMessage;
  log[ours ? "error" : "info"]({ reason: failure.message, result: failure.result }, "job failed, not retried");
  if (ours) reportError(failure, { job: definition.name });
}

function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : stoppedMessage;
}

type Rows = { completed?: number; total?: number };

/**
 * Coalesces progress into at most one write in flight and two a second. Never awaited by the
 * handler: on PGlite (one connection) a write waits while the handler's transaction is open.
 */
function progressWriter(log: Logger, write: (rows: Rows) => Promise<void>) {
  const minIntervalMs = 500;
  let latest: Rows = {};
  let dirty = false;
  let running: Promise<void> | undefined;

  const loop = async () => {
    while (dirty) {
      dirty = false;
      const startedAt = Date.now();
      try {
        await write(latest);
      } catch (err) {
        log.debug({ err }, "progress not written");
      }
      const wait = minIntervalMs - (Date.now() - startedAt);
      if (dirty && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    running = undefined;
  };

  return {
    report: (rows: Rows) => {
      latest = { ...latest, ...rows };
      dirty = true;
      running ??= loop();
    },
    settled: async () => {
      await running;
    },
  };
}
