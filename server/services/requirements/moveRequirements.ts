import { findFolder } from "../../db/folderStore.js";
import { setRequirementColumns } from "../../db/requirementWriteStore.js";
import { fieldError, notFound } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { withRequirementWrite } from "./requirementWrite.js";

/** POST /api/requirement/move/bulk: one transaction; each requirement that actually moves gets a 'moved' revision. */
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
    const rows = await write.lock(ids, { folderId: parentFolderId });
    if (rows.length !== ids.length) throw notFound("Requirement");
    if (parentFolderId !== null) {
      const folder = await findFolder(write.tx, tenantId, parentFolderId);
      if (!folder) throw fieldError("parent_folder_id", "The folder does not exist in this project");
      if (rows.some((row) => row.project_id !== folder.project_id)) {
        throw fieldError("parent_folder_id", "Requirements can only move to a folder of their own project");
      }
    }
    const moving = rows.filter((row) => row.parent_folder_id !== parentFolderId).map((row) => row.requirement_id);
    await setRequirementColumns(write.tx, tenantId, moving, { parent_folder_id: parentFolderId });
    for (const requirementId of moving) write.record({ requirementId, action: "moved", changedFields: ["parent_folder_id"] });
    return ids;
  });
}
