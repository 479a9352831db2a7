import { z } from "zod";

/** Issue 34: which kind of link a suspect mark is on. */
export const SUSPECT_LINK_TYPES = ["requirement", "issue", "content"] as const;
export type SuspectLinkType = (typeof SUSPECT_LINK_TYPES)[number];

/**
 * One suspect link of a requirement (GET /api/requirement/{id}, `suspect_links`). `target_id` is
 * the other requirement's requirement_id, the atlassian_issue_id or the page's
 * atlassian_content_id; `since_revision` the revision of the change that made the link suspect
 * (the first since its last review), `changed_by` and `changed_at` who made it and when.
 */
export const SuspectLinkSchema = z.object({
  link_type: z.enum(SUSPECT_LINK_TYPES),
  target_id: z.union([z.number(), z.string()]),
  since_revision: z.number(),
  changed_by: z.object({ account_id: z.string() }),
  changed_at: z.string(),
});
export type SuspectLink = z.infer<typeof SuspectLinkSchema>;

const linkTypeSchema = z.enum(SUSPECT_LINK_TYPES, { error: "Choose requirement, issue or content" });
const targetIdSchema = z
  .union([z.string(), z.number()], { error: "Required" })
  .transform((value) => String(value).trim())
  .refine((value) => value !== "", "Required");

/** POST /api/requirement/{id}/suspect-links/review: one link, or every link of the requirement. */
export const ReviewSuspectLinksSchema = z.union([
  z.object({ all: z.literal(true, { error: "Must be true" }) }),
  z.object({ link_type: linkTypeSchema, target_id: targetIdSchema }),
]);
export type ReviewSuspectLinksInput = z.input<typeof ReviewSuspectLinksSchema>;

/** GET /api/requirement/{id}/suspect-links/change?link_type&target_id: what the reviewer must look at. */
export const SuspectChangeQuerySchema = z.object({ link_type: linkTypeSchema, target_id: targetIdSchema });

/** A baseline's frozen mark (no who and when: a baseline compares states). */
export const FrozenSuspectLinkSchema = SuspectLinkSchema.pick({ link_type: true, target_id: true, since_revision: true });
export type FrozenSuspectLink = z.infer<typeof FrozenSuspectLinkSchema>;
