import { findFolder, folderSubtreeIds, lockFolderTree, softDeleteFolders } from "../../db/folderStore.js";
import { activeRequirementIdsInFolders } from "../../db/requirements/index.js";
import { notFound } from "../../errors.js";
import { deleteRequirementsIn } from "../requirements/deleteRequirements.js";
import { WRITE_BATCH_ROWS } from "../batches.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * DELETE /api/folder/{id}: the folder, its subfolders and every requirement in them, in one
 * transaction. All soft: each requirement gets its 'deleted' revision and stays readable in its
 * history and in baselines; no row is orphaned (docs/decisions.md). However large the subtree, it is
 * read and written in batches (WRITE_BATCH_ROWS): only the ids are held at once.
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
    const requirementIds: number[] = [];
    for (let page: number[] = [0]; page.length > 0; ) {
      page = await activeRequirementIdsInFolders(tx, actor.tenantId, folderIds, {
        afterRequirementId: requirementIds.at(-1) ?? 0,
        limit: WRITE_BATCH_ROWS,
      });
      requirementIds.push(...page);
    }
    await deleteRequirementsIn(write, requirementIds);
    await softDeleteFolders(tx, actor.tenantId, folderIds);
  });
}
