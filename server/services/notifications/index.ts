import { createMailer, type Mailer } from "../../mail/mailer.js";
import { getCustomerSettings } from "../../db/customerSettingsStore.js";
import { findTenant } from "../../db/tenantStore.js";
import type { AppDeps } from "../../deps.js";
import type { DomainEventBus, DomainEvents } from "../events.js";
import { commentOnIssues } from "./commentOnIssues.js";
import { emailAssignee } from "./emailAssignee.js";

export type NotificationOptions = {
  /** Defaults to SMTP_URL, or the .eml outbox in the data folder. */
  mailer?: Mailer;
  retryDelaysMs?: readonly number[];
};

const inFlight = new WeakMap<DomainEventBus, Set<Promise<void>>>();

/**
 * What the customer settings switch on, in one place: Jira comments and assignee emails after
 * every requirement save. Work runs after the save has committed and answered; nothing in it
 * can reject into the event bus.
 */
export function registerNotificationListeners(deps: AppDeps, options: NotificationOptions = {}): void {
  const mailer = options.mailer ?? createMailer(deps.config);
  const pending = new Set<Promise<void>>();
  inFlight.set(deps.events, pending);

  deps.events.on("requirementSaved", (event) => {
    const work = notify(deps, mailer, event, options.retryDelaysMs).catch((err) => {
      deps.logger.error({ err, tenantId: event.tenantId, requirementId: event.requirementId }, "notification failed");
    });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
}

/** Resolves when every notification started so far has finished (tests and graceful shutdown). */
export async function notificationsSettled(events: DomainEventBus): Promise<void> {
  const pending = inFlight.get(events);
  while (pending && pending.size > 0) await Promise.all(pending);
}

async function notify(
  deps: AppDeps,
  mailer: Mailer,
  event: DomainEvents["requirementSaved"][0],
  retryDelaysMs: readonly number[] | undefined,
): Promise<void> {
  const settings = await getCustomerSettings(deps.db, event.tenantId);
  if (!settings.comment_on_associated_issues && !settings.send_email_notification_to_assignee) return;
  const tenant = await findTenant(deps.db, event.tenantId);
  if (!tenant?.active) return;
  await Promise.all([
    settings.comment_on_associated_issues
      ? commentOnIssues(deps.hostClient, deps.logger, tenant.siteUrl, event)
      : undefined,
    settings.send_email_notification_to_assignee
      ? emailAssignee(deps.hostClient, mailer, deps.logger, tenant.siteUrl, event, retryDelaysMs)
      : undefined,
  ]);
}
