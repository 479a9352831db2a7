import type { Server } from "node:http";
import { createApp } from "./app.js";
import { type Config, loadConfig } from "./config.js";
import { createHostClient } from "./connect/hostClientImpl.js";
import { createDb, dbOptionsFromConfig, migrateToLatest } from "./db/knex.js";
import type { AppDeps } from "./deps.js";
import { jobDefinitions } from "./jobs/index.js";
import { JobQueue } from "./jobs/queue.js";
import { flushErrorReports, startErrorReporting } from "./errorReporting.js";
import { defaultToProductionWhenCompiled, isEntryPoint } from "./isEntryPoint.js";
import { listen } from "./listen.js";
import { createLogger } from "./logger.js";
import { createMailer } from "./mail/mailer.js";
import { ApiRateLimits } from "./middleware/rateLimit.js";
import { mountSpa } from "./spa.js";
import { connectTokenExchange } from "./services/auth/exchangeToken.js";
import { createAccessCache } from "./services/access/projectAccess.js";
import { createObjectStorage } from "./storage/index.js";

/**
 * What the add-on and the worker processes run on: a migrated database and a started job queue.
 * `works`: this process will work on jobs, so it also sends the scheduled ones.
 */
export async function createDeps(config: Config, options: { works: boolean }): Promise<AppDeps> {
  const logger = createLogger(config.logLevel);
  if (await startErrorReporting(config)) logger.info("reporting errors to Sentry");
  warnAboutStateOfItsOwn(config, logger);
  const db = createDb(dbOptionsFromConfig(config));
  await migrateToLatest(db);
  const jobs = new JobQueue(db, logger, {
    definitions: jobDefinitions,
    sendsScheduledJobs: options.works,
    // Workers of other processes take over a dead one's try only on a shared PostgreSQL.
    ...(config.databaseUrl ? { heartbeatSeconds: config.jobHeartbeatSeconds } : {}),
  });
  await jobs.start();
  return {
    config,
    db,
    logger,
    jobs,
    mailer: createMailer(config),
    hostClient: createHostClient(db, logger),
    storage: createObjectStorage(config),
    access: createAccessCache(),
    rateLimits: new ApiRateLimits(db, logger, config.rateLimits),
  };
}

/**
 * Production runs replicas (and workers) that must share one database and one file store; an
 * embedded PGlite or the local disk belongs to this process alone, which is fine only for a single one.
 */
export function warnAboutStateOfItsOwn(config: Config, logger: { warn(message: string): void }): void {
  if (config.env !== "production") return;
  if (!config.databaseUrl) {
    logger.warn("DATABASE_URL is unset: this process keeps its own embedded database (PGlite in DATA_DIR); replicas would not share data");
  }
  if (config.storage.driver === "local") {
    logger.warn("STORAGE_DRIVER=local: this process keeps files on its own disk (DATA_DIR); other replicas and workers cannot read them");
  }
}

/** Starts the add-on: migrations, job workers (unless JOB_WORKERS=false), HTTP, and a graceful stop. */
export async function startAddon(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ server: Server; deps: AppDeps; stop: () => Promise<void> }> {
  const config = loadConfig(env);
  const deps = await createDeps(config, { works: config.jobWorkers });
  const { db, jobs, logger, rateLimits } = deps;
  const app = await createApp(deps, (express) => mountSpa(express, config, { signIn: connectTokenExchange(deps) }));
  if (config.jobWorkers) await jobs.work(deps);
  const { server, stop: stopHttp } = await listen(app, config.port, config.host);
  logger.info(
    { port: config.port, host: config.host ?? "all interfaces", baseUrl: config.baseUrl, jobWorkers: config.jobWorkers },
    "rmCloud add-on listening",
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Side by side: each waits for its work in flight, and one after the other they would outlast
      // the orchestrator's grace. Requests still in flight may send jobs meanwhile: sending does not need the queue started.
      await Promise.all([stopHttp().then(() => rateLimits.stop()), jobs.stop()]);
      await db.destroy();
      await flushErrorReports();
      logger.info("rmCloud add-on stopped");
    })();
    return stopping;
  };
  return { server, deps, stop };
}

if (isEntryPoint(import.meta.url)) {
  defaultToProductionWhenCompiled(import.meta.url);
  const { stop } = await startAddon();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void stop().then(() => process.exit(0));
    });
  }
}
