import { requirementIdLabel } from "../../../common/labels.js";
import type { RequirementDetail, RequirementLite, Revision } from "../../../common/schemas/requirement.js";
import { findRequirementDetail, findRequirementDetails } from "../../db/requirementDetailStore.js";
import { type ListPage, listRequirements, type RequirementFilter } from "../../db/requirementLiteStore.js";
import { listRevisions } from "../../db/revisionStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { toDetail, toLite } from "./requirementViews.js";

export async function getRequirement(deps: ServiceDeps<"config">, actor: Actor, requirementId: number): Promise<RequirementDetail> {
  const row = deps.config.detailReadBatching
    ? await findRequirementDetail(deps.db, actor.tenantId, requirementId)
    : (await findRequirementDetails(deps.db, actor.tenantId, [requirementId]))[0];
  if (!row) throw notFound("Requirement");
  return toDetail(row);
}

/** The named requirements (a bounded list: the ids are the bound). */
export async function listRequirementLitesById(
  deps: ServiceDeps,
  actor: Actor,
  requirementIds: number[],
  options: { withDescription: boolean },
): Promise<RequirementLite[]> {
  if (requirementIds.length === 0) return [];
  return (await listRequirements(deps.db, actor.tenantId, { requirementIds })).map((row) => toLite(row, options));
}

export type RequirementLitePage = { requirements: RequirementLite[]; offset: number; limit: number; has_more: boolean };

/** One page of the requirements matching the filter; one row more is read to tell whether another page follows. */
export async function listRequirementLites(
  deps: ServiceDeps,
  actor: Actor,
  filter: RequirementFilter,
  options: ListPage & { withDescription: boolean },
): Promise<RequirementLitePage> {
  const rows = await listRequirements(deps.db, actor.tenantId, filter, { offset: options.offset, limit: options.limit + 1 });
  return {
    requirements: rows.slice(0, options.limit).map((row) => toLite(row, options)),
    offset: options.offset,
    limit: options.limit,
    has_more: rows.length > options.limit,
  };
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
  deps: ServiceDeps,
  actor: Actor,
  requirementIds: number[],
): Promise<Record<string, string>> {
  if (requirementIds.length === 0) return {};
  const rows = await listRequirements(deps.db, actor.tenantId, { requirementIds: [...new Set(requirementIds)] });
  return Object.fromEntries(rows.map((row) => [String(row.requirement_id), requirementIdLabel(row)]));
}
