import request from "supertest";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Express } from "express";
import pino from "pino";
import { createApp } from "../../server/app.js";
import { loadConfig } from "../../server/config.js";
import { type Product, signAppToken } from "../../server/connect/appToken.js";
import type { HostCall } from "../../server/connect/hostClient.js";
import type { Db } from "../../server/db/knex.js";
import type { AppDeps } from "../../server/deps.js";
import type { AnyJobDefinition, RetryPolicy } from "../../server/jobs/defineJob.js";
import { jobDefinitions } from "../../server/jobs/index.js";
import { JobQueue } from "../../server/jobs/queue.js";
import { listRequirementTypes } from "../../server/db/requirementTypeStore.js";
import { createAccessCache } from "../../server/services/access/projectAccess.js";
import { appActor } from "../../server/services/context.js";
import { seedDefaultRequirementTypes } from "../../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { createMailer } from "../../server/mail/mailer.js";
import { ApiRateLimits } from "../../server/middleware/rateLimit.js";
import { unreachableAs503 } from "../../server/storage/index.js";
import { LocalDiskStorage } from "../../server/storage/localDisk.js";
import { createTestDatabase, type TestDatabase } from "./db.js";
import { isLicenseCheck, isPermissionCheck, licenseAnswer, permissionCheckAnswer } from "./fakeJira.js";
import { checkResponsesAgainstSchemas } from "./responseContract.js";

export type TestTenant = { tenantId: string; clientKey: string; baseUrl: string; sharedSecret: string };

export type TestContext = {
  app: Express;
  deps: AppDeps;
  database: TestDatabase;
  destroy: () => Promise<void>;
};

export const testConfig = () => loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", APP_TOKEN_SECRET: "test-app-token-secret-0123456789" });

export type TestJobOptions = {
  /** The add-on's own jobs unless a test brings its own. */
  definitions?: readonly AnyJobDefinition[];
  /** Start workers in this process (the queue is always started, so services can send). */
  work?: boolean;
  /** Every job's retries: one second apart, without backoff, unless a test says otherwise. */
  retry?: Partial<RetryPolicy>;
};

/**
 * The add-on on a fresh database (or on `database`, which it then owns and destroys), as Supertest
 * drives it; benchmarks listen on it. Every documented route's answer is held to its published
 * schema (`checkResponses: false` for benchmarks, which time the app alone).
 */
export async function createTestApp(
  overrides: Partial<AppDeps> = {},
  options: { database?: TestDatabase; jobs?: TestJobOptions; checkResponses?: boolean } = {},
): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const config = overrides.config ?? testConfig();
  const storageRoot = await mkdtemp(path.join(tmpdir(), "rmcloud-storage-"));
  const logger = pino({ level: "silent" });
  const jobs = new JobQueue(database.db, logger, {
    definitions: options.jobs?.definitions ?? jobDefinitions,
    pollingIntervalSeconds: 0.5,
    retry: { retryDelaySeconds: 1, retryBackoff: false, ...options.jobs?.retry },
  });
  await jobs.start();
  const deps: AppDeps = {
    config,
    db: database.db,
    logger,
    jobs,
    mailer: createMailer(config),
    hostClient: {
      // Only Jira's permission questions (everyone administers, browses and edits everything), as configuration changes
      // and project access ask them, and the license check (active), as sign-ins with a context token and refreshes ask it, are answered.
      call: async <T>(_tenantId: string, _product: string, call: HostCall): Promise<T> => {
        if (isPermissionCheck(call)) return permissionCheckAnswer(call) as T;
        if (isLicenseCheck(call)) return licenseAnswer(call) as T;
        throw new Error("This test has no host product; pass a hostClient to createTestApp");
      },
    },
    storage: unreachableAs503(new LocalDiskStorage({ root: storageRoot, baseUrl: config.baseUrl, secret: config.appTokenSecret })),
    access: createAccessCache(),
    rateLimits: new ApiRateLimits(database.db, logger, config.rateLimits),
    ...overrides,
  };
  const built = await createApp(deps);
  const app = options.checkResponses === false ? built : checkResponsesAgainstSchemas(built);
  if (options.jobs?.work) await deps.jobs.work(deps);
  const destroy = async () => {
    await jobs.stop({ timeoutMs: 1000 });
    await deps.rateLimits.stop();
    await database.destroy();
    await rm(storageRoot, { recursive: true, force: true });
  };
  return { app, deps, database, destroy };
}

/** An installed site, written straight to the database (the lifecycle itself has its own tests). */
export async function createTenant(db: Db, name = `site-${randomUUID().slice(0, 8)}`): Promise<TestTenant> {
  const baseUrl = `https://${name}.atlassian.net`;
  const clientKey = `jira:${randomUUID()}`;
  const sharedSecret = randomUUID();
  const [tenant] = await db("tenants").insert({ site_url: baseUrl }).returning("tenant_id");
  await db("installations").insert({
    tenant_id: tenant.tenant_id,
    client_key: clientKey,
    product: "jira",
    base_url: baseUrl,
    shared_secret: sharedSecret,
    client_info: { key: "rmcloud", clientKey, baseUrl, productType: "jira" },
  });
  return { tenantId: tenant.tenant_id, clientKey, baseUrl, sharedSecret };
}

/** A requirement (of a new type of its own) written straight to the database, without revisions; answers its id. */
export async function insertRequirementRow(db: Db, tenantId: string, name: string, projectId = 10000): Promise<number> {
  const [type] = await db("requirement_types")
    .insert({ tenant_id: tenantId, name: "System", prefix: `S${randomUUID().slice(0, 8)}`, level: 3 })
    .returning("requirement_type_id");
  const [requirement] = await db("requirements")
    .insert({
      tenant_id: tenantId,
      project_id: projectId,
      requirement_type_id: type.requirement_type_id,
      name,
      created_by: "557058:test-user",
    })
    .returning("requirement_id");
  return Number(requirement.requirement_id);
}

/** `Authorization` header value of a signed-in user of that tenant. */
export async function bearer(
  ctx: TestContext,
  tenant: TestTenant,
  accountId = "557058:test-user",
  product: Product = "jira",
): Promise<string> {
  const token = await signAppToken(ctx.deps.config.appTokenSecret, {
    tenantId: tenant.tenantId,
    accountId,
    product,
    clientKey: tenant.clientKey,
  });
  return `Bearer ${token}`;
}

export type SignedInApp = { ctx: TestContext; tenant: TestTenant; auth: string };

/** The add-on on a fresh database with one installed site; `auth` is its user's `Authorization` header. */
export async function createSignedInApp(accountId?: string): Promise<SignedInApp> {
  const ctx = await createTestApp();
  const tenant = await createTenant(ctx.deps.db);
  return { ctx, tenant, auth: await bearer(ctx, tenant, accountId) };
}

/** Gives the site the default requirement types (BR, SR, SYS, SW); answers their ids by prefix. */
export async function seedRequirementTypes(db: Db, tenantId: string): Promise<Record<string, number>> {
  await seedDefaultRequirementTypes({ db }, appActor(tenantId));
  const types = await listRequirementTypes(db, tenantId);
  return Object.fromEntries(types.map((type) => [type.prefix, type.requirement_type_id]));
}

/** A requirement created as the form creates it, at the top of `project`; answers its id. */
export async function postRequirement(
  ctx: TestContext,
  auth: string,
  name: string,
  requirementTypeId: number | undefined,
  project = 10000,
): Promise<number> {
  const created = await request(ctx.app)
    .post("/api/requirement")
    .set("Authorization", auth)
    .send({ name, requirement_type_id: requirementTypeId, project, parent_folder_id: null });
  if (created.status !== 201) throw new Error(`POST /api/requirement answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.requirement_id;
}
