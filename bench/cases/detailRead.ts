import type { AddressInfo } from "node:net";
import express from "express";
import type { Db } from "../../server/db/knex.js";
import { bearer, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { seedRealisticTenant } from "../../test/helpers/realisticTenant.js";
import { httpLoad, type LoadResult } from "../load.js";
import { round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const REQUIREMENTS = 100_000;
const CONNECTIONS = 50;
const DURATION_SECONDS = 10;
const WARMUP_SECONDS = 2;
/** Level-1 requirements spread over all 100 projects, each with a link, two issues and a field value. */
const DETAIL_IDS = Array.from({ length: 1_000 }, (_, i) => 5 + i * 100);

/** The same rows as GET /api/requirement/{id}, by the plain SQL a developer would write first. */
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

/** A bare Express endpoint: no token, no validation, no logging; the detail's reads in plain SQL. */
function bareApp(db: Db, tenantId: string): express.Express {
  const app = express();
  app.get("/requirement/:id", async (req, res) => {
    try {
      const result = await db.raw(BARE_DETAIL_SQL, [tenantId, Number(req.params.id)]);
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
  app.get("/requirement/:id", (req, res) => {
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

async function measure(url: string, pathOf: (id: number) => string, headers: Record<string, string>): Promise<LoadResult> {
  const paths = DETAIL_IDS.map(pathOf);
  await httpLoad({ url, paths, connections: CONNECTIONS, durationSeconds: WARMUP_SECONDS, headers });
  return httpLoad({ url, paths, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, headers });
}

/**
 * Requirement detail under load, as a site's users open requirements: 50 connections for 10 s
 * against a tenant of 100,000 requirements (realisticTenant.ts), our endpoint (token, validation,
 * logging, service) against the bare endpoint in the same run. Ratio = our requests/s over the
 * bare endpoint's (goal: at least 0.6); our p99 is reported next to it (goal: at most 50 ms), and
 * next to the p99 of an endpoint that reads nothing under the same load: the least this machine
 * and load generator allow.
 */
const detailRead: BenchCase = {
  name: "detail-read",
  async run(context) {
    const database = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const tenant = await seedRealisticTenant(database.db, REQUIREMENTS);
    const ctx = await createTestApp({}, { database, checkResponses: false });
    const ours = await listen(ctx.app);
    const bare = await listen(bareApp(database.db, tenant.tenantId));
    const constant = await listen(constantApp());
    try {
      const oursLoad = await measure(ours.url, (id) => `/api/requirement/${id}`, { authorization: await bearer(ctx, tenant) });
      await settle(database.db);
      const bareLoad = await measure(bare.url, (id) => `/requirement/${id}`, {});
      await settle(database.db);
      const floorLoad = await measure(constant.url, (id) => `/requirement/${id}`, {});
      const results: BenchResult[] = [
        {
          case: "detail-read",
          db: context.db,
          ours: round(oursLoad.requestsPerSecond, 1),
          baseline: round(bareLoad.requestsPerSecond, 1),
          unit: "req/s",
          ratio: round(oursLoad.requestsPerSecond / bareLoad.requestsPerSecond),
        },
        {
          case: "detail-read-p99",
          db: context.db,
          ours: oursLoad.p99Ms,
          baseline: bareLoad.p99Ms,
          unit: "ms",
          ratio: round(oursLoad.p99Ms / bareLoad.p99Ms),
        },
        {
          case: "detail-read-p99-floor",
          db: context.db,
          ours: oursLoad.p99Ms,
          baseline: floorLoad.p99Ms,
          unit: "ms",
          ratio: round(oursLoad.p99Ms / floorLoad.p99Ms),
        },
      ];
      return results;
    } finally {
      await ours.close();
      await bare.close();
      await constant.close();
      await ctx.destroy();
    }
  },
};

export default detailRead;
