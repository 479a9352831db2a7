import type { Comparison } from "../../../common/schemas/baseline.js";
import { compareBaselines as compareInDatabase } from "../../db/baselineStore.js";
import type { AccessDeps } from "../access/projectAccess.js";
import type { Actor } from "../context.js";
import { baselineInScope, baselineOf, baselineRevisionOf, revisionsShownTo } from "./baselineViews.js";

/**
 * GET /api/baseline/compare: one page of the differences between two baselines of the project,
 * classified by the database. One row more than the page is read to tell whether another follows.
 */
export async function compareBaselines(
  deps: AccessDeps,
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
  const page = rows.slice(0, query.limit);
  // Before and after of each row, in one list, so Jira is asked once for the page.
  const shown = await revisionsShownTo(
    deps,
    actor,
    page.flatMap((row) => [row.before ? baselineRevisionOf(row.before) : null, row.after ? baselineRevisionOf(row.after) : null]),
  );
  return {
    baseline1: baselineOf(first),
    baseline2: baselineOf(second),
    requirements: page.map((row, index) => ({
      requirement_id: row.requirement_id,
      status: row.status,
      changed_fields: row.changed_fields,
      baseline1: shown[2 * index] ?? null,
      baseline2: shown[2 * index + 1] ?? null,
    })),
    offset: query.offset,
    limit: query.limit,
    has_more: rows.length > query.limit,
  };
}
