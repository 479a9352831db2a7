import type { SignGetResponse } from "../../../common/schemas/storage.js";
import { findUpload } from "../../db/uploadStore.js";
import { notFound } from "../../errors.js";
import { areaOf, storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";

/**
 * POST /api/sign-s3-get: a download URL for one of the caller's tenant's files. The file is
 * looked up in this tenant's rows, so another tenant's uuid answers 404 like an unknown one.
 * It downloads under the name it was uploaded with, whatever name the request carries.
 */
export async function signDownload(deps: ServiceDeps<"storage">, actor: Actor, uuidFileName: string): Promise<SignGetResponse> {
  const upload = await findUpload(deps.db, actor.tenantId, uuidFileName);
  if (!upload) throw notFound("File");
  const key = storageKey(actor.tenantId, areaOf(upload.operation), upload.uuidFileName);
  const presignedUrl = await deps.storage.presignGet(key, { downloadName: upload.originalFileName });
  return { presigned_url: presignedUrl, original_file_name: upload.originalFileName };
}
