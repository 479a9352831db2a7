import path from "node:path";
import { z } from "zod";
import { CONFIG_DEFAULTS, localUrl } from "../common/configDefaults.js";
import { developmentSecret } from "./developmentSecret.js";

/**
 * Every setting comes from the environment (documented in README.md). Defaults (common/configDefaults.ts)
 * are the embedded first-run setup: PGlite in .data/, local-disk storage, emulator keys.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().default(CONFIG_DEFAULTS.PORT),
  HOST: z.string().min(1).optional(),
  BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  // Two at least: migrating at start holds the migration lock on one connection while Knex migrates on another.
  DETAIL_READ_BATCHING: z.enum(["true", "false"]).default("true"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2, "DATABASE_POOL_SIZE must be at least 2").default(10),
  DATA_DIR: z.string().default(CONFIG_DEFAULTS.DATA_DIR),
  APP_TOKEN_SECRET: z.string().min(16).optional(),
  CONNECT_KEYS_CDN_URL: z.string().url().optional(),
  FRAME_ANCESTORS: z.string().optional(),
  FORGE_JIRA_APP_ID: z.string().optional(),
  FORGE_CONFLUENCE_APP_ID: z.string().optional(),
  FORGE_CUSTOM_UI_ORIGINS: z.string().optional(),
  FORGE_JWKS_URL: z.string().url().default("https://forge.cdn.prod.atlassian-dev.net/.well-known/jwks.json"),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().default(CONFIG_DEFAULTS.S3_BUCKET),
  S3_ENDPOINT: z.string().optional(),
  S3_PUBLIC_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().default(CONFIG_DEFAULTS.S3_REGION),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("true"),
  SMTP_URL: z.string().optional(),
  OUTBOX_DIR: z.string().optional(),
  MAIL_FROM: z.string().default(CONFIG_DEFAULTS.MAIL_FROM),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default(CONFIG_DEFAULTS.LOG_LEVEL),
  RATE_LIMIT_SITE_PER_MINUTE: z.coerce.number().int().min(1).default(240_000),
  RATE_LIMIT_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(120_000),
  SEED_DEMO: z.enum(["true", "false"]).default("true"),
  JOB_WORKERS: z.enum(["true", "false"]).default("true"),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(2, "JOB_HEARTBEAT_SECONDS must be at least 2").default(20),
  RETENTION_DAYS: z.coerce.number().int().min(1, "RETENTION_DAYS must be at least 1").default(30),
  SENTRY_DSN: z.string().url().optional(),
  SENTRY_CLIENT_DSN: z.string().url().optional(),
  CLIENT_DIST_DIR: z.string().min(1).optional(),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  /** The interface HTTP listens on: every one in production (undefined), only this machine's loopback otherwise. */
  host: string | undefined;
  baseUrl: string;
  databaseUrl: string | undefined;
  /** Connections each process may hold on PostgreSQL: replicas and workers times this must fit its max_connections. */
  databasePoolSize: number;
  /** A site's requirement detail reads arriving together share one statement (db/requirements/detail.ts). */
  detailReadBatching: boolean;
  dataDir: string;
  /**
   * A built client (`vite build`'s output) to serve instead of Vite's development server outside
   * production: the browser specs load the app as users get it, without compiling it on first use.
   */
  clientDistDir: string | undefined;
  appTokenSecret: string;
  connectKeysCdnUrl: string | undefined;
  /** Origins besides Atlassian's that may frame the pages (CSP sources), for a host an operator runs. */
  extraFrameAncestors: string[];
  /** Connect on Forge: the Forge apps whose invocations we accept (their `app.id`s) and Forge's signing keys. */
  forge: {
    appIds: string[];
    jwksUrl: string;
    /** The origins rmCloud's own Forge Custom UI pages run on: the only ones /api answers CORS for. */
    customUiOrigins: string[];
  };
  storage: {
    driver: "local" | "s3";
    bucket: string;
    endpoint: string | undefined;
    /** Where browsers reach the store, when not at `endpoint` (a compose network name): presigned URLs name it. */
    publicEndpoint: string | undefined;
    region: string;
    forcePathStyle: boolean;
  };
  smtpUrl: string | undefined;
  /** Where mail goes without SMTP_URL (.eml files the emulator lists); default `${dataDir}/outbox`. */
  outboxDir: string;
  mailFrom: string;
  logLevel: string;
  seedDemo: boolean;
  /** Requests a minute per site and per person of it, counted across replicas (server/middleware/rateLimit.ts). */
  rateLimits: { sitePerMinute: number; accountPerMinute: number };
  /** Whether the web process also works on jobs; false when `npm run worker` processes do it alone. */
  jobWorkers: boolean;
  /**
   * How long a running try may go unmarked by its worker (every half of it) before it counts as dead
   * (its worker was killed) and another worker tries it again, on PostgreSQL (JobQueueOptions.heartbeatSeconds).
   */
  jobHeartbeatSeconds: number;
  /** Sent notification keys, ended jobs and uploaded import files are deleted this many days after (the daily retention job). */
  retentionDays: number;
  /** Server errors go to Sentry only when set. */
  sentryDsn: string | undefined;
  /** Handed to the SPA in its page; browser errors go to Sentry only when set. */
  sentryClientDsn: string | undefined;
};

/** Development and tests listen on this machine only unless HOST opts in to more (HOST=0.0.0.0). */
const LOOPBACK = "127.0.0.1";

const listOf = (value: string | undefined) => (value ?? "").split(/[\s,]+/).filter(Boolean);

/** The placeholder docker-compose.yml once shipped: public, so a token signed with it can be forged by anyone. */
const PUBLISHED_EXAMPLE_SECRET = "change-me-to-a-long-random-secret";
const MIN_PRODUCTION_SECRET_LENGTH = 32;

function assertProductionSecret(secret: string | undefined): void {
  if (!secret) throw new Error("APP_TOKEN_SECRET must be set in production");
  if (secret === PUBLISHED_EXAMPLE_SECRET || secret.length < MIN_PRODUCTION_SECRET_LENGTH) {
    throw new Error(
      `APP_TOKEN_SECRET must be a random string of at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production, not the example value (e.g. openssl rand -hex 32)`,
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.parse(env);
  const port = parsed.PORT;
  if (parsed.NODE_ENV === "production") assertProductionSecret(parsed.APP_TOKEN_SECRET);
  // atlassian-connect-express skips its install, JWT and webhook checks (or its token checks) when
  // AC_OPTS contains these words anywhere: an unsigned `installed` call could then take over a site.
  // The emulator signs for real, so nothing needs them.
  const unchecked = env.AC_OPTS?.match(/no-auth|no-token-verfication/)?.[0];
  if (unchecked) throw new Error(`AC_OPTS=${unchecked} turns off Connect's signature checks; rmCloud does not start with it`);
  return {
    env: parsed.NODE_ENV,
    port,
    host: parsed.HOST ?? (parsed.NODE_ENV === "production" ? undefined : LOOPBACK),
    baseUrl: (parsed.BASE_URL ?? localUrl(port)).replace(/\/$/, ""),
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    detailReadBatching: parsed.DETAIL_READ_BATCHING === "true",
    dataDir: path.resolve(parsed.DATA_DIR),
    clientDistDir: parsed.CLIENT_DIST_DIR ? path.resolve(parsed.CLIENT_DIST_DIR) : undefined,
    appTokenSecret: parsed.APP_TOKEN_SECRET ?? developmentSecret(path.resolve(parsed.DATA_DIR)),
    connectKeysCdnUrl: parsed.CONNECT_KEYS_CDN_URL,
    extraFrameAncestors: listOf(parsed.FRAME_ANCESTORS),
    forge: {
      appIds: [parsed.FORGE_JIRA_APP_ID, parsed.FORGE_CONFLUENCE_APP_ID].filter((id): id is string => !!id),
      jwksUrl: parsed.FORGE_JWKS_URL,
      customUiOrigins: listOf(parsed.FORGE_CUSTOM_UI_ORIGINS),
    },
    storage: {
      driver: parsed.STORAGE_DRIVER,
      bucket: parsed.S3_BUCKET,
      endpoint: parsed.S3_ENDPOINT,
      publicEndpoint: parsed.S3_PUBLIC_ENDPOINT || undefined,
      region: parsed.S3_REGION,
      forcePathStyle: parsed.S3_FORCE_PATH_STYLE === "true",
    },
    smtpUrl: parsed.SMTP_URL,
    outboxDir: path.resolve(parsed.OUTBOX_DIR ?? path.join(parsed.DATA_DIR, "outbox")),
    mailFrom: parsed.MAIL_FROM,
    logLevel: parsed.LOG_LEVEL,
    seedDemo: parsed.SEED_DEMO === "true",
    rateLimits: { sitePerMinute: parsed.RATE_LIMIT_SITE_PER_MINUTE, accountPerMinute: parsed.RATE_LIMIT_ACCOUNT_PER_MINUTE },
    jobWorkers: parsed.JOB_WORKERS === "true",
    jobHeartbeatSeconds: parsed.JOB_HEARTBEAT_SECONDS,
    retentionDays: parsed.RETENTION_DAYS,
    sentryDsn: parsed.SENTRY_DSN || undefined,
    sentryClientDsn: parsed.SENTRY_CLIENT_DSN || undefined,
  };
}
