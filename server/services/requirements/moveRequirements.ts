import { findFolder, lockFolderTreeOf } from "../../db/folderStore.js";
import { findRequirements } from "../../db/requirementLiteStore.js";
import { touchRequirements } from "../../db/requirementWriteStore.js";
import { fieldError, notFound } from "../../errors.js";
import { batches } from "../batches.js";
import type { Actor, ServiceDeps } from "../context.js";
import { recordRevisions } from "./requirementViews.js";

/**
 * POST /api/requirement/move/bulk: one transaction; each requirement that actually moves gets a
 * 'moved' revision. Read, locked and moved in batches (WRITE_BATCH_ROWS), all or nothing.
 */
export async function moveRequirements(
  deps: ServiceDeps,
  actor: Actor,
  parentFolderId: number | null,
  requirementIds: number[],
): Promise<number[]> {
  const { tenantId } = actor;
  const ids = [...new Set(requirementIds)];
  return deps.db.transaction(async (trx) => {
    // Before the requirements' rows, in the order a folder's delete takes them: the target stays until commit.
    if (parentFolderId !== null) await lockFolderTreeOf(trx, tenantId, parentFolderId, "contents");
    const moving: number[] = [];
    const projects = new Set<number>();
    for (const batch of batches(ids)) {
      const rows = await findRequirements(trx, tenantId, batch, { forUpdate: true });
      if (rows.length !== batch.length) throw notFound("Requirement");
      for (const row of rows) projects.add(row.project_id);
      moving.push(...rows.filter((row) => row.parent_folder_id !== parentFolderId).map((row) => row.requirement_id));
    }
    if (parentFolderId !== null) {
      const folder = await findFolder(trx, tenantId, parentFolderId);
      if (!folder) throw fieldError("parent_folder_id", "The folder does not exist in this project");
      if ([...projects].some((projectId) => projectId !== folder.project_id)) {
        throw fieldError("parent_folder_id", "Requirements can only move to a folder of their own project");
      }
    }
    for (const batch of batches(moving)) {
      await touchRequirements(trx, tenantId, batch, { parent_folder_id: parentFolderId });
      await recordRevisions(
        { ...deps, db: trx },
        actor,
        batch.map((id) => ({ requirementId: id, action: "moved", changedFields: ["parent_folder_id"] })),
      );
    }
    return ids;
  });
}
