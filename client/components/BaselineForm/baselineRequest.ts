import { z } from "zod";
import { BASELINE_SCOPES, type CreateBaselineInput } from "../../../common/schemas/baseline.js";

export type NewBaseline = Omit<CreateBaselineInput, "project">;

/** Spec section 5: a name, and the folder or the requirements that the chosen scope needs. */
export const baselineFormSchema = z
  .object({
    name: z.string().refine((name) => name.trim() !== "", "Name is required"),
    description: z.string(),
    scope: z.enum(BASELINE_SCOPES),
    folderId: z.number().nullable(),
    requirementIds: z.array(z.number()),
  })
  .refine((values) => values.scope !== "folder" || values.folderId !== null, { path: ["folderId"], message: "Choose a folder" })
  .refine((values) => values.scope !== "individual" || values.requirementIds.length > 0, {
    path: ["requirementIds"],
    message: "Choose at least one requirement",
  });

export type BaselineFormValues = z.infer<typeof baselineFormSchema>;

/** What POST /api/baseline is sent for the chosen scope (spec section 7). */
export function baselineRequest(values: BaselineFormValues): NewBaseline {
  return {
    name: values.name.trim(),
    description: values.description,
    select_all_requirements: values.scope === "all",
    select_from_parent_folder: values.scope === "folder",
    select_from_parent_folder_id: values.scope === "folder" ? values.folderId : null,
    requirements: values.scope === "individual" ? values.requirementIds : [],
  };
}
