import { findRequirements } from "../../db/requirementLiteStore.js";
import { linkedRequirementIds, removeAllLinks } from "../../db/requirementLinkStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { insertRevisions } from "../../db/revisionStore.js";
import { notFound } from "../../errors.js";
import { notifyRequirementsSaved } from "../notifications/requirementSaved.js";
import type { Actor, ServiceDeps } from "../context.js";
import { eventStateOf, loadRequirementDetails, recordRevisions, snapshotOf } from "./requirementViews.js";

/**
 * Soft delete inside the caller's transaction: the row keeps its data with deleted_at set, a
 * 'deleted' revision freezes its last state (links included), then its links are dropped and the
 * requirements on the other side get a revision of their own; the linked issues' notifications are
 * enqueued with it. `deps.db` is the transaction. Answers the deleted ids.
 */
export async function deleteRequirementsIn(
  deps: ServiceDeps<"jobs">,
  actor: Actor,
  requirementIds: number[],
): Promise<number[]> {
  const { tenantId } = actor;
  const trx = deps.db;
  const ids = [...new Set(requirementIds)];
  if (ids.length === 0) return [];
  // Locked before they are read: a save in progress finishes first, and the 'deleted' revision follows its revision.
  await findRequirements(trx, tenantId, ids, { forUpdate: true });
  const before = await loadRequirementDetails(deps, actor, ids);
  if (before.length !== ids.length) throw notFound("Requirement");
  const deleting = new Set(ids);
  const neighbours = [...new Set([...(await linkedRequirementIds(trx, tenantId, ids)).values()].flat())].filter(
    (id) => !deleting.has(id),
  );

  await touchRequirements(trx, tenantId, ids, { deleted_at: trx.fn.now() });
  await insertRevisions(
    trx,
    tenantId,
    before.map((detail) => ({
      requirementId: detail.requirement_id,
      revision: detail.revision + 1,
      accountId: actor.accountId,
      action: "deleted" as const,
      changedFields: [],
      snapshot: snapshotOf({ ...detail, revision: detail.revision + 1 }, true),
    })),
  );
  await removeAllLinks(trx, tenantId, ids);
  await touchRequirements(trx, tenantId, neighbours, {});
  await recordRevisions(
    deps,
    actor,
    neighbours.map((id) => ({ requirementId: id, action: "updated", changedFields: ["linked_requirements"] })),
  );
  await notifyRequirementsSaved(
    deps,
    actor,
    before.map((detail) => ({ requirementId: detail.requirement_id, revision: detail.revision + 1, before: eventStateOf(detail) })),
  );
  return ids;
}

/** POST /api/requirement/delete/bulk: all or nothing. */
export async function deleteRequirements(deps: ServiceDeps<"jobs">, actor: Actor, requirementIds: number[]): Promise<number[]> {
  return deps.db.transaction((trx) => deleteRequirementsIn({ ...deps, db: trx }, actor, requirementIds));
}
