import { z } from "zod";
import { choiceSchema } from "./item.js";

/** Spec sections 5 and 9: attachment max 25 MB. */
export const MAX_ATTACHMENT_BYTES = 26214400;
/**
 * The spec names no limit for import files. A Jira export of 100,000 issues with its usual
 * columns runs to hundreds of MB, and the import streams the file (memory flat in its size), so
 * the ceiling only stops a runaway upload.
 */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
export const ATTACHMENT_TOO_LARGE_MESSAGE = "Error adding attachment: File size cannot exceed 25MB";
/** Spec section 8, shown by the import dialog. */
export const IMPORT_NOT_CSV_MESSAGE = "Error getting signed url. Did you upload a .csv?";

export const UploadOperationSchema = choiceSchema(["attachment", "import"]);
export type UploadOperation = z.infer<typeof UploadOperationSchema>;

const fileName = z.string().trim().min(1, "Required").max(255, "Enter no more than 255 characters");

/** The name we store a file under: a UUID, plus the original's extension. */
export const UuidFileNameSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[a-z0-9]{1,16})?$/, "Not a stored file name");

export const SignPutRequestSchema = z.object({
  operation: UploadOperationSchema,
  original_file_name: fileName,
  /** The browser's File.type; empty when it does not know the type. */
  file_type: z.string().max(255).default(""),
});
export type SignPutRequest = z.input<typeof SignPutRequestSchema>;

export const SignPutResponseSchema = z.object({
  presigned_url: z.string(),
  uuid_file_name: z.string(),
});
export type SignPutResponse = z.infer<typeof SignPutResponseSchema>;

export const SignGetRequestSchema = z.object({
  original_file_name: fileName,
  uuid_file_name: UuidFileNameSchema,
});
export type SignGetRequest = z.input<typeof SignGetRequestSchema>;

export const SignGetResponseSchema = z.object({
  presigned_url: z.string(),
  original_file_name: z.string(),
});
export type SignGetResponse = z.infer<typeof SignGetResponseSchema>;

/** Spec section 4: an upload counts as successful when storage answers 200 or 204. */
export function isUploadSuccess(status: number): boolean {
  return status === 200 || status === 204;
}
