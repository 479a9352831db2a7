import { findRequirements } from "../../db/requirementLiteStore.js";
import { linkedRequirementIds, removeAllLinks } from "../../db/requirementLinkStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { insertRevisions } from "../../db/revisionStore.js";
import { notFound } from "../../errors.js";
import { notifyRequirementsSaved } from "../notifications/requirementSaved.js";
import { batches } from "../batches.js";
import type { Actor, ServiceDeps } from "../context.js";
import { eventStateOf, loadRequirementDetails, recordRevisions, snapshotOf } from "./requirementViews.js";

/**
 * Soft delete inside the caller's transaction: the row keeps its data with deleted_at set, a
 * 'deleted' revision freezes its last state (links included), then its links are dropped and the
 * requirements on the other side get a revision of their own; the linked issues' notifications are
 * enqueued with it. `deps.db` is the transaction. Answers the deleted ids.
 * In batches (WRITE_BATCH_ROWS): every batch is locked, read and frozen before any is marked
 * deleted or unlinked, so each revision shows the links it had, as one statement would have.
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
  const deleting = new Set(ids);
  const neighbours = new Set<number>();
  for (const batch of batches(ids)) {
    // Locked before they are read: a save in progress finishes first, and the 'deleted' revision follows its revision.
    await findRequirements(trx, tenantId, batch, { forUpdate: true });
    const before = await loadRequirementDetails(deps, actor, batch);
    if (before.length !== batch.length) throw notFound("Requirement");
    for (const linked of (await linkedRequirementIds(trx, tenantId, batch)).values()) {
      for (const id of linked) if (!deleting.has(id)) neighbours.add(id);
    }
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
    await notifyRequirementsSaved(
      deps,
      actor,
      before.map((detail) => ({ requirementId: detail.requirement_id, revision: detail.revision + 1, before: eventStateOf(detail) })),
    );
  }
  for (const batch of batches(ids)) {
    await touchRequirements(trx, tenantId, batch, { deleted_at: trx.fn.now() });
    await removeAllLinks(trx, tenantId, batch);
  }
  for (const batch of batches([...neighbours])) {
    await touchRequirements(trx, tenantId, batch, {});
    await recordRevisions(
      deps,
      actor,
      batch.map((id) => ({ requirementId: id, action: "updated", changedFields: ["linked_requirements"] })),
    );
  }
  return ids;
}

/** POST /api/requirement/delete/bulk: all or nothing. */
export async function deleteRequirements(deps: ServiceDeps<"jobs">, actor: Actor, requirementIds: number[]): Promise<number[]> {
  return deps.db.transaction((trx) => deleteRequirementsIn({ ...deps, db: trx }, actor, requirementIds));
}
