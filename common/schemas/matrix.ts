import { z } from "zod";
import { listWindowParams, projectParamSchema } from "./item.js";
import { flagParamSchema } from "./requirement.js";
import { RequirementTypeSchema } from "./requirementType.js";

/** The requirement a matrix row is about: enough to label it (common/labels.ts) and name its type. */
export const MatrixRequirementSchema = z.object({
  requirement_id: z.number(),
  display_id: z.string().nullable(),
  prefix: z.string(),
  name: z.string(),
  requirement_type_id: z.number(),
});
export type MatrixRequirement = z.infer<typeof MatrixRequirementSchema>;

/**
 * One row per active requirement of the project. `requirements` holds that one requirement (a
 * list, as the spec names the field); `issues` its linked Jira issues, in link order, possibly none.
 */
export const MatrixRowSchema = z.object({
  requirements: z.array(MatrixRequirementSchema),
  /** `suspect`: the requirement changed since this link was last reviewed (issue 34). */
  issues: z.array(z.object({ atlassian_issue_id: z.string(), suspect: z.boolean() })),
  /** Whether any of the requirement's links (to issues, pages or requirements) is suspect. */
  has_suspect_links: z.boolean(),
});
export type MatrixRow = z.infer<typeof MatrixRowSchema>;

/** The requirement columns, in order; the issue-type columns come from Jira. */
export const MATRIX_HEADER_ROW = ["ID", "Name", "Type"] as const;

/**
 * A window of the matrix: `rows` are the `limit` rows from `offset` (requirement id order) of the
 * rows the filter leaves, `total_rows` how many it leaves, so a grid can size its scrollbar and
 * ask for the window in view.
 */
export const MatrixResponseSchema = z.object({
  rows: z.array(MatrixRowSchema),
  requirement_types: z.array(RequirementTypeSchema),
  header_row: z.array(z.string()),
  total_rows: z.number(),
});
export type MatrixResponse = z.infer<typeof MatrixResponseSchema>;

/** Issue 37: the matrix answers windows, never the whole project in one answer. */
export const MATRIX_MAX_LIMIT = 1000;
export const MATRIX_DEFAULT_LIMIT = 200;

export const MatrixQuerySchema = z.object({
  atlassian_project_id: projectParamSchema,
  ...listWindowParams(MATRIX_MAX_LIMIT, MATRIX_DEFAULT_LIMIT),
  /** 'Filter requirements': words that must all be in the requirement's label (ID and name), case-insensitive. */
  filter: z.string({ error: "Must be text" }).max(200, "Must be at most 200 characters").optional(),
  /** Issue 34: only requirements with a suspect link. */
  suspect: flagParamSchema,
});
export type MatrixQuery = z.input<typeof MatrixQuerySchema>;

export { filterWords } from "../constants.js";

/** Jira issue type ids are numeric strings. */
const issueTypeIdSchema = z
  .union([
    z
      .string()
      .trim()
      .regex(/^\d{1,18}$/, "Must be an issue type id"),
    z.number().int().nonnegative(),
  ])
  .transform(String);

export const MATRIX_EXPORT_TYPES = ["docx"] as const;

export const MatrixExportBodySchema = z.object({
  atlassian_project_id: projectParamSchema,
  type: z.enum(MATRIX_EXPORT_TYPES, { error: "The traceability matrix exports as Word (.docx) only" }),
  selected_issue_types: z.array(issueTypeIdSchema).max(200).default([]),
});
export type MatrixExportBody = z.input<typeof MatrixExportBodySchema>;

export const MatrixExportResponseSchema = z.object({ job_id: z.string(), presigned_url: z.string() });
export type MatrixExportResponse = z.infer<typeof MatrixExportResponseSchema>;

/** What the Word export job carries on the queue: the project, the issue-type columns, the file it writes. */
export const MatrixExportJobPayloadSchema = z.object({
  projectId: z.number().int().min(0),
  selectedIssueTypes: z.array(z.string()),
  fileName: z.string(),
});

/** The hourly clean-up of old exports carries nothing (pg-boss sends its cron jobs with an empty payload). */
export const MatrixExportCleanupJobPayloadSchema = z.object({});
