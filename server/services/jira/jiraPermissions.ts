import { ADMINISTRATORS_ONLY } from "../../../common/errors.js";
import type { HostCall } from "../../connect/hostClient.js";
import { issueIdsLinkedInProject } from "../../db/issueLinkStore.js";
import { forbidden, unavailable } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { HOST_DATA_PROBLEM } from "../issueLinks/findJiraIssue.js";
import { callRespectingRateLimits, ISSUE_DETAILS_PARALLEL, issueIdBatches, limitInFlight, type Sleep } from "./issueDetails.js";

/**
 * Jira's bulk permission check. Asked by the app's server it answers for any account, without
 * administrator rights (not so from a browser's AP.request); without an `accountId` it would
 * answer for the app itself, so it is never asked without one.
 */
export const PERMISSIONS_CHECK_PATH = "/rest/api/3/permissions/check";
/** Jira checks at most 1000 issues a call. */
export const PERMISSION_CHECK_ISSUES_PER_CALL = 1000;

type BulkPermissionGrants = {
  globalPermissions?: string[];
  projectPermissions?: { permission?: string; issues?: (number | string)[]; projects?: (number | string)[] }[];
};

const checkCall = (body: Record<string, unknown>): HostCall => ({ method: "POST", path: PERMISSIONS_CHECK_PATH, body });

/**
 * Whether the person holds Jira's "Administer Jira" global permission, asked of Jira now (no
 * cache: configuration changes are rare, and a revoked administrator loses the right at once).
 * The app acting on its own (no account) is nobody's administrator. Rejects when Jira cannot be asked.
 */
export async function isJiraAdministrator(deps: ServiceDeps<"hostClient">, actor: Actor): Promise<boolean> {
  if (!actor.accountId) return false;
  const answer = await deps.hostClient.call<BulkPermissionGrants>(
    actor.tenantId,
    "jira",
    checkCall({ accountId: actor.accountId, globalPermissions: ["ADMINISTER"] }),
  );
  return (answer?.globalPermissions ?? []).includes("ADMINISTER");
}

/**
 * Configuration changes are Jira administrators' (spec section 1: "Administrators configure
 * requirement types, custom fields and customer settings"; section 6 leaves the server's rules
 * open): 403 with ADMINISTRATORS_ONLY when Jira says no, 503 with the spec's host message when
 * Jira cannot be asked, so that nothing changes unless Jira said yes.
 */
export async function requireJiraAdministrator(deps: ServiceDeps<"hostClient">, actor: Actor): Promise<void> {
  const administrator = await askedOrUnavailable(deps, actor, "whether the user administers Jira", isJiraAdministrator(deps, actor));
  if (!administrator) throw forbidden(ADMINISTRATORS_ONLY);
}

/**
 * A permission Jira could not tell answers 503 with the spec's host message: a request never goes
 * on as if Jira had said yes or no.
 */
export async function askedOrUnavailable<T>(deps: ServiceDeps, actor: Actor, question: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    deps.logger?.warn({ err, tenantId: actor.tenantId }, `Jira could not tell ${question}`);
    throw unavailable(HOST_DATA_PROBLEM);
  }
}

/**
 * The given issues the person may browse (Jira's BROWSE_PROJECTS on each issue), for writing
 * what the app reads of them into an export. Asked 1000 ids a call, as many calls in flight as the
 * exports' issue reads, Jira's rate limits waited out as theirs are; rejects when Jira still
 * cannot be read.
 * Ids that are not numbers, and issues Jira does not know, are never in the answer; without an
 * account nothing is.
 */
export async function issuesUserMayBrowse(
  deps: ServiceDeps<"hostClient">,
  actor: Actor,
  issueIds: Iterable<string>,
  sleep?: Sleep,
): Promise<Set<string>> {
  const permitted = new Set<string>();
  if (!actor.accountId) return permitted;

  const checkBatch = async (batch: string[]) => {
    const body = {
      accountId: actor.accountId,
      projectPermissions: [{ permissions: ["BROWSE_PROJECTS"], issues: batch.map(Number) }],
    };
    const answer = await callRespectingRateLimits(
      () => deps.hostClient.call<BulkPermissionGrants>(actor.tenantId, "jira", checkCall(body)),
      sleep,
    );
    const asked = new Set(batch);
    for (const grant of answer?.projectPermissions ?? []) {
      if (grant.permission !== "BROWSE_PROJECTS") continue;
      // Only ids this call asked about count, whatever else an answer might hold.
      for (const id of grant.issues ?? []) if (asked.has(String(id))) permitted.add(String(id));
    }
  };
  const limited = limitInFlight(ISSUE_DETAILS_PARALLEL);
  await Promise.all(issueIdBatches(issueIds, PERMISSION_CHECK_ISSUES_PER_CALL).map((batch) => limited(() => checkBatch(batch))));
  return permitted;
}

/**
 * The issues linked to the project's live requirements that the person may browse: what an
 * export of the project may show of Jira, read once for the whole export before its first row.
 */
export async function linkedIssuesUserMayBrowse(
  deps: ServiceDeps<"hostClient">,
  actor: Actor,
  projectId: number,
  sleep?: Sleep,
): Promise<Set<string>> {
  if (!actor.accountId) return new Set();
  return issuesUserMayBrowse(deps, actor, await issueIdsLinkedInProject(deps.db, actor.tenantId, projectId), sleep);
}
