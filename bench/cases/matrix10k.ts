import type { AddressInfo } from "node:net";
import express from "express";
import type { Db } from "../../server/db/knex.js";
import { bearer, createTenant, createTestApp } from "../../test/helpers/app.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

export const PROJECT = 10000;
const REQUIREMENTS = 10_000;
const LINKS_PER_REQUIREMENT = 5;

/**
 * A project of `requirements` requirements, each linked to `linksPerRequirement` issues (a tenth
 * of them to none, so rows without issues are part of the load), inserted in bulk.
 */
export async function seedMatrixProject(
  db: Db,
  tenantId: string,
  { requirements = REQUIREMENTS, linksPerRequirement = LINKS_PER_REQUIREMENT } = {},
): Promise<void> {
  const [type] = await db("requirement_types")
    .insert({ tenant_id: tenantId, name: "System", prefix: "SYS", level: 3 })
    .returning("requirement_type_id");
  const ids: number[] = [];
  for (let start = 0; start < requirements; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, requirements - start) }, (_, i) => ({
      tenant_id: tenantId,
      project_id: PROJECT,
      requirement_type_id: type.requirement_type_id,
      display_id: (start + i) % 4 === 0 ? `M-${start + i}` : null,
      name: `Matrix requirement ${start + i}`,
      created_by: "bench",
    }));
    ids.push(...(await db("requirements").insert(rows).returning("requirement_id")).map((row) => Number(row.requirement_id)));
  }
  const links = ids.flatMap((requirementId, n) =>
    n % 10 === 9
      ? []
      : Array.from({ length: linksPerRequirement + (n % 10 === 0 ? 5 : 0) }, (_, k) => ({
          tenant_id: tenantId,
          requirement_id: requirementId,
          atlassian_issue_id: String(20000 + ((n * linksPerRequirement + k) % 60000)),
        })),
  );
  for (let start = 0; start < links.length; start += 5000) {
    await db("requirement_issue_links")
      .insert(links.slice(start, start + 5000))
      .onConflict()
      .ignore();
  }
}

/** The same links, read by the bare SQL and returned as JSON text, with nothing around it. */
export const BARE_LINKS_SQL = `SELECT COALESCE(json_agg(json_build_object('requirement_id', l.requirement_id, 'atlassian_issue_id', l.atlassian_issue_id)), '[]'::json)::text AS links
  FROM requirements r JOIN requirement_issue_links l ON l.tenant_id = r.tenant_id AND l.requirement_id = r.requirement_id
  WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL`;

async function listen(app: express.Express) {
  const server = app.listen(0);
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The whole answer received, as text: what the answer costs the server, not what parsing it costs a browser. */
async function fetchText(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.text();
}

/**
 * `GET /api/requirement/matrix` of a project of 10,000 requirements and ~50,000 issue links (next
 * to another site of the same size), against a bare endpoint that runs only the SQL reading the
 * same links as JSON and sends its text: same database, same run, both over HTTP.
 */
async function run(context: BenchContext): Promise<BenchResult[]> {
  const ctx = await createTestApp({}, { database: await createTestDatabase({ postgresUrl: context.databaseUrl }) });
  const db = ctx.deps.db;
  const servers: { close: () => Promise<void> }[] = [];
  try {
    const tenant = await createTenant(db, "bench-matrix");
    await seedMatrixProject(db, tenant.tenantId);
    await seedMatrixProject(db, (await createTenant(db, "bench-matrix-neighbour")).tenantId);
    await db.raw("ANALYZE");

    const bare = express();
    bare.get("/links", async (_req, res) => {
      const result = await db.raw(BARE_LINKS_SQL, [tenant.tenantId, PROJECT]);
      res.type("json").send((result.rows as { links: string }[])[0]?.links);
    });
    const oursServer = await listen(ctx.app);
    const bareServer = await listen(bare);
    servers.push(oursServer, bareServer);
    const headers = { authorization: await bearer(ctx, tenant, "bench") };

    const matrix = JSON.parse(await fetchText(`${oursServer.url}/api/requirement/matrix?atlassian_project_id=${PROJECT}`, headers)) as {
      rows: { issues: unknown[] }[];
    };
    const links = matrix.rows.reduce((sum, row) => sum + row.issues.length, 0);
    process.stdout.write(`  matrix: ${matrix.rows.length} rows, ${links} links\n`);

    const oursMs = await medianMs(() => fetchText(`${oursServer.url}/api/requirement/matrix?atlassian_project_id=${PROJECT}`, headers), {
      iterations: 15,
      warmup: 3,
    });
    const bareMs = await medianMs(() => fetchText(`${bareServer.url}/links`), { iterations: 15, warmup: 3 });
    process.stdout.write(`  matrix-10k: ${round(oursMs)} ms vs bare ${round(bareMs)} ms\n`);
    return [
      { case: "matrix-10k", db: context.db, ours: round(oursMs), baseline: round(bareMs), unit: "ms", ratio: round(oursMs / bareMs) },
    ];
  } finally {
    for (const server of servers) await server.close();
    await ctx.destroy();
  }
}

const matrix10k: BenchCase = { name: "matrix-10k", run };
export default matrix10k;
