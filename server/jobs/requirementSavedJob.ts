import { v5 as uuidv5 } from "uuid";
import { type RequirementSaved, RequirementSavedSchema, type SavedRevision } from "../../common/schemas/requirementSaved.js";
import { getCustomerSettings } from "../db/customerSettingsStore.js";
import { findTenant } from "../db/tenantStore.js";
import type { Actor, ServiceDeps } from "../services/context.js";
import { commentOnIssues } from "../services/notifications/commentOnIssues.js";
import { emailAssignee } from "../services/notifications/emailAssignee.js";
import { defineBackgroundJob } from "./defineJob.js";

/**
 * The Jira comments and assignee email of a saved revision, as the customer settings switched them on
 * at the save. Retried with backoff for about ten minutes; each comment and mail is
 * remembered once sent (notification_deliveries), so a repeated delivery sends only what is missing.
 */
export const requirementSavedJob = defineBackgroundJob({
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
export async function notifyRequirementsSaved(deps: ServiceDeps<"jobs">, actor: Actor, revisions: SavedRevision[]): Promise<void> {
  if (revisions.length === 0) return;
  const settings = await getCustomerSettings(deps.db, actor.tenantId);
  const send = { comments: settings.comment_on_associated_issues, email: settings.send_email_notification_to_assignee };
  if (!send.comments && !send.email) return;
  await deps.jobs.sendMany(
    deps.db,
    requirementSavedJob,
    revisions.map((revision) => ({
      id: revisionJobId(actor.tenantId, revision),
      data: { tenantId: actor.tenantId, accountId: actor.accountId, ...revision, send } satisfies RequirementSaved,
    })),
  );
}

/** The namespace of the notification jobs' ids (uuid v5): any fixed UUID of ours serves. */
const REVISION_JOB_NAMESPACE = "0b6f7d52-6a3e-5c55-9a3c-6f1e3f0d2a11";

function revisionJobId(tenantId: string, revision: SavedRevision): string {
  return uuidv5(`requirement-saved:${tenantId}:${revision.requirementId}:${revision.revision}`, REVISION_JOB_NAMESPACE);
}
