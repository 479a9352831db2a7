import { type RequirementSnapshot, REVIEWED_ACTION, type Revision, type SuspectChange } from "../../../common/schemas/requirement.js";
import type { ReviewSuspectLinksSchema, SuspectLinkType } from "../../../common/schemas/suspectLinks.js";
import type { z } from "zod";
import { findRequirementDetails, findRequirements, findRevisionSnapshots, lockRequirements } from "../../db/requirements/index.js";
import { clearSuspectLinks, insertSuspectReviews, type LinkRef, linkExists, type SuspectReviewRow } from "../../db/suspectLinkStore.js";
import { notFound } from "../../errors.js";
import { type AccessDeps, browsableOf } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";

type ReviewInput = z.output<typeof ReviewSuspectLinksSchema>;

/**
 * POST /api/requirement/{id}/suspect-links/review: clears the mark of one link (or of all the
 * requirement's links) on both ends, and records who reviewed which link in the Activity of each
 * requirement the link joins. A link the requirement does not have answers 404; a link that is
 * not suspect is already reviewed, and nothing is recorded.
 */
export async function reviewSuspectLinks(deps: ServiceDeps, actor: Actor, requirementId: number, input: ReviewInput): Promise<void> {
  const { tenantId } = actor;
  await deps.db.transaction(async (tx) => {
    // Locked as an edit locks it: a save at the same moment marks either before or after this review, never half.
    const [requirement] = await lockRequirements(tx, tenantId, [requirementId]);
    if (!requirement) throw notFound("Requirement");
    const links = "all" in input ? "all" : [{ link_type: input.link_type, target_id: input.target_id }];
    if (links !== "all" && !(await linkExists(tx, tenantId, requirementId, links[0]!))) throw notFound("Link");
    const cleared = await clearSuspectLinks(tx, tenantId, requirementId, links);
    const otherEnds = cleared.filter((mark) => mark.link_type === "requirement").map((mark) => Number(mark.target_id));
    const revisionOf = new Map(
      (await findRequirements(tx, tenantId, [requirementId, ...otherEnds], { includeDeleted: true })).map((row) => [
        row.requirement_id,
        row.revision,
      ]),
    );
    const review = { reviewed_by: actor.accountId };
    await insertSuspectReviews(tx, tenantId, [
      ...cleared.map((mark) => ({
        ...review,
        requirement_id: requirementId,
        link_type: mark.link_type,
        target_id: mark.target_id,
        revision: requirement.revision,
      })),
      ...otherEnds.map((other) => ({
        ...review,
        requirement_id: other,
        link_type: "requirement" as const,
        target_id: String(requirementId),
        revision: revisionOf.get(other) ?? 0,
      })),
    ]);
  });
}

/** A link target as the API names it: a requirement by its numeric id. */
const targetOf = (linkType: SuspectLinkType, targetId: string) => (linkType === "requirement" ? Number(targetId) : targetId);

/** The Activity list: the revisions (newest first) with the reviews of suspect links among them by time. */
export function withReviews(revisions: Revision[], reviews: SuspectReviewRow[]): Revision[] {
  const entries: Revision[] = reviews.map((review) => ({
    revision: review.revision,
    created_at: review.reviewed_at.toISOString(),
    account_id: review.reviewed_by,
    action: REVIEWED_ACTION,
    changed_fields: "",
    reviewed_link: { link_type: review.link_type, target_id: targetOf(review.link_type, review.target_id) },
  }));
  return [...revisions, ...entries].sort((a, b) => b.revision - a.revision || b.created_at.localeCompare(a.created_at));
}

/**
 * GET /api/requirement/{id}/suspect-links/change: what the reviewer of a suspect link must look
 * at, the changed requirement as it was before the change that made the link suspect and as it is
 * now. 404 when the link is not suspect, or its changed end is in a project the person may not browse.
 */
export async function suspectChange(deps: AccessDeps, actor: Actor, requirementId: number, link: LinkRef): Promise<SuspectChange> {
  const { tenantId } = actor;
  const [detail] = await findRequirementDetails(deps.db, tenantId, [requirementId]);
  const mark = detail?.suspect_links.find((candidate) => candidate.link_type === link.link_type && candidate.target_id === link.target_id);
  if (!mark) throw notFound("Suspect link");
  const [changed] = await findRequirements(deps.db, tenantId, [mark.changed_requirement_id]);
  if (!changed || (await browsableOf(deps, actor, [changed.project_id])).length === 0) throw notFound("Suspect link");
  const snapshots = await findRevisionSnapshots(deps.db, tenantId, changed.requirement_id, [mark.since_revision - 1, changed.revision]);
  const after = snapshots.get(changed.revision);
  if (!after) throw notFound("Suspect link");
  const before: RequirementSnapshot | null = snapshots.get(mark.since_revision - 1) ?? null;
  return { requirement_id: changed.requirement_id, since_revision: mark.since_revision, before, after };
}
