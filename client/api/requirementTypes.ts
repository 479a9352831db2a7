import { useQuery } from "@tanstack/react-query";
import type { RequirementType } from "../../common/schemas/requirementType.js";
import { api } from "./client.js";
import { requirementTypesLoadError } from "./loadErrors.js";

export type { RequirementType } from "../../common/schemas/requirementType.js";

export const requirementTypeKeys = { all: ["requirementTypes"] as const };

export function useRequirementTypes() {
  return useQuery({
    queryKey: requirementTypeKeys.all,
    queryFn: async () => (await api.get<{ requirement_types: RequirementType[] }>("/api/requirement/type")).requirement_types,
    meta: { loadError: requirementTypesLoadError },
  });
}
