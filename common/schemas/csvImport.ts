import { z } from "zod";
import { projectParamSchema, textError } from "./item.js";
import { UuidFileNameSchema } from "./storage.js";

/** Spec section 8. */
export const IMPORT_NO_FILE_MESSAGE = "No file selected";
export const IMPORT_UPLOAD_FAILED_MESSAGE = "Error uploading file";
export const IMPORT_SUCCESS_MESSAGE = "Requirements imported successfully";
export const IMPORT_FAILED_PREFIX = "There was a problem importing your requirements: ";

/** The uploaded file an import or its preview reads (sign-s3-put's uuid_file_name); none sent is the spec's 'No file selected'. */
export const ImportFileNameSchema = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? IMPORT_NO_FILE_MESSAGE : "Must be text") })
  .trim()
  .min(1, { error: IMPORT_NO_FILE_MESSAGE, abort: true })
  .pipe(UuidFileNameSchema);

const jsonList = z
  .string()
  .max(5_000_000)
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined || value.trim() === "") return [] as unknown[];
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed as unknown[];
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "Must be a JSON list" });
    return z.NEVER;
  });

const idSchema = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)], {
  error: (issue) => (issue.input === undefined || issue.input === null || issue.input === "" ? "Required" : "Must be an id"),
});

/** Excel's own limit on a sheet's name is 31 characters; a longer name is no sheet of any workbook. */
const sheetSchema = z
  .string({ error: textError })
  .trim()
  .min(1, "Required")
  .max(31, "Enter no more than 31 characters")
  .nullish()
  .transform((value) => value ?? null);

/** An Excel workbook is imported and exported as .xlsx (issue 35); any other import file is read as CSV. */
export const isXlsxFileName = (fileName: string) => /\.xlsx$/i.test(fileName);

/** The optional columns of host data an import may leave out: Jira's components and status. */
export const IMPORT_LEAVABLE_COLUMNS = ["components", "status"] as const;
export type ImportLeavableColumn = (typeof IMPORT_LEAVABLE_COLUMNS)[number];

/** POST /api/import-issues (spec section 7). */
export const ImportRequestSchema = z.object({
  file_name: ImportFileNameSchema,
  requirement_type: idSchema,
  location: z
    .union([z.null(), z.literal(""), z.literal(0), idSchema])
    .optional()
    .transform((value) => (value === undefined || value === null || value === "" || value === 0 ? null : value)),
  atlassian_project_id: projectParamSchema,
  /** The host's components of the project, as JSON: [{id, name, lead?: {accountId}}]. */
  atlassian_component_json: jsonList,
  /** The host's statuses, as JSON: a flat [{id, name}] or the project statuses per issue type [{statuses: [...]}]. */
  atlassian_statuses_json: jsonList,
  /** Headers of the file to keep: their values are appended to the description. */
  additional_headers: z.array(z.string().max(1000)).max(1000).default([]),
  /** Assign each requirement to the assignee of its first component that has one (the component's lead by default). */
  assign_based_on_component: z.boolean().default(false),
  /** Columns of the file not read at all (Global Requirements never reads them: it has no status or components). */
  left_out_columns: z.array(z.enum(IMPORT_LEAVABLE_COLUMNS)).max(IMPORT_LEAVABLE_COLUMNS.length).default([]),
  /**
   * A component or status name the project does not have is left out of its row (the dialog has
   * warned about it) instead of refusing the row.
   */
  leave_out_unknown_names: z.boolean().default(false),
  /** Issue 35: the sheet of an .xlsx file to import, by its tab name; without it, the first. Not read for a CSV file. */
  sheet: sheetSchema,
});
export type ImportRequestInput = z.input<typeof ImportRequestSchema>;
export type ImportRequest = z.output<typeof ImportRequestSchema>;

/** The request as the route parsed it (host lists already read from their JSON), as the import job carries it. */
export const ImportJobPayloadSchema: z.ZodType<ImportRequest> = z.object({
  file_name: z.string(),
  requirement_type: z.number(),
  location: z.number().nullable(),
  atlassian_project_id: z.number(),
  atlassian_component_json: z.array(z.unknown()),
  atlassian_statuses_json: z.array(z.unknown()),
  additional_headers: z.array(z.string()),
  assign_based_on_component: z.boolean(),
  left_out_columns: z.array(z.enum(IMPORT_LEAVABLE_COLUMNS)).default([]),
  leave_out_unknown_names: z.boolean().default(false),
  sheet: z.string().nullable().default(null),
});

export const ImportResponseSchema = z.object({ job_id: z.string() });

export type ImportRowError = { row: number; reason: string };

/** What an import job answers when it ends: how many were written, or why nothing was. */
export const ImportResultSchema = z.object({
  imported: z.number(),
  /** Each refused row with its number (the header is row 1) and reason; at most MAX_REPORTED_ROW_ERRORS. */
  errors: z.array(z.object({ row: z.number(), reason: z.string() })),
  /** All refused rows, also those beyond the list. */
  error_count: z.number(),
  /**
   * Every error of a file refused with more than ROW_ERRORS_SHOWN_IN_DIALOG, as a CSV (Row, Reason)
   * to download through POST /api/sign-s3-get.
   */
  errors_file: z.object({ file_name: z.string(), original_file_name: z.string() }).optional(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const MAX_REPORTED_ROW_ERRORS = 1000;
/** Row errors the import dialog lists; a result with more carries the complete list as a file. */
export const ROW_ERRORS_SHOWN_IN_DIALOG = 50;

/** The name a refused import's complete error list downloads under (UTC date). */
export const importErrorsFileName = (date: Date) => `rmcloud-import-errors-${date.toISOString().slice(0, 10)}.csv`;

export const ExportQuerySchema = z.object({ atlassian_project_id: projectParamSchema });

/** The exported file's name: a fixed prefix and the export date (UTC). */
export const exportFileName = (date: Date) => `rmcloud-requirements-${date.toISOString().slice(0, 10)}.csv`;

/** POST /api/import-issues/preview: an uploaded import file, and for an .xlsx the sheet to show (null: the first). */
export const ImportPreviewRequestSchema = z.object({
  file_name: ImportFileNameSchema,
  sheet: sheetSchema,
});

/** The most distinct values of a column the preview lists. */
export const PREVIEW_VALUES_MAX = 1000;

/**
 * What the mapping dialog shows of an uploaded file before the import: the workbook's sheets in
 * tab order (empty for a CSV file), the sheet read (null for CSV), its header row, and the distinct
 * values of its Component/s and Status columns (each at most PREVIEW_VALUES_MAX).
 */
export const ImportPreviewSchema = z.object({
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  headers: z.array(z.string()),
  values: z.object({ components: z.array(z.string()), status: z.array(z.string()) }),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

/** POST /api/requirement/export/xlsx. */
export const XlsxExportRequestSchema = z.object({ atlassian_project_id: projectParamSchema });
export type XlsxExportRequest = z.output<typeof XlsxExportRequestSchema>;

/** The .xlsx export's file name: as the CSV export's, as a workbook. */
export const xlsxExportFileName = (date: Date) => exportFileName(date).replace(/\.csv$/, ".xlsx");
