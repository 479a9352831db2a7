import { z } from "zod";

/** What a notification of a saved requirement needs of it, before or after the save. */
export const RequirementEventStateSchema = z.object({
  requirementId: z.number().int(),
  projectId: z.number().int(),
  label: z.string(),
  name: z.string(),
  statusId: z.string().nullable(),
  assignedTo: z.string().nullable(),
  issueIds: z.array(z.string()),
});
export type RequirementEventState = z.infer<typeof RequirementEventStateSchema>;

/** One saved revision of one requirement: the unit of notification and of its idempotency. */
export const RequirementSavedSchema = z.object({
  tenantId: z.guid(),
  accountId: z.string(),
  requirementId: z.number().int(),
  /** The revision the save wrote. */
  revision: z.number().int(),
  /** Undefined when the requirement was created. */
  before: RequirementEventStateSchema.optional(),
  /** Undefined when the requirement was deleted. */
  after: RequirementEventStateSchema.optional(),
  /** What the site's settings switched on when the save committed. */
  send: z.object({ comments: z.boolean(), email: z.boolean() }),
});
export type RequirementSaved = z.infer<typeof RequirementSavedSchema>;
export type SavedRevision = Omit<RequirementSaved, "tenantId" | "accountId" | "send">;
