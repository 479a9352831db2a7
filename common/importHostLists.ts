/**
 * The host's lists an import matches names against, read the same way by the import dialog (to
 * warn about names the project lacks) and by the import job (to store ids).
 */

/** A host component as the import matches it: by name, case-insensitively. */
export type HostComponent = { id: string; name: string; assigneeAccountId: string | null };
export type HostStatus = { id: string; name: string };

/**
 * The host's component list as the dialog sends it (Jira's GET /project/{id}/components answer).
 * Anything else the host answers (an error body, a page object) holds no components: the names
 * then stay ids rather than the export or import failing on the host's shape.
 */
export function hostComponentsOf(answer: unknown): HostComponent[] {
  if (!Array.isArray(answer)) return [];
  return answer.flatMap((item) => {
    const entry = item as {
      id?: unknown;
      name?: unknown;
      realAssignee?: { accountId?: unknown };
      assignee?: { accountId?: unknown };
      lead?: { accountId?: unknown };
      leadAccountId?: unknown;
    } | null;
    if (!entry || (typeof entry.id !== "string" && typeof entry.id !== "number") || typeof entry.name !== "string") return [];
    const assignee = entry.realAssignee?.accountId ?? entry.assignee?.accountId ?? entry.lead?.accountId ?? entry.leadAccountId;
    return [{ id: String(entry.id), name: entry.name, assigneeAccountId: typeof assignee === "string" ? assignee : null }];
  });
}

/** Statuses flat ([{id, name}]) or per issue type ([{statuses: [{id, name}]}], GET /project/{id}/statuses), de-duplicated by id. */
export function hostStatusesOf(answer: unknown): HostStatus[] {
  if (!Array.isArray(answer)) return [];
  const flat = answer.flatMap((item) => {
    const entry = item as { statuses?: unknown } | null;
    return Array.isArray(entry?.statuses) ? (entry.statuses as unknown[]) : [item];
  });
  const seen = new Map<string, HostStatus>();
  for (const item of flat) {
    const entry = item as { id?: unknown; name?: unknown } | null;
    if (!entry || (typeof entry.id !== "string" && typeof entry.id !== "number") || typeof entry.name !== "string") continue;
    if (!seen.has(String(entry.id))) seen.set(String(entry.id), { id: String(entry.id), name: entry.name });
  }
  return [...seen.values()];
}

/** The distinct names of `values` that none of `known` has (compared trimmed and case-insensitively), in first-seen order. */
export function unknownNames(values: Iterable<string>, known: readonly { name: string }[]): string[] {
  const names = new Set(known.map((item) => item.name.trim().toLowerCase()));
  const unknown = new Map<string, string>();
  for (const value of values) {
    const key = value.trim().toLowerCase();
    if (key !== "" && !names.has(key) && !unknown.has(key)) unknown.set(key, value.trim());
  }
  return [...unknown.values()];
}
