import { findFolder, folderSubtreeIds, lockFolderTree, softDeleteFolders } from "../../db/folderStore.js";
import { activeRequirementIdsInFolders } from "../../db/requirementListStore.js";
import { notFound } from "../../errors.js";
import { deleteRequirementsIn } from "../requirements/deleteRequirements.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * DELETE /api/folder/{id}: the folder, its subfolders and every requirement in them, in one
 * transaction. All soft: each requirement gets its 'deleted' revision and stays readable in its
 * history and in baselines; no row is orphaned (docs/decisions.md).
 */
export async function deleteFolder(deps: ServiceDeps<"jobs">, actor: Actor, folderId: number): Promise<void> {
  await withRequirementWrite(deps, actor, async (write) => {
    const { tx } = write;
    const folder = await findFolder(tx, actor.tenantId, folderId);
    if (!folder) throw notFound("Folder");
    // Writes into the subtree finish first or wait, so none lands in a folder deleted here.
    await lockFolderTree(tx, actor.tenantId, folder.project_id, "shape");
    const folderIds = await folderSubtreeIds(tx, actor.tenantId, folderId);
    if (folderIds.length === 0) throw notFound("Folder");
    const requirementIds = await activeRequirementIdsInFolders(tx, actor.tenantId, folderIds);
    await deleteRequirementsIn(write, requirementIds);
    await softDeleteFolders(tx, actor.tenantId, folderIds);
  });
}
