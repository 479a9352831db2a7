import { loadConfig } from "./config.js";
import type { AppDeps } from "./deps.js";
import { flushErrorReports } from "./errorReporting.js";
import { defaultToProductionWhenCompiled, isEntryPoint } from "./isEntryPoint.js";
import { createDeps } from "./main.js";

/**
 * A process that only works on jobs (`npm run worker`): run as many as the queue needs next to
 * web processes started with JOB_WORKERS=false. They share the queue through PostgreSQL, so a worker
 * needs DATABASE_URL (an embedded PGlite belongs to the one process that opened it).
 */
export async function startWorker(env: NodeJS.ProcessEnv = process.env): Promise<{ deps: AppDeps; stop: () => Promise<void> }> {
  const config = loadConfig(env);
  if (!config.databaseUrl) throw new Error("npm run worker needs DATABASE_URL: workers share the queue through PostgreSQL");
  const deps = await createDeps(config, { works: true });
  await deps.jobs.work(deps);
  deps.logger.info("rmCloud job worker started");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await deps.jobs.stop();
      await deps.db.destroy();
      // A failing job's last reports are still queued in the Sentry client: sent before the process exits.
      await flushErrorReports();
      deps.logger.info("rmCloud job worker stopped");
    })();
    return stopping;
  };
  return { deps, stop };
}

if (isEntryPoint(import.meta.url)) {
  defaultToProductionWhenCompiled(import.meta.url);
  const { stop } = await startWorker();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void stop().then(() => process.exit(0));
    });
  }
}
