import type { Folder } from "../../../common/schemas/folder.js";
import { folderPathIds, lockFolder, lockFolderTree, replaceFolderIssues, updateFolder as storeUpdateFolder } from "../../db/folderStore.js";
import { fieldError } from "../../errors.js";
import { assertFolderInProject } from "../requirements/requirementRules.js";
import type { Actor, ServiceDeps } from "../context.js";
import { getFolder, getFolderRow } from "./readItems.js";

export const FOLDER_CYCLE_MESSAGE = "A folder cannot be moved into itself or one of its subfolders";

/** PUT /api/folder/{id}: edit and move. Absent description, issues or parent stay as they are. */
export async function updateFolder(
  deps: ServiceDeps,
  actor: Actor,
  folderId: number,
  input: { name: string; description?: string | null; issues?: string[]; parent_folder_id?: number | null },
): Promise<Folder> {
  const { tenantId } = actor;
  return deps.db.transaction(async (trx) => {
    const inTransaction = { ...deps, db: trx };
    const { project_id: projectId } = await getFolderRow(inTransaction, actor, folderId);
    // The tree before the folder's row, in the order a delete takes them, so neither waits on the
    // other; exclusively when a parent is named, before its ancestors are read (another move could
    // otherwise close a cycle with this one).
    await lockFolderTree(trx, tenantId, projectId, input.parent_folder_id === undefined ? "contents" : "shape");
    await lockFolder(trx, tenantId, folderId);
    const folder = await getFolderRow(inTransaction, actor, folderId);
    const parentFolderId = input.parent_folder_id === undefined ? folder.parent_folder_id : input.parent_folder_id;
    if (parentFolderId !== null && parentFolderId !== folder.parent_folder_id) {
      if (parentFolderId === folderId) throw fieldError("parent_folder_id", FOLDER_CYCLE_MESSAGE);
      await assertFolderInProject(inTransaction, actor, parentFolderId, folder.project_id);
      if ((await folderPathIds(trx, tenantId, parentFolderId)).includes(folderId)) {
        throw fieldError("parent_folder_id", FOLDER_CYCLE_MESSAGE);
      }
    }
    await storeUpdateFolder(trx, tenantId, folderId, {
      name: input.name,
      description: input.description ?? folder.description,
      parentFolderId,
    });
    if (input.issues) await replaceFolderIssues(trx, tenantId, folderId, input.issues);
    return getFolder(inTransaction, actor, folderId);
  });
}
