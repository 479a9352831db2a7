import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import type { Config } from "../../server/config.js";
import type { Db } from "../../server/db/knex.js";
import { bearer, createTestApp, type TestContext, testConfig } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { type RealisticTenant, seedRealisticTenant } from "../../test/helpers/realisticTenant.js";
import { httpLoad, type LoadOptions, type LoadResult } from "../load.js";
import { median, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

/** One site of 100,000 requirements, and 20 sites of 5,000 sharing the load as production spreads it over sites. */
const BIG_SITE = 100_000;
const SITES = 20;
const SITE_REQUIREMENTS = 5_000;
const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.DETAIL_READ_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Rounds of every endpoint, alternating; each figure is the median of its rounds. */
const ROUNDS = Number(process.env.DETAIL_READ_ROUNDS ?? 3);
/** Level-1 requirements spread over every project of a site, each with a link, two issues and a field value. */
const detailIds = (requirements: number) => Array.from({ length: requirements / 100 }, (_, i) => 5 + i * 100);

/**
 * The same rows as GET /api/requirement/{id}, by the plain SQL a developer would write first, sent
 * as a named (prepared) statement as ours is: PostgreSQL parses it once per connection.
 */
const BARE_DETAIL_SQL = `
SELECT r.requirement_id, r.project_id, r.parent_folder_id, r.requirement_type_id, t.name AS type_name, t.prefix, t.level,
       r.display_id, r.name, r.description, r.status_id, r.assigned_to, r.created_by, r.created_at, r.revision,
  (SELECT json_agg(c.atlassian_component_id) FROM requirement_components c WHERE c.tenant_id = r.tenant_id AND c.requirement_id = r.requirement_id) AS components,
  (SELECT json_agg(i.atlassian_issue_id) FROM requirement_issue_links i WHERE i.tenant_id = r.tenant_id AND i.requirement_id = r.requirement_id) AS issues,
  (SELECT json_agg(p.atlassian_content_id) FROM requirement_content_links p WHERE p.tenant_id = r.tenant_id AND p.requirement_id = r.requirement_id) AS contents,
  (SELECT json_object_agg(v.attribute_id, v.value) FROM requirement_attribute_values v WHERE v.tenant_id = r.tenant_id AND v.requirement_id = r.requirement_id) AS attributes,
  (SELECT json_agg(a.uuid_file_name) FROM attachments a WHERE a.tenant_id = r.tenant_id AND a.requirement_id = r.requirement_id) AS attachments,
  (SELECT json_agg(json_build_object('requirement_id', o.requirement_id, 'name', o.name, 'prefix', ot.prefix, 'level', ot.level))
     FROM requirement_links l
     JOIN requirements o ON o.tenant_id = l.tenant_id
      AND o.requirement_id = CASE WHEN l.requirement_id = r.requirement_id THEN l.linked_requirement_id ELSE l.requirement_id END
     JOIN requirement_types ot ON ot.tenant_id = o.tenant_id AND ot.requirement_type_id = o.requirement_type_id
    WHERE l.tenant_id = r.tenant_id AND (l.requirement_id = r.requirement_id OR l.linked_requirement_id = r.requirement_id)
      AND o.deleted_at IS NULL) AS linked
FROM requirements r JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
WHERE r.tenant_id = ? AND r.requirement_id = ? AND r.deleted_at IS NULL`;

/** A bare Express endpoint: no token, no validation, no logging; the detail's reads in plain SQL, prepared. */
function bareApp(db: Db): express.Express {
  const app = express();
  app.get("/site/:tenantId/requirement/:id", async (req, res) => {
    try {
      const result = await db.raw(BARE_DETAIL_SQL, [req.params.tenantId, Number(req.params.id)]).options({ name: "bare_detail" });
      const row = result.rows[0];
      if (row) res.json(row);
      else res.status(404).end();
    } catch {
      res.status(500).end();
    }
  });
  return app;
}

/** The floor of the harness: an Express endpoint that answers a constant, reading nothing. */
function constantApp(): express.Express {
  const app = express();
  app.get("/site/:tenantId/requirement/:id", (req, res) => {
    res.json({ requirement_id: Number(req.params.id) });
  });
  return app;
}

async function listen(app: express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Requests the load generator abandoned at the end still wait for a connection: let them finish. */
async function settle(db: Db): Promise<void> {
  const pool = (db.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
  for (let waited = 0; pool && waited < 30_000 && pool.numUsed() + pool.numPendingAcquires() > 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Our app as production runs it: NODE_ENV=production (Express reads it when the app is built), the
 * request logger at info into /dev/null (a fast read logs nothing at info; a slow one is written),
 * responses not checked against the schemas, and detail reads batched per site or not.
 */
async function productionApp(database: Awaited<ReturnType<typeof createTestDatabase>>, config: Config): Promise<TestContext> {
  const logger = pino({ level: "info" }, pino.destination("/dev/null"));
  return createTestApp({ config, logger }, { database, checkResponses: false });
}

/** `before` prepares the run (our app's batching switched on or off). */
type Load = { name: string; url: string; requests: LoadOptions["requests"]; before?: () => void };

/** The loads of one spread (one site, or twenty), measured in alternating rounds. */
async function measureRounds(db: Db, loads: Load[]): Promise<Map<string, LoadResult[]>> {
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
 * Requirement detail under load, as users open requirements: 50 connections for 10 s on our
 * endpoint (token, validation, logging, service; in production mode), batched per site and
 * unbatched, against a bare Express + pg endpoint sending the same reads as a prepared statement,
 * over one site of 100,000 requirements and over 20 sites of 5,000 at once (production spreads its
 * load over sites, so per-site batching helps less). ROUNDS alternating rounds of every endpoint;
 * each figure is the median of its rounds. Ratio = our req/s over the bare endpoint's (goal: at
 * least 0.8 for both spreads); p99 next to the bare endpoint's and to the floor of an endpoint that
 * reads nothing under the same load.
 */
const detailRead: BenchCase = {
  name: "detail-read",
  async run(context) {
    const previousEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    const database = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const big = await seedRealisticTenant(database.db, BIG_SITE);
    const sites: RealisticTenant[] = [];
    for (let site = 0; site < SITES; site++) sites.push(await seedRealisticTenant(database.db, SITE_REQUIREMENTS));
    // Read by the service on every request: the runs switch batching on and off between them.
    const config: Config = { ...testConfig(), detailReadBatching: true };
    const ctx = await productionApp(database, config);
    const servers = {
      ours: await listen(ctx.app),
      bare: await listen(bareApp(database.db)),
      constant: await listen(constantApp()),
    };
    try {
      const requestsOf = async (
        spread: RealisticTenant[],
        size: number,
        path: (site: RealisticTenant, id: number) => string,
        withToken: boolean,
      ): Promise<LoadOptions["requests"]> => {
        const tokens = new Map(
          await Promise.all(spread.map(async (site) => [site.tenantId, withToken ? await bearer(ctx, site) : ""] as const)),
        );
        // Interleaved: consecutive requests go to different sites, as many sites' users would send them.
        return detailIds(size).flatMap((id) =>
          spread.map((site) => ({
            path: path(site, id),
            headers: withToken ? { authorization: tokens.get(site.tenantId) ?? "" } : undefined,
          })),
        );
      };
      const results: BenchResult[] = [];
      for (const [spreadName, spread, size] of [
        ["1 site", [big], BIG_SITE],
        [`${SITES} sites`, sites, SITE_REQUIREMENTS],
      ] as const) {
        const ours = await requestsOf([...spread], size, (_site, id) => `/api/requirement/${id}`, true);
        const bare = await requestsOf([...spread], size, (site, id) => `/site/${site.tenantId}/requirement/${id}`, false);
        const loads = await measureRounds(database.db, [
          { name: "batched", url: servers.ours.url, requests: ours, before: () => (config.detailReadBatching = true) },
          { name: "unbatched", url: servers.ours.url, requests: ours, before: () => (config.detailReadBatching = false) },
          { name: "bare", url: servers.bare.url, requests: bare },
          { name: "constant", url: servers.constant.url, requests: bare },
        ]);
        const rate = (name: string) => median((loads.get(name) ?? []).map((load) => load.requestsPerSecond));
        const p99 = (name: string) => median((loads.get(name) ?? []).map((load) => load.p99Ms));
        const note = `${spreadName}, median of ${ROUNDS} alternating rounds`;
        const suffix = spreadName === "1 site" ? "" : `-${SITES}-sites`;
        for (const variant of ["batched", "unbatched"] as const) {
          const name = variant === "batched" ? `detail-read${suffix}` : `detail-read${suffix}-unbatched`;
          results.push(
            {
              case: name,
              db: context.db,
              ours: round(rate(variant), 1),
              baseline: round(rate("bare"), 1),
              unit: "req/s",
              ratio: round(rate(variant) / rate("bare")),
              note,
            },
            {
              case: `${name}-p99`,
              db: context.db,
              ours: p99(variant),
              baseline: p99("bare"),
              unit: "ms",
              ratio: round(p99(variant) / p99("bare")),
              note,
            },
          );
        }
        results.push({
          case: `detail-read${suffix}-p99-floor`,
          db: context.db,
          ours: p99("batched"),
          baseline: p99("constant"),
          unit: "ms",
          ratio: round(p99("batched") / p99("constant")),
          note,
        });
      }
      return results;
    } finally {
      for (const server of Object.values(servers)) await server.close();
      await ctx.destroy();
      process.env.NODE_ENV = previousEnv;
    }
  },
};

export default detailRead;
