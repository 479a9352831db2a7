import { useQueries, useQuery } from "@tanstack/react-query";
import type { Coverage, UncoveredRequirements } from "../../common/schemas/coverage.js";
import { api } from "./client.js";
import { itemKeys } from "./items.js";

export type { Coverage, UncoveredRequirements } from "../../common/schemas/coverage.js";

/** Which requirements lack coverage: no linked Jira issue, or no linked requirement of the next level. */
export type Uncovered = "issues" | "next_level";

/** A project (0 = Global Requirements), or one of its folders with its whole subtree. */
export type CoverageScope = { projectId: number; folderId?: number | undefined };

/** Uncovered requirements per window the tree asks for: a few screens' worth. */
export const UNCOVERED_WINDOW_ITEMS = 200;

/**
 * Under the tree's own keys: every change that refreshes the tree (a requirement or folder written,
 * moved, deleted, imported) refreshes the figures and the uncovered lists with it.
 */
const coverageKeys = {
  figures: (scope: CoverageScope) => [...itemKeys.all(scope.projectId), "coverage", scope.folderId ?? "project"] as const,
  uncovered: (scope: CoverageScope, uncovered: Uncovered, window: number) =>
    [...itemKeys.all(scope.projectId), "uncovered", scope.folderId ?? "project", uncovered, window] as const,
};

const scopeQuery = (scope: CoverageScope) => ({ atlassian_project_id: scope.projectId, folder_id: scope.folderId });

export function useCoverage(scope: CoverageScope) {
  return useQuery({
    queryKey: coverageKeys.figures(scope),
    queryFn: () => api.get<Coverage>("/api/coverage", scopeQuery(scope)),
  });
}

/** The windows of an uncovered list in view, one query each; none while `uncovered` is unset. */
export function useUncoveredWindows(scope: CoverageScope, uncovered: Uncovered | undefined, windows: readonly number[]) {
  return useQueries({
    queries: (uncovered === undefined ? [] : windows).map((window) => ({
      queryKey: coverageKeys.uncovered(scope, uncovered ?? "issues", window),
      queryFn: () =>
        api.get<UncoveredRequirements>("/api/coverage", {
          ...scopeQuery(scope),
          uncovered,
          offset: window * UNCOVERED_WINDOW_ITEMS,
          limit: UNCOVERED_WINDOW_ITEMS,
        }),
    })),
  });
}
