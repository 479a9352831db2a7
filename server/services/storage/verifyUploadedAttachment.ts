import { ATTACHMENT_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_BYTES } from "../../../common/schemas/storage.js";
import { findUpload, recordUploadedObject, type Upload } from "../../db/uploadStore.js";
import { badRequest } from "../../errors.js";
import { areaOf, storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";

export const ATTACHMENT_NOT_UPLOADED_MESSAGE = "Error adding attachment: The file was not uploaded";

/**
 * For the requirement PATCH that attaches an upload: the file must be this tenant's attachment,
 * really be in storage, and be at most 25 MB. S3 cannot bound a presigned PUT, so the size is
 * checked here, from storage itself; an oversized file is removed. Call it before opening the
 * PATCH's transaction (it asks storage over the network) and pass the root db.
 */
export async function verifyUploadedAttachment(deps: ServiceDeps<"storage">, actor: Actor, uuidFileName: string): Promise<Upload> {
  const { tenantId } = actor;
  const upload = await findUpload(deps.db, tenantId, uuidFileName);
  if (upload?.operation !== "attachment") throw badRequest(ATTACHMENT_NOT_UPLOADED_MESSAGE);
  const key = storageKey(tenantId, areaOf(upload.operation), upload.uuidFileName);
  const stored = await deps.storage.head(key);
  if (!stored) throw badRequest(ATTACHMENT_NOT_UPLOADED_MESSAGE);
  if (stored.size > MAX_ATTACHMENT_BYTES) {
    await deps.storage.delete(key);
    throw badRequest(ATTACHMENT_TOO_LARGE_MESSAGE);
  }
  await recordUploadedObject(deps.db, tenantId, uuidFileName, stored);
  return { ...upload, sizeBytes: stored.size, contentType: stored.contentType };
}
