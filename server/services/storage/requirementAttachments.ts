import type { Attachment } from "../../../common/schemas/requirement.js";
import { attachedFileNames } from "../../db/uploadStore.js";
import { storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";
import { verifyUploadedAttachment } from "./verifyUploadedAttachment.js";

/**
 * The files a requirement save adds to its attachment list must have really been uploaded by
 * this tenant, within 25 MB. Runs before the save's transaction: it asks storage, and PGlite's
 * one connection would be held by the transaction meanwhile.
 */
export async function verifyAddedAttachments(
  deps: ServiceDeps<"storage">,
  actor: Actor,
  requirementId: number,
  attachments: Attachment[],
): Promise<void> {
  const attached = new Set(await attachedFileNames(deps.db, actor.tenantId, requirementId));
  for (const attachment of attachments) {
    if (!attached.has(attachment.uuid_file_name)) {
      await verifyUploadedAttachment(deps, actor, attachment.uuid_file_name);
    }
  }
}

/**
 * After the save committed: the files it took off the list leave storage too. The save already
 * succeeded, so a failing delete is only logged (the object is orphaned, not lost data).
 */
export async function deleteRemovedAttachments(
  deps: ServiceDeps<"storage" | "logger">,
  actor: Actor,
  before: Attachment[],
  after: Attachment[],
): Promise<void> {
  const { tenantId } = actor;
  const kept = new Set(after.map((attachment) => attachment.uuid_file_name));
  for (const { uuid_file_name } of before) {
    if (kept.has(uuid_file_name)) continue;
    try {
      await deps.storage.delete(storageKey(tenantId, "attachments", uuid_file_name));
    } catch (error) {
      deps.logger.error({ err: error, tenantId, uuidFileName: uuid_file_name }, "Could not delete a removed attachment");
    }
  }
}
