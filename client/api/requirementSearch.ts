import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RequirementSearchHit } from "../../common/schemas/requirementSearch.js";
import { api } from "./client.js";
import { requirementKeys } from "./requirements.js";

export type { Highlight, RequirementSearchHit } from "../../common/schemas/requirementSearch.js";

/** Where a search looks: these projects (0 = Global Requirements) or, without them, the whole site; optionally only some levels. */
export type RequirementSearchScope = { projectIds?: readonly number[]; levels?: readonly number[] };

/** Under the requirements' key, so any requirement change refreshes open searches too. */
const searchKey = (scope: RequirementSearchScope, text: string, limit: number) =>
  [...requirementKeys.all, "search", scope.projectIds ?? "site", scope.levels ?? "every level", text, limit] as const;

/** GET /api/requirement/search: the best matches of `text`, best first (nothing typed: the scope's first requirements). */
export async function searchRequirements(scope: RequirementSearchScope, text: string, limit: number): Promise<RequirementSearchHit[]> {
  const { requirements } = await api.get<{ requirements: RequirementSearchHit[] }>("/api/requirement/search", {
    q: text,
    limit,
    ...(scope.projectIds ? { atlassian_project_id: scope.projectIds } : {}),
    ...(scope.levels ? { level: scope.levels } : {}),
  });
  return requirements;
}

/** The search as the user types; the previous answer stays shown until the next one arrives. */
export function useRequirementSearch(scope: RequirementSearchScope, text: string, options: { enabled: boolean; limit: number }) {
  return useQuery({
    queryKey: searchKey(scope, text.trim(), options.limit),
    queryFn: () => searchRequirements(scope, text.trim(), options.limit),
    enabled: options.enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
