import { linkedRequirementIds, removeAllLinks } from "../../db/requirementLinkStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { insertRevisions } from "../../db/revisionStore.js";
import { notFound } from "../../errors.js";
import type { RequirementEventState } from "../events.js";
import type { Actor, ServiceDeps } from "../context.js";
import { eventStateOf, loadRequirementDetails, recordRevisions, snapshotOf } from "./requirementViews.js";

/**
 * Soft delete inside the caller's transaction: the row keeps its data with deleted_at set, a
 * 'deleted' revision freezes its last state (links included), then its links are dropped and the
 * requirements on the other side get a revision of their own. Answers the states for the events.
 * `deps.db` is the transaction.
 */
export async function deleteRequirementsIn(
  deps: ServiceDeps,
  actor: Actor,
  requirementIds: number[],
): Promise<RequirementEventState[]> {
  const { tenantId } = actor;
  const trx = deps.db;
  const ids = [...new Set(requirementIds)];
  if (ids.length === 0) return [];
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
  return before.map(eventStateOf);
}

/** POST /api/requirement/delete/bulk: all or nothing. */
export async function deleteRequirements(deps: ServiceDeps, actor: Actor, requirementIds: number[]): Promise<number[]> {
  const deleted = await deps.db.transaction((trx) => deleteRequirementsIn({ ...deps, db: trx }, actor, requirementIds));
  emitDeleted(deps, actor, deleted);
  return deleted.map((state) => state.requirementId);
}

export function emitDeleted(deps: ServiceDeps, actor: Actor, deleted: RequirementEventState[]): void {
  for (const state of deleted) {
    deps.events?.emit("requirementSaved", {
      tenantId: actor.tenantId,
      accountId: actor.accountId,
      requirementId: state.requirementId,
      before: state,
      after: undefined,
    });
  }
}
