import { type PageFields, type PageQuery, pageOf } from "../../../common/schemas/paging.js";
import type { Baseline, BaselineDetail } from "../../../common/schemas/baseline.js";
import { listBaselines, pageBaselineRevisions } from "../../db/baselineStore.js";
import type { AccessDeps } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { baselineInScope, baselineOf, baselineRevisionOf, revisionsShownTo } from "./baselineViews.js";

/** GET /api/baseline?atlassian_project_id: newest first. */
export async function listProjectBaselines(
  deps: ServiceDeps,
  actor: Actor,
  projectId: number,
  page: PageQuery,
): Promise<{ baselines: Baseline[] } & PageFields> {
  const { items, ...paging } = pageOf(await listBaselines(deps.db, actor.tenantId, projectId, page), page);
  return { baselines: items.map(baselineOf), ...paging };
}

/** GET /api/baseline/{id}/lite. */
export async function getBaseline(deps: ServiceDeps, actor: Actor, baselineId: number, projectId: number | undefined): Promise<Baseline> {
  return baselineOf(await baselineInScope(deps.db, actor.tenantId, baselineId, projectId));
}

/** GET /api/baseline/{id}: the baseline and one page of its requirements in id order. */
export async function getBaselineWithRevisions(
  deps: AccessDeps,
  actor: Actor,
  baselineId: number,
  query: { projectId: number | undefined; offset: number; limit: number },
): Promise<BaselineDetail> {
  const row = await baselineInScope(deps.db, actor.tenantId, baselineId, query.projectId);
  const page = await pageBaselineRevisions(deps.db, actor.tenantId, baselineId, query);
  return {
    ...baselineOf(row),
    requirement_revisions: (await revisionsShownTo(deps, actor, page.map(baselineRevisionOf))).filter((revision) => revision !== null),
    offset: query.offset,
    limit: query.limit,
  };
}
