import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { HostClient } from "./connect/hostClient.js";
import type { Db } from "./db/knex.js";
import type { JobQueue } from "./jobs/queue.js";
import type { Mailer } from "./mail/mailer.js";
import type { ApiRateLimits } from "./middleware/rateLimit.js";
import type { AccessCache } from "./services/access/projectAccess.js";
import type { ObjectStorage } from "./storage/objectStorage.js";

/** What the app is built from; tests build their own (a fresh database, a quiet logger). */
export type AppDeps = {
  config: Config;
  db: Db;
  logger: Logger;
  jobs: JobQueue;
  mailer: Mailer;
  hostClient: HostClient;
  storage: ObjectStorage;
  /** Jira's answers on who may browse and edit which project, kept for a minute (services/access). */
  access: AccessCache;
  /** The API's requests counted against the rate limits, shared with the other replicas through the database. */
  rateLimits: ApiRateLimits;
};
