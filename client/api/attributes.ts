import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Attribute, AttributeList, CreateAttributeInput } from "../../common/schemas/attribute.js";
import { api } from "./client.js";
import { ATTRIBUTES_LOAD_ERROR } from "./loadErrors.js";
import { becauseOf } from "./queryClient.js";

/** Keys include the project so that a requirement form of one project never shows another's fields. */
export const attributeKeys = {
  all: ["attributes"] as const,
  ofProject: (projectId: number | undefined) => ["attributes", projectId ?? "all"] as const,
};

/** Custom fields of one project (0 = Global Requirements), or of every project when none is given. */
export function useAttributes(projectId?: number) {
  return useQuery({
    queryKey: attributeKeys.ofProject(projectId),
    queryFn: async () => (await api.get<AttributeList>("/api/attribute", { atlassian_project_id: projectId })).attributes,
    meta: { loadError: ATTRIBUTES_LOAD_ERROR },
  });
}

export function useCreateAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAttributeInput) => api.post<Attribute>("/api/attribute", input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: attributeKeys.all }),
    meta: { success: "Custom field created successfully", failure: becauseOf("There was a problem saving your custom field") },
  });
}

export function useDeleteAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attributeId: number) => api.delete<{ attribute_id: number }>(`/api/attribute/${attributeId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: attributeKeys.all }),
    meta: { success: "Custom field deleted successfully", failure: becauseOf("There was a problem deleting your custom field") },
  });
}
