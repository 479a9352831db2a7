import pino from "pino";
import { restrictedUser } from "../emulator/seed/users.js";
import type { Config } from "../server/config.js";
import type { HostCall, HostClient } from "../server/connect/hostClient.js";
import type { Db } from "../server/db/knex.js";
import { PERMISSION_SCHEMES_PATH, PERMISSIONS_CHECK_PATH } from "../server/services/jira/jiraPermissions.js";
import { bearer, createTestApp, type TestContext, type TestTenant } from "../test/helpers/app.js";
import type { TestDatabase } from "../test/helpers/db.js";
import { type RealisticTenant, seedRealisticTenant } from "../test/helpers/realisticTenant.js";
import { type EmulatedJiraSite, JIRA_LATENCY_NOTE, PUMP_ID, withEmulatedJiraSite } from "./emulatedJira.js";
import { httpLoad, type LoadOptions, type LoadResult } from "./load.js";
import { median, round } from "./measure.js";
import type { BenchContext, BenchResult } from "./types.js";

/**
 * What the API load cases share: our app in production mode, read under load by a member of the
 * site with the access check on, in alternating rounds against bare endpoints.
 */

/**
 * Who the requests come from: the emulated site's Noor Haddad, no Jira administrator, who browses
 * PUMP (project 10000, the first project of every realistic tenant) and not ROVER (10001); the
 * other projects of a realistic tenant are unknown to the emulated Jira, so hidden from her too.
 */
export const MEMBER_ACCOUNT_ID = restrictedUser.accountId;
export const MEMBER_PROJECT_ID = PUMP_ID;
export const MEMBER_NOTE = `as a member who browses project ${MEMBER_PROJECT_ID}, access checked by the emulated Jira; ${JIRA_LATENCY_NOTE}`;

export const CONNECTIONS = 50;
/** DETAIL_READ_SECONDS and DETAIL_READ_ROUNDS set every API load case's length. */
const DURATION_SECONDS = Number(process.env.DETAIL_READ_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Rounds of every endpoint, alternating; each figure is the median of its rounds. */
export const ROUNDS = Number(process.env.DETAIL_READ_ROUNDS ?? 3);

/** Jira as the sites' access checks reach it, and when each account was asked about. */
export type MemberJira = { hostClient: HostClient; asked: Map<string, number[]> };

/**
 * Every site's calls go to the emulated site's installation (one emulated Jira stands for each
 * site's own), answered JIRA_LATENCY_MS late; each permission question is timed per site and account.
 */
function memberJira(site: EmulatedJiraSite): MemberJira {
  const asked = new Map<string, number[]>();
  const hostClient: HostClient = {
    call: <T>(tenantId: string, product: "jira" | "confluence", call: HostCall) => {
      if (call.path === PERMISSIONS_CHECK_PATH || call.path === PERMISSION_SCHEMES_PATH) {
        const accountId = (call.body as { accountId?: string } | undefined)?.accountId ?? "(site)";
        const key = `${tenantId} ${accountId}`;
        asked.set(key, [...(asked.get(key) ?? []), performance.now()]);
      }
      return site.hostClient.call<T>(site.tenantId, product, call);
    },
  };
  return { hostClient, asked };
}

/** One site of 100,000 requirements, and 20 sites of 5,000 sharing the load as production spreads it over sites. */
const BIG_SITE = 100_000;
const SITES = 20;
const SITE_REQUIREMENTS = 5_000;

/** A spread of the load: its name in notes, its rows' suffix, its sites. */
export type Spread = { name: string; suffix: string; sites: RealisticTenant[] };

export type MemberRun = { db: Db; ctx: TestContext; spreads: Spread[] };

/**
 * A case's run on a database of its own, the sites seeded (one of 100,000 requirements, twenty of
 * 5,000), our app in production mode with `config`, its access checks asking the emulated Jira; the
 * case's rows, then the row of the Jira calls made meanwhile.
 */
export function withMemberLoad(
  context: BenchContext,
  name: string,
  config: Config,
  work: (run: MemberRun) => Promise<BenchResult[]>,
): Promise<BenchResult[]> {
  return withEmulatedJiraSite(context, 0, async (site) => {
    const previousEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    const big = await seedRealisticTenant(site.db, BIG_SITE);
    const sites: RealisticTenant[] = [];
    for (let n = 0; n < SITES; n++) sites.push(await seedRealisticTenant(site.db, SITE_REQUIREMENTS));
    const jira = memberJira(site);
    const ctx = await productionApp(site.db, site.kind, config, jira.hostClient);
    const started = performance.now();
    try {
      const spreads = [
        { name: "1 site", suffix: "", sites: [big] },
        { name: `${SITES} sites`, suffix: `-${SITES}-sites`, sites },
      ];
      const results = await work({ db: site.db, ctx, spreads });
      return [...results, jiraCallsRow(name, context.db, jira, (performance.now() - started) / 1000)];
    } finally {
      await ctx.destroy();
      process.env.NODE_ENV = previousEnv;
    }
  });
}

/** The most Jira permission calls made for one account within any 60 s of the run. */
export function mostCallsInAMinute(asked: Map<string, number[]>): number {
  let most = 0;
  for (const times of asked.values()) {
    for (const [index, start] of times.entries()) {
      most = Math.max(most, times.slice(index).filter((time) => time < start + 60_000).length);
    }
  }
  return most;
}

/** A row of the Jira permission calls of a case's run: the most for one account in a minute, against the goal of one. */
function jiraCallsRow(name: string, db: BenchResult["db"], jira: MemberJira, runSeconds: number): BenchResult {
  const calls = [...jira.asked.values()].reduce((sum, times) => sum + times.length, 0);
  const most = mostCallsInAMinute(jira.asked);
  return {
    case: `${name}-jira-calls-per-account-minute`,
    db,
    ours: most,
    baseline: 1,
    unit: "calls",
    ratio: round(most),
    note: `${calls} permission calls for ${jira.asked.size} accounts over ${Math.round(runSeconds)} s; ${MEMBER_NOTE}`,
  };
}

/**
 * Our app as production runs it: NODE_ENV=production (Express reads it when the app is built), the
 * request logger at info into /dev/null (a fast read logs nothing at info; a slow one is written),
 * responses not checked against the schemas, Jira's permissions asked of `hostClient`.
 */
async function productionApp(db: Db, kind: TestDatabase["kind"], config: Config, hostClient: HostClient): Promise<TestContext> {
  const logger = pino({ level: "info" }, pino.destination("/dev/null"));
  // The emulated Jira's site owns the database: the app leaves it to that site.
  const database: TestDatabase = { db, kind, destroy: async () => {} };
  return createTestApp({ config, logger, hostClient }, { database, checkResponses: false });
}

/** Requests the load generator abandoned at the end still wait for a connection: let them finish. */
async function settle(db: Db): Promise<void> {
  const pool = (db.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
  for (let waited = 0; pool && waited < 30_000 && pool.numUsed() + pool.numPendingAcquires() > 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `before` prepares the run (our app's batching switched on or off). */
export type Load = { name: string; url: string; requests: LoadOptions["requests"]; before?: () => void };

/** The loads of one spread (one site, or twenty), measured in alternating rounds. */
export async function measureRounds(db: Db, loads: Load[]): Promise<Map<string, LoadResult[]>> {
  const results = new Map<string, LoadResult[]>(loads.map((load) => [load.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const load of loads) {
      load.before?.();
      await httpLoad({ url: load.url, requests: load.requests, connections: CONNECTIONS, durationSeconds: WARMUP_SECONDS });
      const result = await httpLoad({
        url: load.url,
        requests: load.requests,
        connections: CONNECTIONS,
        durationSeconds: DURATION_SECONDS,
      });
      results.get(load.name)?.push(result);
      await settle(db);
    }
  }
  return results;
}

/**
 * One spread's requests (a site, or many), interleaved: consecutive requests go to different
 * sites, as many sites' users would send them; with `signedIn`, each with the member's token for its site.
 */
export async function spreadRequests<T>(
  ctx: TestContext,
  spread: readonly TestTenant[],
  items: readonly T[],
  path: (tenant: TestTenant, item: T) => string,
  signedIn: boolean,
): Promise<LoadOptions["requests"]> {
  const tokens = new Map(
    await Promise.all(
      spread.map(async (tenant) => [tenant.tenantId, signedIn ? await bearer(ctx, tenant, MEMBER_ACCOUNT_ID) : ""] as const),
    ),
  );
  return items.flatMap((item) =>
    spread.map((tenant) => ({
      path: path(tenant, item),
      headers: signedIn ? { authorization: tokens.get(tenant.tenantId) ?? "" } : undefined,
    })),
  );
}

/** The median rate and p99 of load `variant` against those of load `baseline`, as the rows `name` and `name-p99`. */
export function rateRows(
  name: string,
  db: BenchResult["db"],
  loads: Map<string, LoadResult[]>,
  variant: string,
  baseline: string,
  note: string,
): BenchResult[] {
  const rate = (load: string) => median((loads.get(load) ?? []).map((result) => result.requestsPerSecond));
  const p99 = (load: string) => median((loads.get(load) ?? []).map((result) => result.p99Ms));
  return [
    {
      case: name,
      db,
      ours: round(rate(variant), 1),
      baseline: round(rate(baseline), 1),
      unit: "req/s",
      ratio: round(rate(variant) / rate(baseline)),
      note,
    },
    { case: `${name}-p99`, db, ours: p99(variant), baseline: p99(baseline), unit: "ms", ratio: round(p99(variant) / p99(baseline)), note },
  ];
}
