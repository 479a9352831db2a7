import { linkedRequirementIds, removeAllLinks, setRequirementColumns } from "../../db/requirements/index.js";
import { notFound } from "../../errors.js";
import { batches } from "../batches.js";
import type { Actor, ServiceDeps } from "../context.js";
import { type RequirementWrite, withRequirementWrite } from "./requirementWrite.js";

/**
 * Soft delete inside a write (a folder's delete deletes its requirements in its own): the row keeps
 * its data with deleted_at set, a 'deleted' revision freezes its last state (links included), then
 * its links are dropped and the requirements on the other side get a revision of their own; the
 * linked issues' notifications are enqueued with it. Answers the deleted ids.
 * In batches (WRITE_BATCH_ROWS): every batch is locked, read and frozen before any is marked
 * deleted or unlinked, so each revision shows the links it had, as one statement would have.
 */
export async function deleteRequirementsIn(write: RequirementWrite, requirementIds: number[]): Promise<number[]> {
  const { tx, actor } = write;
  const ids = [...new Set(requirementIds)];
  if (ids.length === 0) return [];
  const deleting = new Set(ids);
  const neighbours = new Set<number>();
  for (const batch of batches(ids)) {
    // Locked before they are read: a save in progress finishes first, and the 'deleted' revision follows its revision.
    await write.lock(batch);
    const before = await write.readBefore(batch);
    if (before.length !== batch.length) throw notFound("Requirement");
    for (const linked of (await linkedRequirementIds(tx, actor.tenantId, batch)).values()) {
      for (const id of linked) if (!deleting.has(id)) neighbours.add(id);
    }
    for (const requirementId of batch) write.record({ requirementId, action: "deleted", changedFields: [], notify: true });
    await write.flush();
  }
  for (const batch of batches(ids)) {
    await setRequirementColumns(tx, actor.tenantId, batch, { deleted_at: tx.fn.now() });
    await removeAllLinks(tx, actor.tenantId, batch);
  }
  for (const requirementId of neighbours) write.record({ requirementId, action: "updated", changedFields: ["linked_requirements"] });
  return ids;
}

/** POST /api/requirement/delete/bulk: all or nothing. */
export async function deleteRequirements(deps: ServiceDeps<"jobs">, actor: Actor, requirementIds: number[]): Promise<number[]> {
  return withRequirementWrite(deps, actor, (write) => deleteRequirementsIn(write, requirementIds));
}
