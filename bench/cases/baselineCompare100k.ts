import { BASELINE_PROJECT, benchResult, callApi, explain, startBaselineBench, timed } from "../baselineFixture.js";
import { recordRevisionsBySql } from "../../server/scripts/seedLarge.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

const ITERATIONS = 30;
const PAGE = 50;

/**
 * The first page of comparing two 100,000-requirement baselines (1,000 requirements edited, 500
 * deleted and 500 added in between, spread over the id range) through GET /api/baseline/compare,
 * against a bare SQL full outer join of the same two baselines' revision rows with their snapshots,
 * behind the same OFFSET 0 fence as ours (like with like: both read the snapshots of one page).
 */
async function run(context: BenchContext): Promise<BenchResult[]> {
  const bench = await startBaselineBench(context);
  const { db, tenantId } = bench;
  try {
    const take = (name: string) =>
      callApi<{ baseline_id: number }>(bench, "POST", "/api/baseline", {
        name,
        project: BASELINE_PROJECT,
        select_all_requirements: true,
      });
    const first = (await take("Before")).baseline_id;
    await db.raw(
      `UPDATE requirements SET name = name || ' (revised)', description = description || ' and logs it', revision = revision + 1
       WHERE tenant_id = ? AND project_id = ? AND requirement_id % 100 = 7`,
      [tenantId, BASELINE_PROJECT],
    );
    await recordRevisionsBySql(db, tenantId, "r.project_id = ? AND r.requirement_id % 100 = 7 AND r.revision = 2", [BASELINE_PROJECT]);
    await db.raw(
      `UPDATE requirements SET deleted_at = now(), revision = revision + 1
       WHERE tenant_id = ? AND project_id = ? AND requirement_id % 200 = 13`,
      [tenantId, BASELINE_PROJECT],
    );
    await db.raw(
      `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, name, created_by)
       SELECT tenant_id, project_id, requirement_type_id, 'Added ' || requirement_id, 'bench' FROM requirements
       WHERE tenant_id = ? AND project_id = ? AND requirement_id % 200 = 13`,
      [tenantId, BASELINE_PROJECT],
    );
    await recordRevisionsBySql(db, tenantId, "r.project_id = ? AND r.name LIKE 'Added %'", [BASELINE_PROJECT]);
    const second = (await take("After")).baseline_id;
    await db.raw("VACUUM ANALYZE");

    // The pairs that differ, in id order, fenced with OFFSET 0 as ours is, so the snapshots are read
    // for the page only; unfenced, the planner read every differing pair's snapshots before the LIMIT.
    const bareSql = `SELECT p.requirement_id, p.revision1, p.revision2, s1.snapshot AS snapshot1, s2.snapshot AS snapshot2
      FROM (
        SELECT requirement_id, a.revision AS revision1, b.revision AS revision2
        FROM (SELECT requirement_id, revision FROM baseline_revisions WHERE tenant_id = ? AND baseline_id = ?) a
        FULL OUTER JOIN (SELECT requirement_id, revision FROM baseline_revisions WHERE tenant_id = ? AND baseline_id = ?) b
          USING (requirement_id)
        WHERE a.revision IS DISTINCT FROM b.revision
        ORDER BY requirement_id
        OFFSET 0
      ) p
      LEFT JOIN requirement_revisions s1 ON s1.tenant_id = ? AND s1.requirement_id = p.requirement_id AND s1.revision = p.revision1
      LEFT JOIN requirement_revisions s2 ON s2.tenant_id = ? AND s2.requirement_id = p.requirement_id AND s2.revision = p.revision2
      ORDER BY p.requirement_id LIMIT ${PAGE}`;
    const bareBindings = [tenantId, first, tenantId, second, tenantId, tenantId];
    const path = `/api/baseline/compare?atlassian_project_id=${BASELINE_PROJECT}&baseline1=${first}&baseline2=${second}&limit=${PAGE}`;
    const ours = () => callApi<{ requirements: unknown[] }>(bench, "GET", path);
    const bare = () => db.raw(bareSql, bareBindings);

    // Our own comparison statement, as the store sends it, for EXPLAIN.
    let ourStatement: { sql: string; bindings: unknown[] } | undefined;
    const capture = (query: { sql: string; bindings?: unknown[] }) => {
      if (query.sql.includes("FULL OUTER JOIN")) ourStatement = { sql: query.sql.replace(/\$\d+/g, "?"), bindings: query.bindings ?? [] };
    };
    db.on("query", capture);
    const check = await ours();
    db.off("query", capture);
    const bareRows = (await bare()).rows as unknown[];
    if (check.requirements.length !== PAGE || bareRows.length !== PAGE) throw new Error("A first page is not full");
    for (let i = 0; i < 3; i++) {
      await ours();
      await bare();
    }
    const oursMs: number[] = [];
    const bareMs: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      oursMs.push(await timed(ours));
      bareMs.push(await timed(bare));
    }
    if (ourStatement) await explain(db, "baseline-compare-100k: ours, first page", ourStatement.sql, ourStatement.bindings);
    await explain(db, "baseline-compare-100k: bare full outer join diff, first page", bareSql, bareBindings);
    let pageStatement: { sql: string; bindings: unknown[] } | undefined;
    const capturePage = (query: { sql: string; bindings?: unknown[] }) => {
      if (query.sql.includes("OFFSET")) pageStatement = { sql: query.sql.replace(/\$\d+/g, "?"), bindings: query.bindings ?? [] };
    };
    db.on("query", capturePage);
    await callApi(bench, "GET", `/api/baseline/${second}?atlassian_project_id=${BASELINE_PROJECT}&offset=99000&limit=500`);
    db.off("query", capturePage);
    if (pageStatement)
      await explain(db, "GET /api/baseline/{id}: a page of 500 at offset 99,000", pageStatement.sql, pageStatement.bindings);
    return [benchResult("baseline-compare-100k", context, oursMs, bareMs)];
  } finally {
    await bench.close();
  }
}

const baselineCompare100k: BenchCase = { name: "baseline-compare-100k", run };
export default baselineCompare100k;
