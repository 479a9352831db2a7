import { z } from "zod";
import { numericIdSchema } from "./item.js";

/** `PUT /api/issue/{issueId}`: exactly the requirements (of the issue's project and global) linked to the issue. */
export const issueRequirementsBody = z.object({
  requirements: z.array(numericIdSchema, { error: "Required" }).max(1000),
});
export type IssueRequirementsBody = z.infer<typeof issueRequirementsBody>;

export const issueRequirementsResponse = z.object({
  requirements: z.array(z.number().int()),
});
export type IssueRequirementsResponse = z.infer<typeof issueRequirementsResponse>;

/** Jira issue ids are numeric strings; anything else cannot name an issue. */
export const issueIdParam = z.string().regex(/^\d{1,18}$/, "Issue id must be a number");
