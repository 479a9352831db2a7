/**
 * The spec's error bodies: `{"Result": "message"}` or `{"field": ["message", ...]}`.
 * Used by the server to answer and by the client to show toasts.
 */
export type ResultError = { Result: string };
export type FieldErrors = Record<string, string[] | Record<string, string[]>>;
export type ErrorBody = ResultError | FieldErrors;

/**
 * The 403 `Result` of a configuration change (requirement types, custom fields, settings) by
 * someone who is not a Jira administrator; the server asks Jira on every such change.
 */
export const ADMINISTRATORS_ONLY = "Only Jira administrators can change rmCloud's configuration";

/**
 * The 403 `Result` of a change of a project's requirements, folders or imports (or baselines) by
 * someone Jira does not let edit that project's issues (or who lacks rmCloud's own project
 * permission, once the site grants it); the client shows the same text on the disabled buttons.
 */
export const PROJECT_ACCESS_MESSAGES = {
  edit: "You don't have permission to change this project's requirements in Jira",
  manageBaselines: "You don't have permission to manage this project's baselines in Jira",
} as const;

/**
 * Spec section 8: a Result field is used as is; otherwise each field name is shown
 * followed by a dash and its messages, nested one level.
 */
export function flattenErrorBody(body: unknown): string {
  if (body === null || body === undefined) return "";
  if (typeof body === "string") return body;
  if (typeof body !== "object") return String(body);
  const record = body as Record<string, unknown>;
  if (typeof record.Result === "string") return record.Result;
  return Object.entries(record)
    .map(([field, value]) => `${field} - ${flattenMessages(value)}`)
    .join(", ");
}

function flattenMessages(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (value && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([field, nested]) => `${field} - ${Array.isArray(nested) ? nested.map(String).join(", ") : String(nested)}`)
      .join(", ");
  }
  return String(value);
}
