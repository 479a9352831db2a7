import type { Folder } from "../../../common/schemas/folder.js";
import { insertFolder } from "../../db/folderStore.js";
import { assertFolderInProject } from "../requirements/requirementRules.js";
import type { Actor, ServiceDeps } from "../context.js";
import { getFolder } from "./readItems.js";

export async function createFolder(
  deps: ServiceDeps,
  actor: Actor,
  input: { name: string; parent_folder_id: number | null; project: number },
): Promise<Folder> {
  return deps.db.transaction(async (trx) => {
    const inTransaction = { ...deps, db: trx };
    await assertFolderInProject(inTransaction, actor, input.parent_folder_id, input.project);
    const folderId = await insertFolder(trx, actor.tenantId, {
      projectId: input.project,
      parentFolderId: input.parent_folder_id,
      name: input.name,
      createdBy: actor.accountId,
    });
    return getFolder(inTransaction, actor, folderId);
  });
}
