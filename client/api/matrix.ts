import { useQuery } from "@tanstack/react-query";
import type { JobStatusResponse } from "../../common/schemas/job.js";
import type { MatrixExportBody, MatrixExportResponse, MatrixResponse } from "../../common/schemas/matrix.js";
import { api } from "./client.js";

export type { MatrixExportResponse, MatrixResponse } from "../../common/schemas/matrix.js";

/** Spec sections 4 and 9: an export job is asked about every 2 seconds while queued or started. */
export const EXPORT_POLL_MS = 2000;
export const isJobRunning = (status: string | undefined) => status === "queued" || status === "started";

export const matrixKeys = {
  matrix: (projectId: number) => ["matrix", projectId] as const,
  job: (jobId: string) => ["job", jobId] as const,
};

export function useMatrix(projectId: number) {
  return useQuery({
    queryKey: matrixKeys.matrix(projectId),
    queryFn: () => api.get<MatrixResponse>("/api/requirement/matrix", { atlassian_project_id: projectId }),
  });
}

export const startMatrixExport = (body: MatrixExportBody) => api.post<MatrixExportResponse>("/api/requirement/matrix/export", body);

/** The job's progress, asked again every 2 s until it is neither queued nor started. */
export function useJobProgress(jobId: string | undefined) {
  return useQuery({
    queryKey: matrixKeys.job(jobId ?? ""),
    queryFn: () => api.get<JobStatusResponse>(`/api/job/status/${jobId}`),
    enabled: jobId !== undefined,
    retry: false,
    refetchInterval: (query) => (isJobRunning(query.state.data?.status ?? "queued") ? EXPORT_POLL_MS : false),
  });
}
