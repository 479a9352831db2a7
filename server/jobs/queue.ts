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
  /**
   * A running try is marked alive by its worker every half of this; one left unmarked this long (its
   * worker was killed) is failed and tried again by pg-boss's maintenance, which then runs every half
   * of it too. Unset (PGlite, one process and no other worker to take over): a try counts as dead only
   * once it outlives its job's expiry, checked every 2 minutes.
   */
  heartbeatSeconds?: number;
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
  /** The tries this process runs that are being marked alive, each with its stop. */
  private readonly heartbeats = new Set<() => void>();
  private readonly heartbeatSeconds: number | undefined;
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    options: JobQueueOptions,
  ) {
    this.heartbeatSeconds = options.heartbeatSeconds;
    // The dead-letter queue first: the others refer to it.
    this.definitions = [deadTrackedJob, ...options.definitions].map((definition) =>
      options.retry ? { ...definition, retry: { ...definition.retry, ...options.retry } } : definition,
    );
    this.boss = new PgBoss({
      db: pgBossDb(db),
      schema: jobSchemaOf(db),
      schedule: options.sendsScheduledJobs ?? false,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      ...(options.heartbeatSeconds ? { maintenanceIntervalSeconds: Math.max(1, Math.floor(options.heartbeatSeconds / 2)) } : {}),
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
          const stopHeartbeat = this.keepAlive(definition, job);
          try {
            await runDefinition(deps, definition, job);
          } catch (err) {
            // pg-boss records the failure, and so the retry, without awaiting it: with the database still
            // away the record would be lost (the job left "active" until it expires) and its rejection unhandled.
            if (isDatabaseUnreachable(err)) await untilDatabaseAnswers(deps.db, this.logger);
            throw err;
          } finally {
            stopHeartbeat();
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
    for (const stopHeartbeat of this.heartbeats) stopHeartbeat();
    this.logger.debug("job queue stopped");
  }

  /**
   * pg-boss 10 tells a dead worker's try only by its expiry, which must outlast the job's longest run:
   * an import killed with its worker waited an hour for another. So while this process runs a try, its
   * expiry is kept `heartbeatSeconds` ahead: at once, then every half of that, never past the job's
   * own expiry. When the process dies the marks stop, and pg-boss's maintenance fails the try and
   * retries it as it does any expired one (after the job's retry delay). pg-boss 12 has this heartbeat
   * built in; it needs Node.js 22 and cannot migrate pg-boss 10's schema (docs/decisions.md). Answers the stop.
   */
  private keepAlive(definition: AnyJobDefinition, job: PgBoss.JobWithMetadata<unknown>): () => void {
    const seconds = this.heartbeatSeconds;
    if (!seconds) return () => {};
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      this.heartbeats.delete(stop);
    };
    const mark = async () => {
      let nextMs = seconds * 500;
      try {
        // No row: the try is over (ended, or failed by its expiry after all), and nothing is left to keep alive.
        if ((await markTryAlive(this.db, definition.name, job, seconds)) === 0) stop();
      } catch (err) {
        // The database away for a moment: marked again as soon as it answers, before maintenance looks.
        this.logger.warn({ err, job: definition.name, jobId: job.id }, "a running job could not be marked alive");
        nextMs = 1000;
      }
      if (!stopped) timer = setTimeout(mark, nextMs);
    };
    this.heartbeats.add(stop);
    void mark();
    return stop;
  }
}

/**
 * Keeps a running try's expiry (pg-boss's `started_on + expire_in`) `seconds` from now, never later
 * than its start plus the job's expiry. It moves `started_on`, not `expire_in`: pg-boss copies
 * `expire_in` onto the job's next try and times that try out by it, so it stays the job's own. Only
 * this delivery's try: a later delivery of the same job counts its own.
 */
function markTryAlive(db: Db, queue: string, job: PgBoss.JobWithMetadata<unknown>, seconds: number): Promise<number> {
  return db
    .withSchema(jobSchemaOf(db))
    .table("job")
    .where({ name: queue, id: job.id, state: "active", retry_count: job.retryCount })
    .update({ started_on: db.raw("least(?::timestamptz, now() + ?::interval - expire_in)", [job.startedOn, `${seconds} seconds`]) });
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
