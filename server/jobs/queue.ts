import type { Knex } from "knex";
import PgBoss from "pg-boss";
import pRetry from "p-retry";
import type { Logger } from "pino";
import type { Db } from "../db/knex.js";
import { isDatabaseUnreachable } from "../db/queryHelpers.js";
import type { AppDeps } from "../deps.js";
import type { AnyJobDefinition, JobDefinition, RetryPolicy } from "./defineJob.js";
import { pgBossDb } from "./pgBossDb.js";
import { deadTrackedJob } from "./deadTrackedJob.js";
import { runDefinition } from "./runJob.js";

export type JobQueueOptions = {
  /** Every job this process may send or work on. */
  definitions: readonly AnyJobDefinition[];
  /** How often an idle worker asks for work; 2 s unless a test wants it quicker (0.5 at least). */
  pollingIntervalSeconds?: number;
  /** Overrides every definition's retry settings (tests shorten the waits). */
  retry?: Partial<RetryPolicy>;
  /**
   * Runs pg-boss's scheduler here: it sends the jobs that have a `cron` when they are due (once for
   * all processes, however many run it). Processes that work on jobs run it; web-only ones need not poll for it.
   */
  sendsScheduledJobs?: boolean;
  /** How often tries that outlived their expiry (their worker died) are failed and retried; pg-boss's 2 min unless set. */
  maintenanceIntervalSeconds?: number;
};

/** One of this process's workers, and whether it is running a job. */
type LocalWorker = { id: string; busy: boolean };

export type SendOptions = {
  /**
   * The pg-boss job id: a user-visible job uses its status row's id; a notification one derived from
   * the revision it tells of, so sending it twice enqueues it once.
   */
  id?: string;
};

/**
 * The job queue: pg-boss on our own database connection (PostgreSQL or PGlite). Every process
 * starts it to send; workers additionally `work`. Several processes share it: pg-boss hands each
 * job to one worker at a time (SKIP LOCKED) and tries it again when a worker fails or stops.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions: readonly AnyJobDefinition[];
  /** This process's workers, by queue name. */
  private readonly localWorkers = new Map<string, LocalWorker[]>();
  private started = false;

  constructor(
    db: Db,
    private readonly logger: Logger,
    options: JobQueueOptions,
  ) {
    // The dead-letter queue first: the others refer to it.
    this.definitions = [deadTrackedJob, ...options.definitions].map((definition) =>
      options.retry ? { ...definition, retry: { ...definition.retry, ...options.retry } } : definition,
    );
    this.boss = new PgBoss({
      db: pgBossDb(db),
      schema: jobSchemaOf(db),
      schedule: options.sendsScheduledJobs ?? false,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
    });
    this.boss.on("error", (err) => logger.error({ err }, "job queue error"));
  }

  /** Creates or upgrades pg-boss's tables and this process's queues; safe in several processes at once. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    for (const definition of this.definitions) {
      const options: PgBoss.Queue = {
        name: definition.name,
        policy: "standard",
        retryLimit: definition.retry.retryLimit,
        retryDelay: definition.retry.retryDelaySeconds,
        retryBackoff: definition.retry.retryBackoff,
        expireInSeconds: definition.retry.expireInSeconds,
        ...(definition.kind === "tracked" ? { deadLetter: deadTrackedJob.name } : {}),
      };
      await retriedOnDeadlock(() => this.boss.createQueue(definition.name, options));
      await retriedOnDeadlock(() => this.boss.updateQueue(definition.name, options));
      // An upsert: every process records the same schedule, whichever of them then sends it.
      if (definition.kind === "background" && definition.cron) await this.boss.schedule(definition.name, definition.cron, {});
    }
    this.started = true;
  }

  /** Starts workers for every definition in this process, `concurrency` of each. */
  async work(deps: AppDeps): Promise<void> {
    for (const definition of this.definitions) {
      const workers: LocalWorker[] = [];
      for (let index = 0; index < definition.concurrency; index++) {
        const worker: LocalWorker = { id: "", busy: false };
        worker.id = await this.boss.work<unknown>(definition.name, { includeMetadata: true }, async ([job]) => {
          if (!job) return;
          worker.busy = true;
          try {
            await runDefinition(deps, definition, job);
          } catch (err) {
            // pg-boss records the failure, and so the retry, without awaiting it: with the database still
            // away the record would be lost (the job left "active" until it expires) and its rejection unhandled.
            if (isDatabaseUnreachable(err)) await untilDatabaseAnswers(deps.db, this.logger);
            throw err;
          } finally {
            worker.busy = false;
          }
        });
        workers.push(worker);
      }
      this.localWorkers.set(definition.name, workers);
    }
  }

  /**
   * Enqueues inside `db` (pass the caller's transaction: the job exists only if it commits).
   * Answers the job id, or null when a job with the same id is already queued.
   */
  async send<P>(db: Db | Knex.Transaction, definition: JobDefinition<P>, data: unknown, options: SendOptions = {}) {
    const id = await this.boss.send(definition.name, data as object, { ...options, db: pgBossDb(db) });
    this.wakeWorkersWhenCommitted(db, definition, 1);
    return id;
  }

  /** `send` for many jobs in one statement (pg-boss `insert`); ids already queued are skipped. */
  async sendMany<P>(db: Db | Knex.Transaction, definition: JobDefinition<P>, jobs: { id?: string; data: unknown }[]) {
    await this.boss.insert(
      jobs.map((job) => ({ name: definition.name, id: job.id, data: job.data as object })),
      { db: pgBossDb(db) },
    );
    this.wakeWorkersWhenCommitted(db, definition, jobs.length);
  }

  /**
   * A job sent from a process that works on its queue starts as soon as it can be fetched (its
   * transaction committed), not at the worker's next poll up to `pollingIntervalSeconds` later: a
   * small import is over by the dialog's second poll, a comment reaches Jira at once. One worker is
   * woken per job, idle ones first (a busy one fetches again as soon as its job ends), so a save does
   * not cost a fetch per worker. Workers of other processes find the job at their next poll, as before.
   */
  private wakeWorkersWhenCommitted(db: Db | Knex.Transaction, definition: AnyJobDefinition, jobCount: number): void {
    const workers = this.localWorkers.get(definition.name);
    if (!workers) return;
    const wake = () => {
      const idleFirst = [...workers.filter((worker) => !worker.busy), ...workers.filter((worker) => worker.busy)];
      for (const worker of idleFirst.slice(0, jobCount)) this.boss.notifyWorker(worker.id);
    };
    if (!db.isTransaction) {
      wake();
      return;
    }
    // A nested transaction (a savepoint) ends before the commit that makes the job visible; knex
    // links it to its parent by the untyped `parentTransaction`.
    let outermost = db as Knex.Transaction & { parentTransaction?: Knex.Transaction };
    while (outermost.parentTransaction) outermost = outermost.parentTransaction;
    outermost.executionPromise.then(wake, () => undefined);
  }

  /**
   * Stops fetching; running jobs get `timeoutMs` to end. `graceful: false` stops at once and hands the
   * running jobs back to the queue for another worker (what a dying process amounts to).
   */
  async stop(options: { graceful?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: options.graceful ?? true, timeout: options.timeoutMs ?? 30_000, wait: true });
    this.logger.debug("job queue stopped");
  }
}

/** How long a worker waits for its database to come back before handing a failed try back anyway. */
const DATABASE_RETURN_WAIT_MS = 5 * 60_000;

/** Resolves once the database answers again (a restart or failover), or after DATABASE_RETURN_WAIT_MS. */
async function untilDatabaseAnswers(db: Db, logger: Logger): Promise<void> {
  await pRetry(() => db.raw("select 1"), {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 250,
    maxTimeout: 2000,
    maxRetryTime: DATABASE_RETURN_WAIT_MS,
  }).catch((err: unknown) => logger.warn({ err }, "the database did not come back; handing the job back anyway"));
}

/**
 * pg-boss's schema: `pgboss`, or next to the database's own schema when it has one (each test file
 * and benchmark gets a schema of its own, and so a queue of its own).
 */
export function jobSchemaOf(db: Db): string {
  const searchPath = (db.client.config as { searchPath?: string | string[] }).searchPath;
  const schema = Array.isArray(searchPath) ? searchPath[0] : searchPath;
  return schema ? `${schema}_pgboss` : "pgboss";
}

/**
 * pg-boss 10 creates a queue's partition while another process may be inserting the same queue's
 * row, and PostgreSQL breaks the resulting deadlock by failing one of them (40P01): processes
 * started together on a new database (replicas and workers) try again, and then find the queue made.
 */
async function retriedOnDeadlock(step: () => Promise<unknown>, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await step();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
