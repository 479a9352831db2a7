import type { Attachment } from "../../../common/schemas/requirement.js";
import { ATTACHMENT_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_BYTES } from "../../../common/schemas/storage.js";

/** Spec section 9: only these images get a preview. */
export const PREVIEW_EXTENSIONS = ["png", "jpeg", "jpg"] as const;
export const PREVIEW_ERROR = 'Error previewing attachment. Please contact rmCloud support via the "Get help" button';

/** Whether the file's extension (case-insensitive) is one the image preview shows. */
export function isPreviewable(fileName: string): boolean {
  const dot = fileName.lastIndexOf(".");
  if (dot < 0) return false;
  const extension = fileName.slice(dot + 1).toLowerCase();
  return (PREVIEW_EXTENSIONS as readonly string[]).includes(extension);
}

/** The error toast's text for a file too large to attach, or undefined when it may be uploaded. */
export function attachmentSizeError(sizeBytes: number): string | undefined {
  return sizeBytes > MAX_ATTACHMENT_BYTES ? ATTACHMENT_TOO_LARGE_MESSAGE : undefined;
}

/** The list PATCH sends after an upload: the existing attachments, then the new one. */
export function withAttachment(attachments: readonly Attachment[], added: Attachment): Attachment[] {
  return [
    ...attachments.filter((attachment) => attachment.uuid_file_name !== added.uuid_file_name),
    { original_file_name: added.original_file_name, uuid_file_name: added.uuid_file_name },
  ];
}

/** The list PATCH sends after a delete: every attachment but that one. */
export function withoutAttachment(attachments: readonly Attachment[], uuidFileName: string): Attachment[] {
  return attachments.filter((attachment) => attachment.uuid_file_name !== uuidFileName);
}
