import { insertUpload } from "../../db/uploadStore.js";
import type { AppDeps } from "../../deps.js";
import { newStoredFileName, storageKey } from "../../storage/objectStorage.js";

export type SavedExport = { uuidFileName: string; presignedUrl: string };

/**
 * For export jobs: stores the generated file under the tenant's exports and answers a download
 * URL. The file is recorded like an upload, so POST /api/sign-s3-get can sign it again later.
 */
export async function saveExport(
  deps: Pick<AppDeps, "db" | "storage">,
  tenantId: string,
  file: { fileName: string; body: Buffer | Uint8Array | string; contentType: string; createdBy: string },
): Promise<SavedExport> {
  const uuidFileName = newStoredFileName(file.fileName);
  const key = storageKey(tenantId, "exports", uuidFileName);
  await deps.storage.putObject(key, file.body, file.contentType);
  await insertUpload(deps.db, tenantId, {
    uuidFileName,
    operation: "export",
    originalFileName: file.fileName,
    contentType: file.contentType,
    createdBy: file.createdBy,
  });
  return { uuidFileName, presignedUrl: await deps.storage.presignGet(key, { downloadName: file.fileName }) };
}
