import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Baseline, BaselineDetail, BaselineRevision, Comparison, CreateBaselineInput } from "../../common/schemas/baseline.js";
import type { PageFields } from "../../common/schemas/paging.js";
import { api } from "./client.js";
import { usePagedList } from "./pages.js";
import { becauseOf } from "./queryClient.js";

export type { Baseline, BaselineRevision, Comparison, RequirementDiff } from "../../common/schemas/baseline.js";

/** Rows of a baseline's table fetched at a time as the user scrolls. */
export const BASELINE_ROWS_PAGE = 500;
/** Differences fetched at a time as the user scrolls the comparison. */
export const COMPARISON_PAGE = 50;

export const baselineKeys = {
  all: ["baselines"] as const,
  list: (projectId: number) => ["baselines", "list", projectId] as const,
  lite: (baselineId: number) => ["baselines", "lite", baselineId] as const,
  page: (baselineId: number, offset: number) => ["baselines", "page", baselineId, offset] as const,
  comparison: (projectId: number, first: number, second: number, includeUnchanged: boolean) =>
    ["baselines", "comparison", projectId, first, second, includeUnchanged] as const,
};

/** GET /api/baseline: newest first. */
/** A project's baselines, newest first, a page at a time. */
export function useBaselines(projectId: number) {
  return usePagedList(baselineKeys.list(projectId), async (offset) => {
    const { baselines, ...paging } = await api.get<{ baselines: Baseline[] } & PageFields>("/api/baseline", {
      atlassian_project_id: projectId,
      offset,
    });
    return { items: baselines, ...paging };
  });
}

export function useBaseline(projectId: number, baselineId: number | undefined) {
  return useQuery({
    queryKey: baselineKeys.lite(baselineId ?? 0),
    queryFn: () => api.get<Baseline>(`/api/baseline/${baselineId}/lite`, { atlassian_project_id: projectId }),
    enabled: baselineId !== undefined,
    retry: false,
  });
}

/** One page of a baseline's frozen requirements, in id order (the table asks for the pages it shows). */
export function fetchBaselinePage(projectId: number, baselineId: number, offset: number): Promise<BaselineRevision[]> {
  return api
    .get<BaselineDetail>(`/api/baseline/${baselineId}`, {
      atlassian_project_id: projectId,
      offset,
      limit: BASELINE_ROWS_PAGE,
    })
    .then((detail) => detail.requirement_revisions);
}

export function useCreateBaseline(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<CreateBaselineInput, "project">) => api.post<Baseline>("/api/baseline", { ...input, project: projectId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: baselineKeys.list(projectId) }),
    meta: { success: "Baseline created successfully", failure: becauseOf("There was a problem saving your baseline") },
  });
}

export function useDeleteBaseline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (baselineId: number) => api.delete<{ baseline_id: number }>(`/api/baseline/${baselineId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: baselineKeys.all }),
    meta: { success: "Baseline deleted successfully", failure: becauseOf("There was a problem deleting your baseline") },
  });
}

/** GET /api/baseline/compare, page after page as the user scrolls. */
export function useComparison(projectId: number, pair: { baseline1: number; baseline2: number } | undefined, includeUnchanged: boolean) {
  return useInfiniteQuery({
    queryKey: baselineKeys.comparison(projectId, pair?.baseline1 ?? 0, pair?.baseline2 ?? 0, includeUnchanged),
    queryFn: ({ pageParam }) =>
      api.get<Comparison>("/api/baseline/compare", {
        atlassian_project_id: projectId,
        baseline1: pair?.baseline1,
        baseline2: pair?.baseline2,
        include_unchanged: includeUnchanged,
        offset: pageParam,
        limit: COMPARISON_PAGE,
      }),
    initialPageParam: 0,
    getNextPageParam: (page) => (page.has_more ? page.offset + page.limit : undefined),
    enabled: pair !== undefined,
    retry: false,
  });
}
