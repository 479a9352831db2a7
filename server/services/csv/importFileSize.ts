import { MAX_IMPORT_BYTES } from "../../../common/schemas/storage.js";
import { fieldError } from "../../errors.js";
import { type ObjectStorage, storageKey } from "../../storage/objectStorage.js";
import { FILE_NOT_FOUND } from "./importRequirements.js";

export const IMPORT_TOO_LARGE_MESSAGE = `File size cannot exceed ${MAX_IMPORT_BYTES / 1048576}MB`;

/**
 * Issue 37: the import's size limit holds for both storage drivers before any job starts. The local
 * disk refuses a larger upload as it arrives; S3 cannot bound a presigned PUT, so the stored
 * object's size is asked (HEAD) here, and a file over the limit is deleted and refused (400).
 */
export async function checkImportFileSize(storage: ObjectStorage, tenantId: string, fileName: string): Promise<void> {
  const key = storageKey(tenantId, "imports", fileName);
  const stored = await storage.head(key);
  if (!stored) throw fieldError("file_name", FILE_NOT_FOUND);
  if (stored.size > MAX_IMPORT_BYTES) {
    await storage.delete(key);
    throw fieldError("file_name", IMPORT_TOO_LARGE_MESSAGE);
  }
}
