import { linkedRequirementIds, removeAllLinks } from "../../db/requirementLinkStore.js";
import { setRequirementColumns } from "../../db/requirementWriteStore.js";
import { notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { type RequirementWrite, withRequirementWrite } from "./requirementWrite.js";

/**
 * Soft delete inside a write (a folder's delete deletes its requirements in its own): the row keeps
 * its data with deleted_at set, a 'deleted' revision freezes its last state (links included), then
 * its links are dropped and the requirements on the other side get a revision of their own; the
 * linked issues' notifications are enqueued with it. Answers the deleted ids.
 */
export async function deleteRequirementsIn(write: RequirementWrite, requirementIds: number[]): Promise<number[]> {
  const { tx, actor } = write;
  const ids = [...new Set(requirementIds)];
  if (ids.length === 0) return [];
  // Locked before they are read: a save in progress finishes first, and the 'deleted' revision follows its revision.
  await write.lock(ids);
  const before = await write.readBefore(ids);
  if (before.length !== ids.length) throw notFound("Requirement");
  const deleting = new Set(ids);
  const neighbours = [...new Set([...(await linkedRequirementIds(tx, actor.tenantId, ids)).values()].flat())].filter(
    (id) => !deleting.has(id),
  );

  await setRequirementColumns(tx, actor.tenantId, ids, { deleted_at: tx.fn.now() });
  await removeAllLinks(tx, actor.tenantId, ids);
  for (const requirementId of ids) write.record({ requirementId, action: "deleted", changedFields: [], notify: true });
  for (const requirementId of neighbours) write.record({ requirementId, action: "updated", changedFields: ["linked_requirements"] });
  return ids;
}

/** POST /api/requirement/delete/bulk: all or nothing. */
export async function deleteRequirements(deps: ServiceDeps<"jobs">, actor: Actor, requirementIds: number[]): Promise<number[]> {
  return withRequirementWrite(deps, actor, (write) => deleteRequirementsIn(write, requirementIds));
}
