import type { RequirementEventState } from "../../../common/schemas/requirementSaved.js";
import type { MailMessage } from "../../mail/mailer.js";

/** The account to notify: someone newly assigned by this save, never an unassignment. */
export function newAssigneeOf(before: RequirementEventState | undefined, after: RequirementEventState | undefined): string | undefined {
  if (!after?.assignedTo) return undefined;
  return before?.assignedTo === after.assignedTo ? undefined : after.assignedTo;
}

export function assigneeEmail(to: string, label: string, requirementUrl: string): MailMessage {
  return {
    to,
    subject: `rmCloud: you were assigned ${label}`,
    text: `You were assigned the requirement ${label}.\n\nOpen it in rmCloud: ${requirementUrl}\n`,
    html: `<p>You were assigned the requirement <strong>${escapeHtml(label)}</strong>.</p><p><a href="${escapeHtml(requirementUrl)}">Open it in rmCloud</a></p>`,
  };
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
