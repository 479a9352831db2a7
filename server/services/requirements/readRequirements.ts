import { requirementIdLabel } from "../../../common/labels.js";
import type { RequirementDetail, RequirementLite, Revision } from "../../../common/schemas/requirement.js";
import { findRequirementDetail } from "../../db/requirementDetailStore.js";
import { listRequirements, type RequirementFilter } from "../../db/requirementLiteStore.js";
import { listRevisions } from "../../db/revisionStore.js";
import { notFound } from "../../errors.js";
import { type AccessDeps, browsableOf, browsableProjectIds } from "../access/projectAccess.js";
import { withHiddenLinksRestricted } from "../access/restrictedRequirements.js";
import type { Actor, ServiceDeps } from "../context.js";
import { toDetail, toLite } from "./requirementViews.js";

/** One requirement (its project's browse is checked by the route); linked ones of hidden projects shown restricted. */
export async function getRequirement(deps: AccessDeps, actor: Actor, requirementId: number): Promise<RequirementDetail> {
  const row = await findRequirementDetail(deps.db, actor.tenantId, requirementId);
  if (!row) throw notFound("Requirement");
  const detail = toDetail(row);
  const [linked] = await withHiddenLinksRestricted(deps, actor, [detail.linked_requirements_v2]);
  return { ...detail, linked_requirements_v2: linked ?? [] };
}

/**
 * Active requirements matching the filter in projects the person may browse: the projects asked
 * for (all of the site's when none are) cut to those; lists leave the others out.
 */
async function browsableRequirements(deps: AccessDeps, actor: Actor, filter: RequirementFilter) {
  const projectIds = filter.projectIds ? await browsableOf(deps, actor, filter.projectIds) : await browsableProjectIds(deps, actor);
  return projectIds.length === 0 ? [] : listRequirements(deps.db, actor.tenantId, { ...filter, projectIds });
}

export async function listRequirementLites(deps: AccessDeps, actor: Actor, filter: RequirementFilter): Promise<RequirementLite[]> {
  return (await browsableRequirements(deps, actor, filter)).map(toLite);
}

/** The Activity list; a deleted requirement's history stays readable. */
export async function listRequirementRevisions(deps: ServiceDeps, actor: Actor, requirementId: number): Promise<Revision[]> {
  const revisions = await listRevisions(deps.db, actor.tenantId, requirementId);
  if (revisions.length === 0) throw notFound("Requirement");
  return revisions.map((revision) => ({
    revision: revision.revision,
    created_at: revision.created_at.toISOString(),
    account_id: revision.account_id,
    action: revision.action,
    changed_fields: revision.changed_fields.join(","),
  }));
}

/** POST /api/requirement/display_ids: requirement id to the ID label ("SYS-12"); unknown or deleted ids are left out. */
export async function requirementDisplayIds(
  deps: AccessDeps,
  actor: Actor,
  requirementIds: number[],
): Promise<Record<string, string>> {
  if (requirementIds.length === 0) return {};
  const rows = await browsableRequirements(deps, actor, { requirementIds: [...new Set(requirementIds)] });
  return Object.fromEntries(rows.map((row) => [String(row.requirement_id), requirementIdLabel(row)]));
}
