import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import type { MatrixExportBody, MatrixExportResponse, MatrixResponse } from "../../common/schemas/matrix.js";
import { api } from "./client.js";

export type { MatrixExportResponse, MatrixResponse } from "../../common/schemas/matrix.js";

/** Rows per window the grid asks for: a few screens' worth, well under the API's maximum. */
export const MATRIX_WINDOW_ROWS = 200;

export const matrixKeys = {
  window: (projectId: number, filter: MatrixFilter, window: number) => ["matrix", projectId, filter.words, filter.suspect, window] as const,
};

/** What the server filters the matrix by: the words of 'Filter requirements', and 'Suspect links only' (issue 34). */
export type MatrixFilter = { words: string; suspect: boolean };

/** The filter the matrix opens with. */
export const NO_MATRIX_FILTER: MatrixFilter = { words: "", suspect: false };

/**
 * One window of the matrix. Fresh for a few seconds: the grid mounts a moment after the screen's
 * first window has come (useMatrixStart) and shows that answer instead of asking for it again (at
 * 100,000 requirements a second wait of the same length before the first rows). A change the app
 * makes invalidates every window at once whatever its age.
 */
export const matrixWindowQuery = (projectId: number, filter: MatrixFilter, window: number) => ({
  queryKey: matrixKeys.window(projectId, filter, window),
  staleTime: 5000,
  queryFn: () =>
    api.get<MatrixResponse>("/api/requirement/matrix", {
      atlassian_project_id: projectId,
      offset: window * MATRIX_WINDOW_ROWS,
      limit: MATRIX_WINDOW_ROWS,
      filter: filter.words || undefined,
      suspect: filter.suspect ? "true" : undefined,
    }),
});

/**
 * The matrix's first window: its total sizes the grid. While a new filter's answer is on its way
 * the previous one stays on screen.
 */
export function useMatrixStart(projectId: number, filter: MatrixFilter) {
  return useQuery({ ...matrixWindowQuery(projectId, filter, 0), placeholderData: keepPreviousData });
}

/** The windows the grid has in view (window n holds rows n*200 to n*200+199), each asked for once. */
export function useMatrixWindows(projectId: number, filter: MatrixFilter, windows: readonly number[]) {
  return useQueries({ queries: windows.map((window) => matrixWindowQuery(projectId, filter, window)) });
}

export const startMatrixExport = (body: MatrixExportBody) => api.post<MatrixExportResponse>("/api/requirement/matrix/export", body);
