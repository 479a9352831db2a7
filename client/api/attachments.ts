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
import { api } from "./client.js";
import { requirementKeys } from "./requirements.js";

/** A presigned download URL of a stored file (POST /api/sign-s3-get). */
export async function signDownload(attachment: Attachment): Promise<string> {
  const request: SignGetRequest = attachment;
  return (await api.post<SignGetResponse>("/api/sign-s3-get", request)).presigned_url;
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

function patchAttachments(requirementId: number, attachments: Attachment[]) {
  return api.patch<RequirementDetail>(`/api/requirement/${requirementId}`, { attachments });
}

/** Spec section 4: add and delete patch the requirement's attachment list, then the detail reloads. */
function useAttachmentMutation<V>(requirementId: number, change: (current: Attachment[], variables: V) => Promise<Attachment[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ current, variables }: { current: Attachment[]; variables: V }) =>
      patchAttachments(requirementId, await change(current, variables)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requirementKeys.detail(requirementId) }),
        queryClient.invalidateQueries({ queryKey: requirementKeys.revisions(requirementId) }),
      ]),
  });
}

export function useAddAttachment(requirementId: number) {
  return useAttachmentMutation(requirementId, async (current, file: File) => withAttachment(current, await uploadFile(file)));
}

export function useDeleteAttachment(requirementId: number) {
  return useAttachmentMutation(requirementId, async (current, uuidFileName: string) =>
    withoutAttachment(current, uuidFileName),
  );
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
