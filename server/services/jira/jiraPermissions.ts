import { ADMINISTRATORS_ONLY } from "../../../common/errors.js";
import type { HostCall } from "../../connect/hostClient.js";
import { issueIdsLinkedInProject } from "../../db/issueLinkStore.js";
import { forbidden, unavailable } from "../../errors.js";
import type { Actor, ServiceDeps } from "../context.js";
import { HOST_DATA_PROBLEM } from "../issueLinks/findJiraIssue.js";
import { readWithHostRetries, type Sleep } from "../../connect/hostClientImpl.js";
import { ISSUE_DETAILS_PARALLEL, issueIdBatches, limitInFlight } from "./issueDetails.js";

/**
 * Jira's bulk permission check. Asked by the app's server it answers for any account, without
 * administrator rights (not so from a browser's AP.request); without an `accountId` it would
 * answer for the app itself, so it is never asked without one.
 */
export const PERMISSIONS_CHECK_PATH = "/rest/api/3/permissions/check";
/** Jira checks at most 1000 issues, and 1000 projects, a call. */
export const PERMISSION_CHECK_ISSUES_PER_CALL = 1000;
export const PERMISSION_CHECK_PROJECTS_PER_CALL = 1000;
/** Every permission scheme of the site with its grants: which permissions anyone is given at all. */
export const PERMISSION_SCHEMES_PATH = "/rest/api/3/permissionscheme?expand=permissions";

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
export async function requireJiraAdministrator(deps: ServiceDeps<"hostClient" | "logger">, actor: Actor): Promise<void> {
  const administrator = await askedOrUnavailable(deps, actor, "whether the user administers Jira", isJiraAdministrator(deps, actor));
  if (!administrator) throw forbidden(ADMINISTRATORS_ONLY);
}

/**
 * A permission Jira could not tell answers 503 with the spec's host message: a request never goes
 * on as if Jira had said yes or no.
 */
export async function askedOrUnavailable<T>(deps: ServiceDeps<"logger">, actor: Actor, question: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    deps.logger.warn({ err, tenantId: actor.tenantId }, `Jira could not tell ${question}`);
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
    const answer = await readWithHostRetries(
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
 * The project permissions the person holds in each of the given projects, asked of Jira in as few
 * calls as it allows (1000 projects each): every project asked is in the answer, with nothing
 * granted where Jira grants nothing or does not know the project. Rejects when Jira cannot be asked.
 */
export async function projectPermissionsOf(
  deps: ServiceDeps<"hostClient">,
  actor: Actor,
  projectIds: readonly number[],
  permissions: readonly string[],
): Promise<Map<number, Set<string>>> {
  const granted = new Map(projectIds.map((id) => [id, new Set<string>()]));
  if (!actor.accountId) return granted;
  const checkBatch = async (batch: string[]) => {
    const body = { accountId: actor.accountId, projectPermissions: [{ permissions: [...permissions], projects: batch.map(Number) }] };
    const answer = await deps.hostClient.call<BulkPermissionGrants>(actor.tenantId, "jira", checkCall(body));
    for (const grant of answer?.projectPermissions ?? []) {
      if (!grant.permission || !permissions.includes(grant.permission)) continue;
      // Only projects this call asked about count, whatever else an answer might hold.
      for (const id of grant.projects ?? []) granted.get(Number(id))?.add(grant.permission);
    }
  };
  await Promise.all(issueIdBatches(projectIds.map(String), PERMISSION_CHECK_PROJECTS_PER_CALL).map(checkBatch));
  return granted;
}

type PermissionSchemes = { permissionSchemes?: { permissions?: { permission?: string }[] }[] };

/**
 * Which of the given permissions some permission scheme of the site grants to anyone (a role, a
 * group, a user...): an app's own project permission means nothing until an administrator grants it.
 * Rejects when Jira cannot be asked.
 */
export async function permissionsGrantedOnSite(
  deps: ServiceDeps<"hostClient">,
  tenantId: string,
  permissions: readonly string[],
): Promise<Set<string>> {
  const answer = await deps.hostClient.call<PermissionSchemes>(tenantId, "jira", { method: "GET", path: PERMISSION_SCHEMES_PATH });
  const granted = new Set<string>();
  for (const scheme of answer?.permissionSchemes ?? []) {
    for (const grant of scheme.permissions ?? [])
      if (grant.permission && permissions.includes(grant.permission)) granted.add(grant.permission);
  }
  return granted;
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
