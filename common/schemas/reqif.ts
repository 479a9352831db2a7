import { z } from "zod";
import { CreateRequirementTypeSchema } from "./requirementType.js";
import { numericIdSchema, parentFolderIdSchema, projectParamSchema, textError } from "./item.js";
import { ImportFileNameSchema } from "./csvImport.js";

/** POST /api/import-reqif/preview. */
export const ReqifPreviewRequestSchema = z.object({ file_name: ImportFileNameSchema });

export const ReqifPreviewSchema = z.object({
  specifications: z.array(z.object({ identifier: z.string(), long_name: z.string(), object_count: z.number() })),
  spec_object_types: z.array(
    z.object({
      identifier: z.string(),
      long_name: z.string(),
      attribute_definitions: z.array(z.object({ identifier: z.string(), long_name: z.string(), datatype: z.string() })),
    }),
  ),
  object_count: z.number(),
  relation_count: z.number(),
});
export type ReqifPreview = z.infer<typeof ReqifPreviewSchema>;

/**
 * How one spec object type of the file maps: onto an existing requirement type, or a new one
 * (name, prefix and level; each defaults, the name to the type's LONG-NAME). Without an entry a
 * type maps onto the requirement type of the same name, else onto a new one.
 */
/** A new requirement type of a ReqIF mapping: what POST /api/requirement/type takes, each part defaulting. */
export const ReqifNewTypeSchema = CreateRequirementTypeSchema.partial();

export const ReqifTypeMappingSchema = z.union([z.object({ requirement_type_id: numericIdSchema }), ReqifNewTypeSchema]);
export type ReqifTypeMapping = z.infer<typeof ReqifTypeMappingSchema>;

/** POST /api/import-reqif. `mapping.spec_object_types` is keyed by the type's IDENTIFIER. */
export const ReqifImportRequestSchema = z.object({
  atlassian_project_id: projectParamSchema,
  file_name: ImportFileNameSchema,
  original_file_name: z.string({ error: textError }).trim().min(1, "Required").max(255),
  parent_folder_id: parentFolderIdSchema,
  mapping: z.object({ spec_object_types: z.record(z.string(), ReqifTypeMappingSchema).default({}) }).default({ spec_object_types: {} }),
});
export type ReqifImportRequest = z.output<typeof ReqifImportRequestSchema>;
export type ReqifImportRequestInput = z.input<typeof ReqifImportRequestSchema>;

const skippedSchema = z.array(z.object({ identifier: z.string(), reason: z.string() }));

/**
 * A finished ReqIF import. `relations_skipped`: relations not made links (the level rule, an end
 * not in the file); `not_imported`: anything else of the file that did not become a requirement,
 * folder or field value as such (a hierarchy entry whose object the file leaves out, say), each with its reason.
 */
export const ReqifImportResultSchema = z.object({
  requirements_created: z.number(),
  requirements_updated: z.number(),
  folders_created: z.number(),
  links_created: z.number(),
  relations_skipped: skippedSchema,
  not_imported: skippedSchema,
});
export type ReqifImportResult = z.infer<typeof ReqifImportResultSchema>;

/** POST /api/requirement/export/reqif. */
export const ReqifExportRequestSchema = z.object({
  atlassian_project_id: projectParamSchema,
  folder_id: numericIdSchema.nullish().transform((value) => (value === 0 ? null : (value ?? null))),
  baseline_id: numericIdSchema.nullish().transform((value) => value ?? null),
  include_attachments: z.boolean().default(false),
});
export type ReqifExportRequest = z.output<typeof ReqifExportRequestSchema>;
export type ReqifExportRequestInput = z.input<typeof ReqifExportRequestSchema>;

export const ReqifJobResponseSchema = z.object({ job_id: z.string() });

/** The files the import dialog takes as ReqIF. */
export const isReqifFileName = (name: string) => /\.reqifz?$/i.test(name);

/** A prefix for a new requirement type: the initials of its name's words (up to four), else its first letters. */
export function prefixFor(typeName: string): string {
  const words = typeName.match(/[A-Za-z][A-Za-z0-9]*/g) ?? [];
  const initials = words
    .map((word) => word[0])
    .join("")
    .toUpperCase();
  const prefix = initials.length >= 2 ? initials : (words[0] ?? "").toUpperCase();
  return (prefix || "REQ").slice(0, 4);
}
