import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PageFields } from "../../common/schemas/paging.js";
import { api } from "./client.js";
import { usePagedList } from "./pages.js";
import { becauseOf } from "./queryClient.js";
import type { Attribute } from "../../common/schemas/attribute.js";
import type { RequirementDetail, RequirementLite, Revision, SuspectChange } from "../../common/schemas/requirement.js";
import type { ReviewSuspectLinksInput, SuspectLink } from "../../common/schemas/suspectLinks.js";
import { folderKeys } from "./folders.js";
import { itemKeys } from "./items.js";

export type { LinkedRequirement, RequirementDetail, RequirementLite, Revision, SuspectChange } from "../../common/schemas/requirement.js";
export type { SuspectLink } from "../../common/schemas/suspectLinks.js";
export type CustomAttribute = Attribute;
/** A custom field's value: free text, or the chosen option's id. */
export type AttributeValue = string | number;

/** The fields the create and edit forms send (spec section 7). */
export type RequirementInput = {
  name: string;
  description: string;
  display_id: string | null;
  requirement_type_id: number;
  status: string | null;
  assigned_to: string | null;
  components: string[];
  /** Left out by an edit that did not change them (see requirementInputFromForm). */
  issues?: string[];
  contents: string[];
  /** Left out when the project's custom fields could not be read: the stored values then stay. */
  attributes?: Record<string, AttributeValue>;
};

export const requirementKeys = {
  all: ["requirements"] as const,
  detail: (requirementId: number) => ["requirements", "detail", requirementId] as const,
  revisions: (requirementId: number) => ["requirements", "revisions", requirementId] as const,
};

/** A detail or revisions query of one of these requirements. */
function isOwnQueryOf(queryKey: readonly unknown[], requirementIds: readonly number[]): boolean {
  const [, kind, requirementId] = queryKey;
  return (kind === "detail" || kind === "revisions") && requirementIds.includes(requirementId as number);
}

export function useRequirement(requirementId: number | undefined) {
  return useQuery({
    queryKey: requirementKeys.detail(requirementId ?? 0),
    queryFn: () => api.get<RequirementDetail>(`/api/requirement/${requirementId}`),
    enabled: requirementId !== undefined,
  });
}

/** The Activity list, newest first, a page at a time. */
export function useRequirementRevisions(requirementId: number) {
  return usePagedList(requirementKeys.revisions(requirementId), async (offset) => {
    const { revisions, ...paging } = await api.get<{ revisions: Revision[] } & PageFields>(`/api/requirement/${requirementId}/revision`, {
      offset,
    });
    return { items: revisions, ...paging };
  });
}

/**
 * Any requirement change can touch the tree, the details of linked requirements (their links
 * are two-way), revisions and the link picker, so all of them are refreshed; the detail and
 * revisions of requirements just deleted are not, since asking for them again could only fail.
 */
function useInvalidateRequirements(projectId: number) {
  const queryClient = useQueryClient();
  return (deleted: readonly number[] = []) =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: requirementKeys.all,
        predicate: ({ queryKey }) => !isOwnQueryOf(queryKey, deleted),
      }),
      queryClient.invalidateQueries({ queryKey: itemKeys.all(projectId) }),
      queryClient.invalidateQueries({ queryKey: folderKeys.all }),
    ]);
}

/** 'Requirement …' for one, 'Requirements …' for several. */
export function requirementsNoun(count: number): "Requirement" | "Requirements" {
  return count === 1 ? "Requirement" : "Requirements";
}

export function useCreateRequirement(projectId: number) {
  const invalidate = useInvalidateRequirements(projectId);
  return useMutation({
    mutationFn: (input: RequirementInput & { parent_folder_id: number | null; requirements: number[] }) =>
      api.post<RequirementDetail>("/api/requirement", { ...input, project: projectId }),
    onSuccess: () => invalidate(),
    meta: { success: "Requirement created successfully", failure: becauseOf("There was a problem saving your requirement") },
  });
}

export function useUpdateRequirement(projectId: number) {
  const invalidate = useInvalidateRequirements(projectId);
  return useMutation({
    mutationFn: ({
      requirementId,
      ...body
    }: RequirementInput & {
      requirementId: number;
      linked_requirements: number[];
      attachments: RequirementDetail["attachments"];
      revision: number;
    }) => api.put<RequirementDetail>(`/api/requirement/${requirementId}`, body),
    onSuccess: () => invalidate(),
    meta: { success: "Requirement edited successfully", failure: becauseOf("There was a problem editing your requirement") },
  });
}

export function useDeleteRequirements(projectId: number) {
  const invalidate = useInvalidateRequirements(projectId);
  return useMutation({
    mutationFn: (requirementIds: number[]) => api.post<unknown>("/api/requirement/delete/bulk", { requirements: requirementIds }),
    onSuccess: (_answer, requirementIds) => invalidate(requirementIds),
    meta: {
      success: (requirementIds: number[]) => `${requirementsNoun(requirementIds.length)} deleted successfully`,
      failure: (error: Error, requirementIds: number[]) =>
        `There was a problem deleting your ${requirementsNoun(requirementIds.length).toLowerCase()}: ${error.message}`,
    },
  });
}

export function useMoveRequirements(projectId: number) {
  const invalidate = useInvalidateRequirements(projectId);
  return useMutation({
    mutationFn: (input: { parent_folder_id: number | null; requirements: number[] }) =>
      api.post<unknown>("/api/requirement/move/bulk", input),
    onSuccess: () => invalidate(),
    meta: {
      success: (input: { requirements: number[] }) => `${requirementsNoun(input.requirements.length)} moved successfully`,
      failure: (error: Error, input: { requirements: number[] }) =>
        `There was a problem moving your ${requirementsNoun(input.requirements.length).toLowerCase()}: ${error.message}`,
    },
  });
}

/** Issue 34: the change that made one of the requirement's links suspect, read when its marker is opened. */
export function useSuspectChange(requirementId: number, link: Pick<SuspectLink, "link_type" | "target_id">, enabled: boolean) {
  return useQuery({
    queryKey: [...requirementKeys.detail(requirementId), "suspect-change", link.link_type, String(link.target_id)],
    queryFn: () => api.get<SuspectChange>(`/api/requirement/${requirementId}/suspect-links/change`, { ...link }),
    enabled,
  });
}

/**
 * Marks one suspect link reviewed, or all of the requirement's. The mark goes from both ends and
 * from the lists, matrix and tree filters that show it, so every requirement query is refreshed.
 */
export function useReviewSuspectLinks(requirementId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewSuspectLinksInput) => api.post<unknown>(`/api/requirement/${requirementId}/suspect-links/review`, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requirementKeys.all }),
        queryClient.invalidateQueries({ queryKey: ["matrix"] }),
        queryClient.invalidateQueries({ queryKey: suspectRequirementKeys.all }),
      ]),
    meta: {
      success: (body: ReviewSuspectLinksInput) => ("all" in body ? "All links were marked as reviewed" : "The link was marked as reviewed"),
      failure: becauseOf("The link could not be marked as reviewed"),
    },
  });
}

export const suspectRequirementKeys = {
  all: ["suspect-requirements"] as const,
  ofProject: (projectId: number) => ["suspect-requirements", projectId] as const,
};

/** The tree's "Suspect links only" filter: the project's requirements with a suspect link (at most one page of 1000). */
export function useSuspectRequirements(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: suspectRequirementKeys.ofProject(projectId),
    queryFn: async () =>
      (await api.get<{ requirements: RequirementLite[] }>("/api/requirement", { atlassian_project_id: projectId, suspect: "true" }))
        .requirements,
    enabled,
  });
}
