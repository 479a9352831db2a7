import { z } from "zod";
import { numericIdSchema, projectParamSchema, requirementRefSchema, textError } from "./item.js";
import { RequirementSnapshotSchema } from "./requirement.js";
import { pageFields, pageQuerySchema } from "./paging.js";
import { FrozenSuspectLinkSchema } from "./suspectLinks.js";

export const BASELINE_NAME_MAX = 255;

/** Spec section 9: the fields a comparison looks at, in the order the diff table shows them. */
export const COMPARED_FIELDS = [
  "name",
  "requirement_type_id",
  "assigned_to",
  "status",
  "components",
  "description",
  "linked_requirements",
  "issues",
  "contents",
  "attachments",
  /** Issue 34: which of its links were suspect when the baseline was taken. */
  "suspect_links",
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export const BASELINE_SCOPES = ["all", "folder", "individual"] as const;
export type BaselineScope = (typeof BASELINE_SCOPES)[number];

/** GET /api/baseline, GET /api/baseline/{id}/lite, POST /api/baseline. */
export const BaselineSchema = z.object({
  baseline_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** UTC, ISO 8601. */
  created_at: z.string(),
  created_by: z.object({ account_id: z.string() }),
  project: z.number(),
  /** How many requirements it froze: the length of its `requirement_revisions`, for paging. */
  requirement_count: z.number(),
});
export type Baseline = z.infer<typeof BaselineSchema>;
/** GET /api/baseline: newest first, at most BASELINE_LIST_MAX a page (also the default). */
export const BASELINE_LIST_MAX = 500;
export const BaselinesResponseSchema = z.object({ baselines: z.array(BaselineSchema), ...pageFields });

/** A requirement as the baseline froze it (spec section 3), plus which of its revisions that is. */
export const BaselineRevisionSchema = RequirementSnapshotSchema.omit({
  attributes: true,
  parent_folder_id: true,
  project: true,
  deleted: true,
}).extend({ revision: z.number(), suspect_links: z.array(FrozenSuspectLinkSchema) });
export type BaselineRevision = z.infer<typeof BaselineRevisionSchema>;

/** GET /api/baseline/{id}: the baseline and one page of its requirements, by requirement id. */
export const BaselineDetailSchema = BaselineSchema.extend({
  requirement_revisions: z.array(BaselineRevisionSchema),
  offset: z.number(),
  limit: z.number(),
});
export type BaselineDetail = z.infer<typeof BaselineDetailSchema>;

const flagSchema = z
  .union([z.boolean(), z.literal("true"), z.literal("false")], { error: "Must be true or false" })
  .optional()
  .transform((value) => value === true || value === "true");

/**
 * POST /api/baseline (spec section 7). Scope: every requirement of the project when
 * `select_all_requirements`, else the folder `select_from_parent_folder_id` and everything below
 * it when `select_from_parent_folder`, else the requirements listed in `requirements`.
 */
export const CreateBaselineSchema = z.object({
  name: z
    .string({ error: textError })
    .trim()
    .min(1, "Required")
    .max(BASELINE_NAME_MAX, `Enter no more than ${BASELINE_NAME_MAX} characters`),
  description: z
    .string()
    .max(32_000, "Enter no more than 32000 characters")
    .nullish()
    .transform((value) => value?.trim() ?? ""),
  project: projectParamSchema,
  select_all_requirements: flagSchema,
  select_from_parent_folder: flagSchema,
  select_from_parent_folder_id: numericIdSchema.nullable().optional(),
  requirements: z.array(requirementRefSchema).max(100_000).optional(),
});
export type CreateBaselineInput = z.input<typeof CreateBaselineSchema>;
export type CreateBaselineValues = z.output<typeof CreateBaselineSchema>;

export const BaselineIdSchema = numericIdSchema;
export const BaselineProjectQuerySchema = z.object({ atlassian_project_id: projectParamSchema });
export const BaselineListQuerySchema = BaselineProjectQuerySchema.extend(pageQuerySchema(BASELINE_LIST_MAX, BASELINE_LIST_MAX).shape);

export const BASELINE_PAGE_DEFAULT = 1000;
export const BASELINE_PAGE_MAX = 5000;
export const COMPARISON_PAGE_DEFAULT = 50;
export const COMPARISON_PAGE_MAX = 500;

/** GET /api/baseline/{id}?atlassian_project_id&offset&limit: requirements in id order, `limit` of them from `offset`. */
export const BaselineDetailQuerySchema = BaselineProjectQuerySchema.partial().extend(
  pageQuerySchema(BASELINE_PAGE_DEFAULT, BASELINE_PAGE_MAX).shape,
);

/** GET /api/baseline/compare?atlassian_project_id&baseline1&baseline2&offset&limit&include_unchanged. */
export const CompareQuerySchema = BaselineProjectQuerySchema.extend({
  baseline1: numericIdSchema,
  baseline2: numericIdSchema,
  include_unchanged: flagSchema,
}).extend(pageQuerySchema(COMPARISON_PAGE_DEFAULT, COMPARISON_PAGE_MAX).shape);

export const DIFF_STATUSES = ["added", "removed", "changed", "unchanged"] as const;
export type DiffStatus = (typeof DIFF_STATUSES)[number];

/** One requirement of a comparison: its frozen state in each baseline (null where it is absent). */
export const RequirementDiffSchema = z.object({
  requirement_id: z.number(),
  status: z.enum(DIFF_STATUSES),
  /** Compared fields whose values differ; empty unless `changed`. */
  changed_fields: z.array(z.enum(COMPARED_FIELDS)),
  baseline1: BaselineRevisionSchema.nullable(),
  baseline2: BaselineRevisionSchema.nullable(),
});
export type RequirementDiff = z.infer<typeof RequirementDiffSchema>;

export const ComparisonSchema = z.object({
  baseline1: BaselineSchema,
  baseline2: BaselineSchema,
  /** In requirement id order; unchanged ones only with include_unchanged=true. */
  requirements: z.array(RequirementDiffSchema),
  offset: z.number(),
  limit: z.number(),
  /** Whether a page follows this one. */
  has_more: z.boolean(),
});
export type Comparison = z.infer<typeof ComparisonSchema>;
