import type { Knex } from "knex";
import type { z } from "zod";
import type { AppDeps } from "../deps.js";

/** How often a job is tried and for how long one try may run; a queue's settings in pg-boss. */
export type RetryPolicy = {
  /** Tries after the first one (pg-boss retryLimit). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Doubles the delay after each try, with jitter (pg-boss retryBackoff). */
  retryBackoff: boolean;
  /** A try still running after this long counts as dead (its worker stopped) and is tried again. */
  expireInSeconds: number;
};

const defaultRetry: RetryPolicy = { retryLimit: 2, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 15 * 60 };

/** One delivery of a job to a worker: at least once, so a handler must be safe to run again. */
export type Delivery = {
  /** The pg-boss job id (for a user-visible job, also its status row's id). */
  id: string;
  /** 0 on the first try. */
  attempt: number;
  isLastAttempt: boolean;
};

/** A user-visible job as its handler sees it: progress for the dialog, and the status row's end. */
export type TrackedJob = Delivery & {
  tenantId: string;
  /** Who started it. */
  accountId: string;
  /**
   * Sets total_rows and/or completed_rows. Written in the background (at most a couple of times a
   * second, never awaited), so it may be called for every row and never blocks a transaction.
   */
  progress: (rows: { completed?: number; total?: number }) => void;
  /**
   * Marks the job finished inside the handler's own transaction, so its writes and "finished" commit
   * together. Throws JobAlreadyFinished (rolling that transaction back) when another delivery of the
   * same job finished it first: how a handler with lasting writes stays exactly-once.
   */
  finish: (trx: Knex.Transaction, result?: unknown) => Promise<void>;
};

/**
 * A failure the user should read (bad rows of an import, say): the job fails at once, with this message
 * and `result` (e.g. each row's reason) on its status, without retries. Any other error is retried.
 */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly result?: unknown,
  ) {
    super(message);
    this.name = "JobFailure";
  }
}

/** Thrown by `finish` when the job is already finished or failed: nothing is left to do. */
export class JobAlreadyFinished extends Error {
  constructor() {
    super("The job was already finished by another delivery");
    this.name = "JobAlreadyFinished";
  }
}

type DefinitionOf<P, Kind, Handler> = {
  kind: Kind;
  /** The pg-boss queue's name: letters, digits, - and _. */
  name: string;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  /** How many of its jobs one process runs at once. */
  concurrency: number;
  handler: Handler;
};

/** Its handler's answer becomes the status row's `result` (unless the handler called `finish` itself). */
export type TrackedJobDefinition<P> = DefinitionOf<P, "tracked", (deps: AppDeps, payload: P, job: TrackedJob) => Promise<unknown>>;

export type BackgroundJobDefinition<P> = DefinitionOf<P, "background", (deps: AppDeps, payload: P, delivery: Delivery) => Promise<void>> & {
  /**
   * A cron expression (UTC): pg-boss sends the job, with an empty payload, whenever it is due,
   * once for all processes together (clean-ups). Without it the job is only sent by code.
   */
  cron?: string;
};

export type JobDefinition<P = unknown> = TrackedJobDefinition<P> | BackgroundJobDefinition<P>;

/** Any job: a list of them mixes payload types, and each checks its own with its zod schema. */
// biome-ignore lint/suspicious/noExplicitAny: the payload type is erased here and restored by parsing
export type AnyJobDefinition = JobDefinition<any>;

type Definition<P, H> = {
  name: string;
  payload: z.ZodType<P>;
  retry?: Partial<RetryPolicy>;
  /** 1 unless said otherwise. */
  concurrency?: number;
  handler: H;
};

/**
 * A job a user starts and watches (import, export): it has a tenant-scoped status row that
 * `GET /api/job/status/:jobId` answers. Start it with `startJob`.
 */
export function defineJob<P>(definition: Definition<P, TrackedJobDefinition<P>["handler"]>): TrackedJobDefinition<P> {
  return { kind: "tracked", concurrency: 1, ...definition, retry: { ...defaultRetry, ...definition.retry } };
}

/** Work behind the scenes (notifications, clean-ups): no status row; send it with `JobQueue.send`, or give it a `cron`. */
export function defineBackgroundJob<P>(
  definition: Definition<P, BackgroundJobDefinition<P>["handler"]> & Pick<BackgroundJobDefinition<P>, "cron">,
): BackgroundJobDefinition<P> {
  return { kind: "background", concurrency: 1, ...definition, retry: { ...defaultRetry, ...definition.retry } };
}
