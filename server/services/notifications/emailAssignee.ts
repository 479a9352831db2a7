import { requirementPageUrl } from "../../../common/requirementLink.js";
import { type Mailer, mailErrorSummary } from "../../mail/mailer.js";
import { assigneeEmail, newAssigneeOf } from "./assigneeEmail.js";
import { deliveryKey, isPermanentRefusal, type NotificationContext, sendOnce } from "./delivery.js";
import type { RequirementSaved } from "../../../common/schemas/requirementSaved.js";

/**
 * Emails a newly assigned user. The address comes from Jira (the app may read it; a user who hides
 * it gets no mail, which is logged). A refused or unreachable mail server fails the delivery, so the
 * job tries again with backoff; logs name the recipient by account id, never by address.
 */
export async function emailAssignee(context: NotificationContext & { mailer: Mailer }, saved: RequirementSaved): Promise<void> {
  const accountId = newAssigneeOf(saved.before, saved.after);
  if (!accountId || !saved.after) return;
  const after = saved.after;
  const log = context.logger.child({ accountId });
  await sendOnce(context, saved, deliveryKey(saved, "email", accountId), async () => {
    let emailAddress: string | undefined;
    try {
      const user = await context.hostClient.call<{ emailAddress?: string }>(saved.tenantId, "jira", {
        method: "GET",
        path: `/rest/api/3/user?accountId=${encodeURIComponent(accountId)}`,
      });
      emailAddress = user?.emailAddress;
    } catch (err) {
      log.warn({ err }, "could not look up the assignee to email");
      if (isPermanentRefusal(err)) return;
      throw err;
    }
    if (!emailAddress) {
      log.info("the assignee's email address is not visible to the app; no email sent");
      return;
    }
    const url = requirementPageUrl(context.siteUrl, {
      jiraProjectId: after.projectId,
      projectId: after.projectId,
      requirementId: saved.requirementId,
    });
    try {
      await context.mailer.send(assigneeEmail(emailAddress, after.label, url));
    } catch (err) {
      const { delivery } = context;
      log[delivery.isLastAttempt ? "error" : "warn"](
        { err: mailErrorSummary(err), attempt: delivery.attempt + 1 },
        delivery.isLastAttempt ? "email not sent" : "email failed, will retry",
      );
      // The error itself names the refused addresses; pg-boss keeps what is thrown.
      throw new Error(`The assignee email was not sent: ${String(mailErrorSummary(err).message)}`);
    }
  });
}
