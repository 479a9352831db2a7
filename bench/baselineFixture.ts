import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { Db } from "../server/db/knex.js";
import { recordRevisionsBySql } from "../server/scripts/seedLarge.js";
import { seedDefaultRequirementTypes } from "../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { appActor } from "../server/services/context.js";
import { bearer, createTenant, createTestApp, type TestContext } from "../test/helpers/app.js";
import { createTestDatabase } from "../test/helpers/db.js";
import { round } from "./measure.js";
import type { BenchContext, BenchResult } from "./types.js";

export const BASELINE_PROJECT = 10000;
export const BASELINE_REQUIREMENTS = 100_000;

export type BaselineBench = {
  ctx: TestContext;
  db: Db;
  tenantId: string;
  url: string;
  headers: Record<string, string>;
  close(): Promise<void>;
};

/**
 * The add-on on a fresh database, listening, with 100,000 requirements of one project in 100
 * folders, each with its first revision: inserted by bulk SQL, not through the API.
 */
export async function startBaselineBench(context: BenchContext): Promise<BaselineBench> {
  const ctx = await createTestApp({}, { database: await createTestDatabase({ postgresUrl: context.databaseUrl }) });
  const db = ctx.deps.db;
  const tenant = await createTenant(db, "bench");
  const tenantId = tenant.tenantId;
  await seedDefaultRequirementTypes({ db }, appActor(tenantId));
  await db.raw(
    `INSERT INTO folders (tenant_id, project_id, name, created_by)
     SELECT ?, ?, 'Folder ' || g, 'bench' FROM generate_series(1, 100) g`,
    [tenantId, BASELINE_PROJECT],
  );
  await db.raw(
    `INSERT INTO requirements (tenant_id, project_id, parent_folder_id, requirement_type_id, name, description, created_by)
     SELECT ?, ?, f.folder_ids[1 + g % 100], t.type_ids[1 + g % 4], 'Requirement ' || g,
            'The system shall handle case ' || g || ' within the agreed response time', 'bench'
     FROM generate_series(1, ?) g,
          (SELECT array_agg(folder_id ORDER BY folder_id) AS folder_ids FROM folders WHERE tenant_id = ?) f,
          (SELECT array_agg(requirement_type_id ORDER BY level) AS type_ids FROM requirement_types WHERE tenant_id = ?) t`,
    [tenantId, BASELINE_PROJECT, BASELINE_REQUIREMENTS, tenantId, tenantId],
  );
  // Fresh statistics first: the migrations left them at "empty", which sends PostgreSQL's
  // foreign-key checks of the revision insert to sequential scans.
  await db.raw("ANALYZE requirements, requirement_types, folders");
  await recordRevisionsBySql(db, tenantId, "r.project_id = ?", [BASELINE_PROJECT]);
  await db.raw("VACUUM ANALYZE");
  const server = ctx.app.listen(0);
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ctx,
    db,
    tenantId,
    url: `http://127.0.0.1:${port}`,
    headers: { authorization: await bearer(ctx, tenant, "bench"), "content-type": "application/json" },
    close: async () => {
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      await ctx.destroy();
    },
  };
}

export async function callApi<T>(bench: BaselineBench, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${bench.url}${path}`, {
    method,
    headers: bench.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

/** Milliseconds of one call. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;

/** The case's row of bench/results.json from the samples of our code and of the bare statement. */
export function benchResult(name: string, context: BenchContext, oursMs: number[], bareMs: number[]): BenchResult {
  const ours = median(oursMs);
  const baseline = median(bareMs);
  process.stdout.write(`  ${name}: ${round(ours)} ms vs bare ${round(baseline)} ms\n`);
  return { case: name, db: context.db, ours: round(ours), baseline: round(baseline), unit: "ms", ratio: round(ours / baseline) };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, printed when BENCH_EXPLAIN is set (for docs/scaling.md). */
export async function explain(db: Db, label: string, sql: string, bindings: unknown[]): Promise<void> {
  if (!process.env.BENCH_EXPLAIN) return;
  const result = await db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings as never[]);
  const plan = (result.rows as Record<string, string>[]).map((row) => row["QUERY PLAN"]).join("\n");
  process.stdout.write(`\n--- ${label}\n${plan}\n`);
}
