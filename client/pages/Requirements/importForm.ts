import { z } from "zod";
import { IMPORT_NO_FILE_MESSAGE, ImportRequestSchema, type ImportRequestInput } from "../../../common/schemas/csvImport.js";

/**
 * The import dialog's form (spec section 8): the person's choices, checked by the rules
 * POST /api/import-issues checks them with (ImportRequestSchema: the requirement type is required),
 * and the chosen file, which the dialog uploads before it sends the request ('No file selected').
 */
export const importFormSchema = ImportRequestSchema.pick({
  additional_headers: true,
  assign_based_on_component: true,
  left_out_columns: true,
  leave_out_unknown_names: true,
  sheet: true,
}).extend({
  file: z.custom<File>((value) => value instanceof File, IMPORT_NO_FILE_MESSAGE),
  // The server's rule is a union (an id as a number or as digits), whose own 'Required' the form's
  // resolver does not show (it names the first branch's message): a type not chosen is told here.
  requirement_type: z
    .number({ error: "Required" })
    .refine((typeId) => ImportRequestSchema.shape.requirement_type.safeParse(typeId).success, "Must be an id"),
  /** The folder the requirements go into (null: the top level), as the folder picker names it. */
  location: z.number().nullable(),
  /** The folders above it, outermost first: opened after the import so that its requirements show. */
  ancestors: z.array(z.number()),
});

export type ImportFormValues = z.input<typeof importFormSchema>;
export type ImportChoices = z.output<typeof importFormSchema>;

/** POST /api/import-issues for the choices, the uploaded file and the project's host lists the file is matched against. */
export function importRequest(
  choices: ImportChoices,
  upload: { fileName: string; projectId: number; components: unknown[]; statuses: unknown[] },
): ImportRequestInput {
  return {
    file_name: upload.fileName,
    ...(choices.sheet ? { sheet: choices.sheet } : {}),
    requirement_type: choices.requirement_type,
    location: choices.location,
    atlassian_project_id: upload.projectId,
    atlassian_component_json: JSON.stringify(upload.components),
    atlassian_statuses_json: JSON.stringify(upload.statuses),
    additional_headers: choices.additional_headers,
    assign_based_on_component: choices.assign_based_on_component,
    left_out_columns: choices.left_out_columns,
    // Only as the person chose in the mapping step, where those values were named.
    leave_out_unknown_names: choices.leave_out_unknown_names,
  };
}
