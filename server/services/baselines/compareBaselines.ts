import type { Comparison } from "../../../common/schemas/baseline.js";
import { compareBaselines as compareInDatabase } from "../../db/baselineStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { baselineInScope, baselineOf, baselineRevisionOf } from "./baselineViews.js";

/**
 * GET /api/baseline/compare: one page of the differences between two baselines of the project,
 * classified by the database. One row more than the page is read to tell whether another follows.
 */
export async function compareBaselines(
  deps: ServiceDeps,
  actor: Actor,
  query: {
    projectId: number;
    baseline1: number;
    baseline2: number;
    includeUnchanged: boolean;
    offset: number;
    limit: number;
  },
): Promise<Comparison> {
  const { tenantId } = actor;
  const first = await baselineInScope(deps.db, tenantId, query.baseline1, query.projectId);
  const second = await baselineInScope(deps.db, tenantId, query.baseline2, query.projectId);
  const rows = await compareInDatabase(deps.db, tenantId, [first.baseline_id, second.baseline_id], {
    includeUnchanged: query.includeUnchanged,
    offset: query.offset,
    limit: query.limit + 1,
  });
  return {
    baseline1: baselineOf(first),
    baseline2: baselineOf(second),
    requirements: rows.slice(0, query.limit).map((row) => ({
      requirement_id: row.requirement_id,
      status: row.status,
      changed_fields: row.changed_fields,
      baseline1: row.before ? baselineRevisionOf(row.before) : null,
      baseline2: row.after ? baselineRevisionOf(row.after) : null,
    })),
    offset: query.offset,
    limit: query.limit,
    has_more: rows.length > query.limit,
  };
}
