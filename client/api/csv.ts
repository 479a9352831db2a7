import { useMutation, useQueryClient } from "@tanstack/react-query";
import { IMPORT_UPLOAD_FAILED_MESSAGE, type ImportPreview, type ImportRequestInput } from "../../common/schemas/csvImport.js";
import { IMPORT_NOT_CSV_MESSAGE, isUploadSuccess, type SignPutRequest, type SignPutResponse } from "../../common/schemas/storage.js";
import { ApiError, api, buildUrl, tokenStore } from "./client.js";
import { saveBlob } from "./download.js";
import { folderKeys } from "./folders.js";
import { downloadExport } from "./reqif.js";
import { itemKeys } from "./items.js";
import { requirementKeys } from "./requirements.js";
import { useJob } from "../hooks/useJob.js";
import { becauseOf } from "./queryClient.js";

/**
 * Spec section 8's two upload messages: signing fails ('Did you upload a .csv?'), or storage
 * refuses the bytes ('Error uploading file'). Answers the stored name for POST /api/import-issues.
 */
export async function uploadImportFile(file: File): Promise<string> {
  const request: SignPutRequest = { operation: "import", original_file_name: file.name, file_type: file.type };
  let signed: SignPutResponse;
  try {
    signed = await api.post<SignPutResponse>("/api/sign-s3-put", request);
  } catch {
    throw new Error(IMPORT_NOT_CSV_MESSAGE);
  }
  const response = await fetch(signed.presigned_url, {
    method: "PUT",
    headers: file.type ? { "Content-Type": file.type } : {},
    body: file,
  }).catch(() => undefined);
  if (!response || !isUploadSuccess(response.status)) throw new Error(IMPORT_UPLOAD_FAILED_MESSAGE);
  return signed.uuid_file_name;
}

/** POST /api/import-issues/preview: an uploaded .xlsx's sheets, and the header row and column values of the sheet shown (null: the first). */
export const previewImportFile = (fileName: string, sheet: string | null) =>
  api.post<ImportPreview>("/api/import-issues/preview", { file_name: fileName, sheet });

/** POST /api/requirement/export/xlsx: the job to follow. */
const startXlsxExport = (projectId: number) =>
  api.post<{ job_id: string }>("/api/requirement/export/xlsx", { atlassian_project_id: projectId });

export function useStartImport(projectId: number) {
  const queryClient = useQueryClient();
  return {
    start: (request: ImportRequestInput) => api.post<{ job_id: string }>("/api/import-issues", request),
    /** After a finished import: the tree, folder details and pickers show the new requirements. */
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: itemKeys.all(projectId) }),
        queryClient.invalidateQueries({ queryKey: folderKeys.all }),
        queryClient.invalidateQueries({ queryKey: requirementKeys.all }),
      ]),
  };
}

/** The file name the server chose (Content-Disposition), or a plain fallback. */
function downloadName(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match?.[1] ?? "requirements.csv";
}

/**
 * GET /api/requirement/export, saved as the file the server names. The request carries the app
 * token, so it goes through fetch and a temporary object URL rather than a plain link.
 */
export async function downloadRequirementsExport(projectId: number): Promise<string> {
  const token = tokenStore.get();
  const response = await fetch(buildUrl("/api/requirement/export", { atlassian_project_id: projectId }), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: shown as it is
    }
    throw new ApiError(response.status, body);
  }
  const name = downloadName(response);
  saveBlob(await response.blob(), name);
  return name;
}

/**
 * The export in the chosen format: CSV streamed at once, .xlsx as a job whose file downloads when it
 * is ready (followed while the dialog that asked for it is open).
 */
export function useExportRequirements(projectId: number) {
  const job = useJob();
  return useMutation({
    mutationFn: async (format: "csv" | "xlsx") => {
      if (format === "csv") return downloadRequirementsExport(projectId);
      const started = await startXlsxExport(projectId);
      const end = await job.follow(started.job_id);
      if (end.status !== "finished") throw new Error(end.error ?? "The export failed");
      return downloadExport(end);
    },
    meta: { failure: becauseOf("There was a problem retrieving your requirements export") },
  });
}
