import type { BaselineScope, CreateBaselineInput } from "../../../common/schemas/baseline.js";

export type NewBaseline = Omit<CreateBaselineInput, "project">;

/** What POST /api/baseline is sent for the chosen scope (spec section 7). */
export function baselineRequest(values: {
  name: string;
  description: string;
  scope: BaselineScope;
  folderId: number | null;
  requirementIds: number[];
}): NewBaseline {
  return {
    name: values.name.trim(),
    description: values.description,
    select_all_requirements: values.scope === "all",
    select_from_parent_folder: values.scope === "folder",
    select_from_parent_folder_id: values.scope === "folder" ? values.folderId : null,
    requirements: values.scope === "individual" ? values.requirementIds : [],
  };
}
