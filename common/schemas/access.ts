import { z } from "zod";
import { projectParamSchema } from "./item.js";

/** GET /api/project/access: the projects asked about (repeat atlassian_project_id). */
export const ProjectAccessQuerySchema = z.object({
  atlassian_project_id: z
    .union([projectParamSchema, z.array(projectParamSchema)], { error: "Required" })
    .transform((value) => (Array.isArray(value) ? value : [value])),
});

/**
 * What the person may do in each project, as Jira tells (docs/decisions.md, "Access"): the client
 * disables what they may not do, with the text a refused change answers (PROJECT_ACCESS_MESSAGES) as the tooltip.
 */
export const ProjectAccessSchema = z.object({
  atlassian_project_id: z.number(),
  browse: z.boolean(),
  edit: z.boolean(),
  manage_baselines: z.boolean(),
});
export type ProjectAccessView = z.infer<typeof ProjectAccessSchema>;
export const ProjectAccessResponseSchema = z.object({ projects: z.array(ProjectAccessSchema) });
export type ProjectAccessResponse = z.infer<typeof ProjectAccessResponseSchema>;
