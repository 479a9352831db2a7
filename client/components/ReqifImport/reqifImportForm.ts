import { z } from "zod";
import {
  prefixFor,
  ReqifNewTypeSchema,
  type ReqifImportRequestInput,
  type ReqifPreview,
  type ReqifTypeMapping,
} from "../../../common/schemas/reqif.js";
import type { RequirementType } from "../../../common/schemas/requirementType.js";

/** The requirement type choice that makes a new type of the object type's name. */
export const NEW_TYPE = "new" as const;

/**
 * How one spec object type of the file is imported: onto an existing requirement type, or a new one
 * named after it whose prefix the person may change (checked as POST /api/requirement/type checks one).
 */
const objectTypeChoiceSchema = z
  .object({
    identifier: z.string(),
    long_name: z.string(),
    requirement_type: z.union([z.literal(NEW_TYPE), z.number()]),
    prefix: z.string(),
  })
  .superRefine((choice, context) => {
    if (choice.requirement_type !== NEW_TYPE) return;
    for (const issue of ReqifNewTypeSchema.shape.prefix.safeParse(choice.prefix).error?.issues ?? []) {
      context.addIssue({ code: "custom", path: ["prefix"], message: issue.message });
    }
  });

/**
 * The ReqIF import dialog's form: a choice per spec object type, in the preview's order, and the
 * folder the import goes into (null: the top level) with the folders above it, outermost first,
 * which are opened after the import so that its requirements show.
 */
export const reqifImportFormSchema = z.object({
  types: z.array(objectTypeChoiceSchema),
  parent_folder_id: z.number().nullable(),
  ancestors: z.array(z.number()),
});

export type ReqifImportFormValues = z.input<typeof reqifImportFormSchema>;
export type ReqifImportChoices = z.output<typeof reqifImportFormSchema>;

/**
 * The form as the preview opens it: each object type on the requirement type of its name (case and
 * spaces aside), else on a new one with a prefix made from its name.
 */
export function reqifImportDefaults(
  preview: ReqifPreview,
  existing: readonly RequirementType[],
  folderId: number | null,
): ReqifImportFormValues {
  const types = preview.spec_object_types.map(({ identifier, long_name }) => {
    const same = existing.find((type) => type.name.trim().toLowerCase() === long_name.trim().toLowerCase());
    return { identifier, long_name, requirement_type: same?.requirement_type_id ?? NEW_TYPE, prefix: prefixFor(long_name) };
  });
  return { types, parent_folder_id: folderId, ancestors: [] };
}

/** POST /api/import-reqif for the choices and the uploaded file; `mapping` is keyed by each object type's IDENTIFIER. */
export function reqifImportRequest(
  choices: ReqifImportChoices,
  upload: { projectId: number; fileName: string; originalFileName: string },
): ReqifImportRequestInput {
  const mappingOf = (choice: ReqifImportChoices["types"][number]): ReqifTypeMapping =>
    choice.requirement_type === NEW_TYPE
      ? { name: choice.long_name, prefix: choice.prefix }
      : { requirement_type_id: choice.requirement_type };
  return {
    atlassian_project_id: upload.projectId,
    file_name: upload.fileName,
    original_file_name: upload.originalFileName,
    parent_folder_id: choices.parent_folder_id,
    mapping: { spec_object_types: Object.fromEntries(choices.types.map((choice) => [choice.identifier, mappingOf(choice)])) },
  };
}
