import type { SignGetResponse } from "../../../common/schemas/storage.js";
import { findUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { notFound } from "../../errors.js";
import { areaOf, storageKey } from "../../storage/objectStorage.js";

/**
 * POST /api/sign-s3-get: a download URL for one of the caller's tenant's files. The file is
 * looked up in this tenant's rows, so another tenant's uuid answers 404 like an unknown one.
 * It downloads under the name it was uploaded with, whatever name the request carries.
 */
export async function signDownload(
  deps: Pick<AppDeps, "db" | "storage">,
  tenantId: string,
  uuidFileName: string,
): Promise<SignGetResponse> {
  const upload = await findUpload(deps.db, tenantId, uuidFileName);
  if (!upload) throw notFound("File");
  const key = storageKey(tenantId, areaOf(upload.operation), upload.uuidFileName);
  const presignedUrl = await deps.storage.presignGet(key, { downloadName: upload.originalFileName });
  return { presigned_url: presignedUrl, original_file_name: upload.originalFileName };
}
