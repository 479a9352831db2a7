import { z } from "zod";
import { ReqifExportRequestSchema, type ReqifExportRequestInput } from "../../../common/schemas/reqif.js";

export const REQIF_EXPORT_SCOPES = ["project", "folder", "baseline"] as const;

/**
 * The ReqIF export dialog's form: what to export, as POST /api/requirement/export/reqif takes it, the
 * folder and baseline as the pickers hold them (an id, or none chosen); the scope chosen needs its
 * folder ('Choose a folder') or baseline ('Choose a baseline').
 */
export const reqifExportFormSchema = ReqifExportRequestSchema.pick({ include_attachments: true })
  .extend({ scope: z.enum(REQIF_EXPORT_SCOPES), folder_id: z.number().nullable(), baseline_id: z.number().nullable() })
  .refine((values) => values.scope !== "folder" || values.folder_id !== null, { path: ["folder_id"], message: "Choose a folder" })
  .refine((values) => values.scope !== "baseline" || values.baseline_id !== null, { path: ["baseline_id"], message: "Choose a baseline" });

export type ReqifExportFormValues = z.input<typeof reqifExportFormSchema>;
export type ReqifExportChoices = z.output<typeof reqifExportFormSchema>;

/** POST /api/requirement/export/reqif for the choices: only the chosen scope's folder or baseline goes. */
export function reqifExportRequest(choices: ReqifExportChoices, projectId: number): ReqifExportRequestInput {
  return {
    atlassian_project_id: projectId,
    folder_id: choices.scope === "folder" ? choices.folder_id : null,
    baseline_id: choices.scope === "baseline" ? choices.baseline_id : null,
    include_attachments: choices.include_attachments,
  };
}
