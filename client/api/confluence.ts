import { useQuery } from "@tanstack/react-query";
import type { ContentDetails, PageSearchResponse } from "../../common/schemas/confluence.js";
import type { RequirementLite } from "../../common/schemas/requirement.js";
import { HostRequestError } from "../host/connectHost.js";
import type { Host } from "../host/types.js";
import { api } from "./client.js";

export type { ContentDetails, PageSearchResult } from "../../common/schemas/confluence.js";

export const confluenceKeys = {
  contents: (contentIds: readonly string[]) => ["confluence", "contents", ...contentIds] as const,
  requirementsOfContent: (contentId: string) => ["confluence", "requirements-of", contentId] as const,
  jiraProject: ["confluence", "jira-project"] as const,
  chosenRequirements: (requirementIds: readonly number[]) => ["confluence", "chosen-requirements", ...requirementIds] as const,
};

type Lites = { requirements: RequirementLite[] };

/** The named requirements, in the order asked (unknown or deleted ones are left out). */
export async function loadRequirementsById(requirementIds: readonly number[]): Promise<RequirementLite[]> {
  if (requirementIds.length === 0) return [];
  const { requirements } = await api.post<Lites>("/api/requirement/by-id/lite", { requirementIds, with_description: true });
  const byId = new Map(requirements.map((requirement) => [requirement.requirement_id, requirement]));
  return requirementIds.flatMap((id) => byId.get(id) ?? []);
}

/** Every requirement linked to the page, page after page of the list (the editor saves the whole list back). */
export async function loadRequirementsOfContent(contentId: string): Promise<RequirementLite[]> {
  const requirements: RequirementLite[] = [];
  for (let offset = 0; ; ) {
    const page = await api.get<Lites & { has_more?: boolean }>("/api/requirement/lite", {
      atlassian_content_id: contentId,
      with_description: "true",
      offset,
    });
    requirements.push(...page.requirements);
    if (!page.has_more || page.requirements.length === 0) return requirements;
    offset += page.requirements.length;
  }
}

/** The page macro editor's save: exactly these requirements are linked to the page afterwards. */
export async function saveRequirementsOfContent(contentId: string, requirementIds: readonly number[]): Promise<void> {
  await api.put(`/api/confluence/content/${encodeURIComponent(contentId)}`, { requirements: requirementIds });
}

export async function searchPages(title: string, start: number): Promise<PageSearchResponse> {
  return api.get<PageSearchResponse>("/api/confluence/page-search", { title, start });
}

/** Title, space, last update and contributors of linked pages, read by our server from Confluence. */
export function useContentDetails(contentIds: readonly string[], enabled: boolean) {
  return useQuery({
    queryKey: confluenceKeys.contents(contentIds),
    queryFn: async () =>
      (await api.post<{ results: ContentDetails[] }>("/api/confluence/content/search", { contents: contentIds })).results,
    enabled: enabled && contentIds.length > 0,
    // A failing wiki shows its message at once rather than after a silent retry.
    retry: false,
  });
}

/** Where links to global requirements open in Jira. */
export function useJiraProjectForLinks() {
  return useQuery({
    queryKey: confluenceKeys.jiraProject,
    queryFn: async () => (await api.get<{ atlassian_project_id: number | null }>("/api/confluence/jira-project")).atlassian_project_id,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The Linked requirements macro keeps its choice as comma-separated ids in its `requirements` parameter. */
export const REQUIREMENTS_PARAMETER = "requirements";

export function parseRequirementIds(value: unknown): number[] {
  const text = typeof value === "string" ? value : (value as { value?: unknown } | null)?.value;
  if (typeof text !== "string") return [];
  return [
    ...new Set(
      text
        .split(",")
        .map((part) => part.trim())
        .filter((part) => /^\d+$/.test(part))
        .map(Number),
    ),
  ];
}

export const requirementIdsParameter = (requirementIds: readonly number[]) => ({ [REQUIREMENTS_PARAMETER]: requirementIds.join(",") });

/**
 * The macro's chosen requirements: the `requirements` parameter Confluence put in the iframe URL;
 * else the macro history of the page version the URL names (spec: wiki macro history lookup);
 * else the macro's data from the host bridge.
 */
export async function macroRequirementIds(search: string, host: Pick<Host, "request" | "getMacroData">): Promise<number[]> {
  const params = new URLSearchParams(search);
  const fromUrl = parseRequirementIds(params.get(REQUIREMENTS_PARAMETER));
  if (fromUrl.length > 0) return fromUrl;
  const contentId = params.get("contentId");
  const macroId = params.get("macroId");
  const pageVersion = params.get("pageVersion");
  if (contentId && macroId && pageVersion && /^\d+$/.test(pageVersion)) {
    try {
      const history = await host.request<{ parameters?: Record<string, unknown> }>({
        url: `/rest/api/content/${encodeURIComponent(contentId)}/history/${pageVersion}/macro/id/${encodeURIComponent(macroId)}`,
      });
      return parseRequirementIds(history?.parameters?.[REQUIREMENTS_PARAMETER]);
    } catch (error) {
      // A macro not yet saved in any version (a draft) has no history: nothing chosen yet.
      if (error instanceof HostRequestError && error.status === 404) return [];
      throw error;
    }
  }
  return parseRequirementIds((await host.getMacroData())[REQUIREMENTS_PARAMETER]);
}
