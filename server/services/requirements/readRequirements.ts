import { requirementIdLabel } from "../../../common/labels.js";
import type { RequirementDetail, RequirementLite, Revision } from "../../../common/schemas/requirement.js";
import { findRequirementDetail, findRequirementDetails } from "../../db/requirementDetailStore.js";
import { type ListPage, listRequirements, type RequirementFilter } from "../../db/requirementLiteStore.js";
import { listRevisions } from "../../db/revisionStore.js";
import { listSuspectReviews } from "../../db/suspectLinkStore.js";
import { withReviews } from "../suspectLinks/suspectLinks.js";
import { notFound } from "../../errors.js";
import { type AccessDeps, browsableOf, browsableProjectIds } from "../access/projectAccess.js";
import { withHiddenLinksRestricted } from "../access/restrictedRequirements.js";
import type { Actor, ServiceDeps } from "../context.js";
import { toDetail, toLite } from "./requirementViews.js";

/** One requirement (its project's browse is checked by the route); linked ones of hidden projects shown restricted. */
export async function getRequirement(deps: ServiceDeps<"config"> & AccessDeps, actor: Actor, requirementId: number): Promise<RequirementDetail> {
  const row = deps.config.detailReadBatching
    ? await findRequirementDetail(deps.db, actor.tenantId, requirementId)
    : (await findRequirementDetails(deps.db, actor.tenantId, [requirementId]))[0];
  if (!row) throw notFound("Requirement");
  const detail = toDetail(row);
  const [linked] = await withHiddenLinksRestricted(deps, actor, [detail.linked_requirements_v2]);
  return { ...detail, linked_requirements_v2: linked ?? [] };
}

/**
 * The filter cut to projects the person may browse: those it names, or all of the site's when it
 * names none; lists leave the others out. Undefined when none is left.
 */
async function browsableFilter(deps: AccessDeps, actor: Actor, filter: RequirementFilter): Promise<RequirementFilter | undefined> {
  const projectIds = filter.projectIds ? await browsableOf(deps, actor, filter.projectIds) : await browsableProjectIds(deps, actor);
  return projectIds.length === 0 ? undefined : { ...filter, projectIds };
}

/** The named requirements (a bounded list: the ids are the bound). */
export async function listRequirementLitesById(
  deps: AccessDeps,
  actor: Actor,
  requirementIds: number[],
  options: { withDescription: boolean },
): Promise<RequirementLite[]> {
  const filter = requirementIds.length === 0 ? undefined : await browsableFilter(deps, actor, { requirementIds });
  if (!filter) return [];
  return (await listRequirements(deps.db, actor.tenantId, filter)).map((row) => toLite(row, options));
}

export type RequirementLitePage = { requirements: RequirementLite[]; offset: number; limit: number; has_more: boolean };

/** One page of the requirements matching the filter; one row more is read to tell whether another page follows. */
export async function listRequirementLites(
  deps: AccessDeps,
  actor: Actor,
  asked: RequirementFilter,
  options: ListPage & { withDescription: boolean },
): Promise<RequirementLitePage> {
  const filter = await browsableFilter(deps, actor, asked);
  const rows = filter ? await listRequirements(deps.db, actor.tenantId, filter, { offset: options.offset, limit: options.limit + 1 }) : [];
  return {
    requirements: rows.slice(0, options.limit).map((row) => toLite(row, options)),
    offset: options.offset,
    limit: options.limit,
    has_more: rows.length > options.limit,
  };
}

/** The Activity list, reviews of suspect links among the revisions; a deleted requirement's history stays readable. */
export async function listRequirementRevisions(deps: ServiceDeps, actor: Actor, requirementId: number): Promise<Revision[]> {
  const revisions = await listRevisions(deps.db, actor.tenantId, requirementId);
  if (revisions.length === 0) throw notFound("Requirement");
  const reviews = await listSuspectReviews(deps.db, actor.tenantId, requirementId);
  return withReviews(revisions.map((revision) => ({
    revision: revision.revision,
    created_at: revision.created_at.toISOString(),
    account_id: revision.account_id,
    action: revision.action,
    changed_fields: revision.changed_fields.join(","),
  })), reviews);
}

/** POST /api/requirement/display_ids: requirement id to the ID label ("SYS-12"); unknown or deleted ids are left out. */
export async function requirementDisplayIds(
  deps: AccessDeps,
  actor: Actor,
  requirementIds: number[],
): Promise<Record<string, string>> {
  const filter = requirementIds.length === 0 ? undefined : await browsableFilter(deps, actor, { requirementIds: [...new Set(requirementIds)] });
  if (!filter) return {};
  const rows = await listRequirements(deps.db, actor.tenantId, filter);
  return Object.fromEntries(rows.map((row) => [String(row.requirement_id), requirementIdLabel(row)]));
}
