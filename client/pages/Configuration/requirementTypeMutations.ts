import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RequirementType } from "../../../common/schemas/requirementType.js";
import { api } from "../../api/client.js";
import { becauseOf } from "../../api/queryClient.js";
import { requirementTypeKeys } from "../../api/requirementTypes.js";

export type RequirementTypeChanges = { name: string; prefix: string; level: number };

/**
 * Spec section 5: an update sends a level for editable types only; the others keep the level
 * the requirement level rule depends on.
 */
export function updateBody(type: RequirementType, changes: Partial<RequirementTypeChanges>) {
  const merged = { name: type.name, prefix: type.prefix, level: type.level, ...changes };
  return {
    requirement_type: type.level_editable
      ? { name: merged.name, prefix: merged.prefix, level: merged.level }
      : { name: merged.name, prefix: merged.prefix },
  };
}

export function useRequirementTypeMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: requirementTypeKeys.all });
  return {
    create: useMutation({
      mutationFn: (input: { name: string; prefix: string }) =>
        api.post<RequirementType>("/api/requirement/type", { requirement_type: input }),
      onSuccess,
      meta: { success: "Requirement type created successfully", failure: becauseOf("There was a problem saving your requirement type") },
    }),
    update: useMutation({
      mutationFn: ({ type, changes }: { type: RequirementType; changes: Partial<RequirementTypeChanges> }) =>
        api.put<RequirementType>(`/api/requirement/type/${type.requirement_type_id}`, updateBody(type, changes)),
      onSuccess,
      meta: { success: "Requirement type updated successfully", failure: becauseOf("There was a problem saving your requirement type") },
    }),
    remove: useMutation({
      mutationFn: (type: RequirementType) => api.delete(`/api/requirement/type/${type.requirement_type_id}`),
      onSuccess,
      meta: { success: "Requirement type deleted successfully", failure: becauseOf("There was a problem deleting your requirement type") },
    }),
  };
}
