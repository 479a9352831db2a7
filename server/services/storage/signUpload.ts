import path from "node:path";
import {
  IMPORT_NOT_CSV_MESSAGE,
  MAX_ATTACHMENT_BYTES,
  MAX_IMPORT_BYTES,
  type SignPutResponse,
  type UploadOperation,
} from "../../../common/schemas/storage.js";
import { insertUpload } from "../../db/uploadStore.js";
import { badRequest } from "../../errors.js";
import { areaOf, newStoredFileName, storageKey } from "../../storage/objectStorage.js";
import type { Actor, ServiceDeps } from "../context.js";

/** What the import dialog reads: CSV, an Excel workbook, and ReqIF as a file or an archive. */
const IMPORT_FILE_EXTENSIONS = [".csv", ".xlsx", ".reqif", ".reqifz"];

export type SignUploadInput = { operation: UploadOperation; original_file_name: string; file_type: string };

/**
 * POST /api/sign-s3-put: records the pending upload and signs a PUT for it. The file gets a
 * fresh name under the caller's tenant, so an upload can neither overwrite nor reach another's.
 */
export async function signUpload(deps: ServiceDeps<"storage">, actor: Actor, input: SignUploadInput): Promise<SignPutResponse> {
  const importable = IMPORT_FILE_EXTENSIONS.includes(path.extname(input.original_file_name).toLowerCase());
  if (input.operation === "import" && !importable) throw badRequest(IMPORT_NOT_CSV_MESSAGE);
  const uuidFileName = newStoredFileName(input.original_file_name);
  const key = storageKey(actor.tenantId, areaOf(input.operation), uuidFileName);
  const presignedUrl = await deps.storage.presignPut(key, {
    contentType: input.file_type,
    maxBytes: input.operation === "import" ? MAX_IMPORT_BYTES : MAX_ATTACHMENT_BYTES,
  });
  await insertUpload(deps.db, actor.tenantId, {
    uuidFileName,
    operation: input.operation,
    originalFileName: input.original_file_name,
    contentType: input.file_type || null,
    createdBy: actor.accountId,
  });
  return { presigned_url: presignedUrl, uuid_file_name: uuidFileName };
}
