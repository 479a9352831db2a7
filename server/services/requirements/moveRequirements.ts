import { findFolder } from "../../db/folderStore.js";
import { setRequirementColumns } from "../../db/requirements/index.js";
import { fieldError, notFound } from "../../errors.js";
import { batches } from "../batches.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "./requirementWrite.js";

/**
 * POST /api/requirement/move/bulk: one transaction; each requirement that actually moves gets a
 * 'moved' revision. Read, locked and moved in batches (WRITE_BATCH_ROWS), all or nothing.
 */
export async function moveRequirements(
  deps: ServiceDeps<"jobs">,
  actor: Actor,
  parentFolderId: number | null,
  requirementIds: number[],
): Promise<number[]> {
  const { tenantId } = actor;
  const ids = [...new Set(requirementIds)];
  return withRequirementWrite(deps, actor, async (write) => {
    // The target folder's tree before the requirements' rows, as a folder's delete takes them: the target stays until commit.
    await write.lock([], { folderId: parentFolderId });
    const moving: number[] = [];
    const projects = new Set<number>();
    for (const batch of batches(ids)) {
      const rows = await write.lock(batch);
      if (rows.length !== batch.length) throw notFound("Requirement");
      for (const row of rows) projects.add(row.project_id);
      moving.push(...rows.filter((row) => row.parent_folder_id !== parentFolderId).map((row) => row.requirement_id));
    }
    if (parentFolderId !== null) {
      const folder = await findFolder(write.tx, tenantId, parentFolderId);
      if (!folder) throw fieldError("parent_folder_id", "The folder does not exist in this project");
      if ([...projects].some((projectId) => projectId !== folder.project_id)) {
        throw fieldError("parent_folder_id", "Requirements can only move to a folder of their own project");
      }
    }
    for (const batch of batches(moving)) {
      await setRequirementColumns(write.tx, tenantId, batch, { parent_folder_id: parentFolderId });
      for (const requirementId of batch) write.record({ requirementId, action: "moved", changedFields: ["parent_folder_id"] });
    }
    return ids;
  });
}
