import { z } from "zod";
import { choiceSchema, listWindowParams, numericIdSchema, projectParamSchema } from "./item.js";

export const COVERAGE_MAX_LIMIT = 1000;
export const COVERAGE_DEFAULT_LIMIT = 200;

/**
 * A project (0 = Global Requirements), a folder and its whole subtree, or, without either, every
 * project of the site the person may browse. `uncovered` asks for the list behind a figure instead
 * of the figures: requirements without a linked issue, or without a linked requirement of the next level.
 */
export const CoverageQuerySchema = z.object({
  atlassian_project_id: projectParamSchema.optional(),
  folder_id: numericIdSchema.optional(),
  uncovered: choiceSchema(["issues", "next_level"]).optional(),
  ...listWindowParams(COVERAGE_MAX_LIMIT, COVERAGE_DEFAULT_LIMIT),
});
export type CoverageQuery = z.input<typeof CoverageQuerySchema>;

/** For the requirements of one level: how many, and how many have a linked active requirement of level + 1. */
export const CoverageLevelSchema = z.object({
  level: z.number(),
  requirements: z.number(),
  covered_by_next_level: z.number(),
});

/**
 * `requirements`: active requirements in scope; `with_issues`: those with a linked Jira issue;
 * `issues_done`: of the distinct linked issues the person may browse, those in status category Done.
 */
export const CoverageSchema = z.object({
  requirements: z.number(),
  with_issues: z.number(),
  issues_done: z.number(),
  levels: z.array(CoverageLevelSchema),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/** An uncovered requirement: enough to label it (common/labels.ts) and open it in the tree. */
export const UncoveredRequirementSchema = z.object({
  requirement_id: z.number(),
  display_id: z.string().nullable(),
  prefix: z.string(),
  name: z.string(),
  level: z.number(),
  atlassian_project_id: z.number(),
  parent_folder_id: z.number().nullable(),
});

/** `limit` uncovered requirements from `offset` (requirement id order), and how many there are. */
export const UncoveredRequirementsSchema = z.object({
  requirements: z.array(UncoveredRequirementSchema),
  total: z.number(),
});
export type UncoveredRequirements = z.infer<typeof UncoveredRequirementsSchema>;
