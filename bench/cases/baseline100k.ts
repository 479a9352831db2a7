import { BASELINE_PROJECT, BASELINE_REQUIREMENTS, benchResult, callApi, explain, startBaselineBench, timed } from "../baselineFixture.js";
import { round } from "../measure.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

const ITERATIONS = 7;

/**
 * Taking a baseline of 100,000 requirements through POST /api/baseline, against a bare
 * INSERT … SELECT of the same rows (after a bare baseline row) in one transaction. Each
 * baseline is deleted again, untimed, so every iteration starts from the same table size.
 */
async function run(context: BenchContext): Promise<BenchResult[]> {
  const bench = await startBaselineBench(context);
  const { db, tenantId } = bench;
  try {
    const bareInsert = `INSERT INTO baseline_revisions (tenant_id, baseline_id, requirement_id, revision)
      SELECT r.tenant_id, ?, r.requirement_id, r.revision FROM requirements r
      WHERE r.tenant_id = ? AND r.project_id = ? AND r.deleted_at IS NULL`;
    const bare = () =>
      db.transaction(async (trx) => {
        const [row] = await trx("baselines")
          .insert({ tenant_id: tenantId, project_id: BASELINE_PROJECT, name: "Bare", created_by: "bench" })
          .returning("baseline_id");
        await trx.raw(bareInsert, [row.baseline_id, tenantId, BASELINE_PROJECT]);
        return Number(row.baseline_id);
      });
    const ours = () =>
      callApi<{ baseline_id: number; requirement_count: number }>(bench, "POST", "/api/baseline", {
        name: "Release",
        project: BASELINE_PROJECT,
        select_all_requirements: true,
      });
    const drop = (baselineId: number) => db("baselines").where({ tenant_id: tenantId, baseline_id: baselineId }).delete();

    const first = await ours();
    if (first.requirement_count !== BASELINE_REQUIREMENTS) throw new Error(`Froze ${first.requirement_count} requirements`);
    const size = await db.raw(
      "SELECT pg_total_relation_size('baseline_revisions') AS bytes, (SELECT count(*) FROM baseline_revisions) AS row_count",
    );
    const { bytes, row_count } = size.rows[0] as { bytes: number | string; row_count: number | string };
    process.stdout.write(
      `  storage: ${round(Number(bytes) / Number(row_count), 1)} bytes per baseline_revisions row (heap + primary key)\n`,
    );
    await drop(first.baseline_id);
    await drop(await bare());

    const oursMs: number[] = [];
    const bareMs: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      let id = 0;
      oursMs.push(await timed(async () => (id = (await ours()).baseline_id)));
      await drop(id);
      bareMs.push(await timed(async () => (id = await bare())));
      await drop(id);
    }
    const [baselineRow] = await db("baselines")
      .insert({ tenant_id: tenantId, project_id: BASELINE_PROJECT, name: "Explained", created_by: "bench" })
      .returning("baseline_id");
    await explain(db, "baseline-100k: INSERT … SELECT of the current revisions", bareInsert, [
      baselineRow.baseline_id,
      tenantId,
      BASELINE_PROJECT,
    ]);
    return [benchResult("baseline-100k", context, oursMs, bareMs)];
  } finally {
    await bench.close();
  }
}

const baseline100k: BenchCase = { name: "baseline-100k", run };
export default baseline100k;
