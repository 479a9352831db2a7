import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Attachment, RequirementDetail } from "../../common/schemas/requirement.js";
import {
  isUploadSuccess,
  type SignGetRequest,
  type SignGetResponse,
  type SignPutRequest,
  type SignPutResponse,
} from "../../common/schemas/storage.js";
import { withAttachment, withoutAttachment } from "../components/Attachments/attachmentRules.js";
import { ApiError, api } from "./client.js";
import { saveFile } from "./download.js";
import { becauseOf } from "./queryClient.js";
import { requirementKeys } from "./requirements.js";

/** A presigned download URL of a stored file (POST /api/sign-s3-get). */
async function signDownload(attachment: Attachment): Promise<string> {
  const request: SignGetRequest = attachment;
  return (await api.post<SignGetResponse>("/api/sign-s3-get", request)).presigned_url;
}

/** Spec section 4: an attachment downloads from a freshly signed URL. */
export function useDownloadAttachment() {
  return useMutation({
    mutationFn: async (attachment: Attachment) => saveFile(await signDownload(attachment), attachment.original_file_name),
    meta: { failure: becauseOf("There was a problem retrieving your attachment") },
  });
}

/**
 * Signs the upload, then PUTs the bytes straight to storage with the file's content type. Storage
 * answers 200 (local disk, S3) or 204; anything else is the upload's failure.
 */
export async function uploadFile(file: File): Promise<Attachment> {
  const request: SignPutRequest = { operation: "attachment", original_file_name: file.name, file_type: file.type };
  const signed = await api.post<SignPutResponse>("/api/sign-s3-put", request);
  const response = await fetch(signed.presigned_url, {
    method: "PUT",
    headers: file.type ? { "Content-Type": file.type } : {},
    body: file,
  });
  if (!isUploadSuccess(response.status)) throw new Error(await uploadFailureText(response));
  return { original_file_name: file.name, uuid_file_name: signed.uuid_file_name };
}

async function uploadFailureText(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { Result?: unknown };
    if (typeof body.Result === "string") return body.Result;
  } catch {
    // S3 answers XML; its status is what the user can pass on.
  }
  return `Storage answered ${response.status}`;
}

/** Reads of the requirement before a list change gives up to another save that keeps landing first. */
const ATTACHMENT_SAVE_ATTEMPTS = 3;

/**
 * PATCH replaces the whole list, and storage then deletes every file the list drops: built from
 * the list the page shows, it would remove a file someone attached since. So the change is applied
 * to the requirement as it is now and written only at that revision (a save in between answers
 * 409, and the requirement is read again).
 */
async function patchAttachments(requirementId: number, change: (current: Attachment[]) => Attachment[]): Promise<RequirementDetail> {
  for (let attempt = 1; ; attempt++) {
    const latest = await api.get<RequirementDetail>(`/api/requirement/${requirementId}`);
    try {
      return await api.patch<RequirementDetail>(`/api/requirement/${requirementId}`, {
        attachments: change(latest.attachments),
        revision: latest.revision,
      });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409) || attempt === ATTACHMENT_SAVE_ATTEMPTS) throw error;
    }
  }
}

/** Spec section 4: add and delete patch the requirement's attachment list, then the detail reloads. */
function useAttachmentMutation<V>(
  requirementId: number,
  prepare: (variables: V) => Promise<(current: Attachment[]) => Attachment[]>,
  meta: { success: string; failure: (error: Error) => string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => patchAttachments(requirementId, await prepare(variables)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requirementKeys.detail(requirementId) }),
        queryClient.invalidateQueries({ queryKey: requirementKeys.revisions(requirementId) }),
      ]),
    meta,
  });
}

export function useAddAttachment(requirementId: number) {
  return useAttachmentMutation(
    requirementId,
    async (file: File) => {
      const added = await uploadFile(file);
      return (current) => withAttachment(current, added);
    },
    { success: "Attachment added successfully", failure: becauseOf("There was a problem adding your attachment") },
  );
}

export function useDeleteAttachment(requirementId: number) {
  return useAttachmentMutation(requirementId, async (uuidFileName: string) => (current) => withoutAttachment(current, uuidFileName), {
    success: "Attachment deleted successfully",
    failure: becauseOf("There was a problem deleting your attachment"),
  });
}

/** The preview's image URL; signed again when the dialog opens, since presigned URLs expire. */
export function useAttachmentUrl(attachment: Attachment) {
  return useQuery({
    queryKey: ["attachments", "url", attachment.uuid_file_name],
    queryFn: () => signDownload(attachment),
    gcTime: 0,
    retry: false,
  });
}
