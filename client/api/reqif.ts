import type { JobStatusResponse } from "../../common/schemas/job.js";
import type { ReqifExportRequestInput, ReqifImportRequestInput, ReqifPreview } from "../../common/schemas/reqif.js";
import type { SignGetResponse } from "../../common/schemas/storage.js";
import { api } from "./client.js";
import { saveFile } from "./download.js";

type StoredFile = { file_name: string; original_file_name: string };

/** POST /api/import-reqif/preview: what an uploaded ReqIF file holds. */
export const previewReqif = (fileName: string) => api.post<ReqifPreview>("/api/import-reqif/preview", { file_name: fileName });

/** POST /api/import-reqif: the job to follow. */
export const startReqifImport = (request: ReqifImportRequestInput) => api.post<{ job_id: string }>("/api/import-reqif", request);

/** POST /api/requirement/export/reqif: the job to follow. */
export const startReqifExport = (request: ReqifExportRequestInput) =>
  api.post<{ job_id: string }>("/api/requirement/export/reqif", request);

/** A finished export's file, downloaded under the name the server gave it. */
export const downloadExport = (job: JobStatusResponse): Promise<string> => downloadStoredFile(job.result as StoredFile);

/** A file a job wrote (an export, an import's error list), downloaded under its name (POST /api/sign-s3-get). */
export async function downloadStoredFile({ file_name, original_file_name }: StoredFile): Promise<string> {
  const signed = await api.post<SignGetResponse>("/api/sign-s3-get", { uuid_file_name: file_name, original_file_name });
  saveFile(signed.presigned_url, signed.original_file_name);
  return signed.original_file_name;
}
