import type { Server } from "node:http";
import { createApp } from "./app.js";
import { loadConfig } from "./config.js";
import { createDb, dbOptionsFromConfig, migrateToLatest } from "./db/knex.js";
import type { AppDeps } from "./deps.js";
import { flushErrorReports, startErrorReporting } from "./errorReporting.js";
import { createLogger } from "./logger.js";
import { DomainEventBus } from "./services/events.js";
import { mountSpa } from "./spa.js";
import { createObjectStorage } from "./storage/index.js";
import { createHostClient } from "./connect/hostClientImpl.js";

/** Starts the add-on: migrations, HTTP, and a graceful stop on SIGTERM/SIGINT. */
export async function startAddon(env: NodeJS.ProcessEnv = process.env): Promise<{ server: Server; deps: AppDeps; stop: () => Promise<void> }> {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  if (await startErrorReporting(config)) logger.info("reporting errors to Sentry");
  const db = createDb(dbOptionsFromConfig(config));
  await migrateToLatest(db);
  const deps: AppDeps = {
    config,
    db,
    logger,
    events: new DomainEventBus(),
    hostClient: createHostClient(db, logger),
    storage: createObjectStorage(config),
  };
  const app = await createApp(deps, (express) => mountSpa(express, config));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.port, () => resolve(listening));
  });
  logger.info({ port: config.port, baseUrl: config.baseUrl }, "rmCloud add-on listening");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      await flushErrorReports();
      logger.info("rmCloud add-on stopped");
    })();
    return stopping;
  };
  return { server, deps, stop };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { stop } = await startAddon();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void stop().then(() => process.exit(0));
    });
  }
}
