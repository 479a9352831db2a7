import type { Attachment } from "../../../common/schemas/requirement.js";
import { attachedFileNames } from "../../db/uploadStore.js";
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
