import { createHash } from "node:crypto";
import { z } from "zod";
import { getCustomerSettings } from "../../db/customerSettingsStore.js";
import { findTenant } from "../../db/tenantStore.js";
import { defineBackgroundJob } from "../../jobs/defineJob.js";
import type { Actor, ServiceDeps } from "../context.js";
import { commentOnIssues } from "./commentOnIssues.js";
import { emailAssignee } from "./emailAssignee.js";

/** What a notification needs of a requirement, before or after a save. */
const RequirementEventStateSchema = z.object({
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
const RequirementSavedSchema = z.object({
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

/**
 * The Jira comments and assignee email of a saved revision, as the customer settings switched them on
 * at the save. Retried with backoff for about ten minutes; each comment and mail is
 * remembered once sent (notification_deliveries), so a repeated delivery sends only what is missing.
 */
export const requirementSavedNotifications = defineBackgroundJob({
  name: "requirement-saved-notifications",
  payload: RequirementSavedSchema,
  retry: { retryLimit: 6, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 5 * 60 },
  // Mostly waiting on Jira and the mail server: a folder delete can enqueue hundreds.
  concurrency: 4,
  handler: async (deps, saved, delivery) => {
    const tenant = await findTenant(deps.db, saved.tenantId);
    if (!tenant?.active) return;
    const log = deps.logger.child({ tenantId: saved.tenantId, requirementId: saved.requirementId, revision: saved.revision });
    const context = { db: deps.db, hostClient: deps.hostClient, logger: log, siteUrl: tenant.siteUrl, delivery };
    const outcomes = await Promise.allSettled([
      saved.send.comments ? commentOnIssues(context, saved) : undefined,
      saved.send.email ? emailAssignee({ ...context, mailer: deps.mailer }, saved) : undefined,
    ]);
    // Both channels had their try; what failed is tried again as a whole (the sent part is remembered).
    for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  },
});

/**
 * Enqueues the notifications of saved revisions inside the saving transaction (`deps.db` is it), so
 * they exist exactly when the save commits; nothing when the site's settings switch both off. The job
 * id is derived from tenant, requirement and revision: the same revision is never enqueued twice.
 */
export async function notifyRequirementsSaved(
  deps: ServiceDeps<"jobs">,
  actor: Actor,
  revisions: SavedRevision[],
): Promise<void> {
  if (revisions.length === 0) return;
  const settings = await getCustomerSettings(deps.db, actor.tenantId);
  const send = { comments: settings.comment_on_associated_issues, email: settings.send_email_notification_to_assignee };
  if (!send.comments && !send.email) return;
  await deps.jobs.sendMany(
    deps.db,
    requirementSavedNotifications,
    revisions.map((revision) => ({
      id: revisionJobId(actor.tenantId, revision),
      data: { tenantId: actor.tenantId, accountId: actor.accountId, ...revision, send } satisfies RequirementSaved,
    })),
  );
}

function revisionJobId(tenantId: string, revision: SavedRevision): string {
  const hex = createHash("sha256")
    .update(`requirement-saved:${tenantId}:${revision.requirementId}:${revision.revision}`)
    .digest("hex");
  // Shaped as a version 8 (custom) UUID, which pg-boss's uuid column takes.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
