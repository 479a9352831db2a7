import type { SeedIssue, SeedProject } from "../seed/jira.js";
import type { Site } from "../sites.js";
import type { Caller } from "./jira.js";
import { findUser, jiraError } from "./shapes.js";

/**
 * The emulated site's permission model, from the seed users (seed/users.ts): an administrator
 * holds ADMINISTER; everyone browses every project but those named in their `hiddenProjects`, and
 * holds every project permission where they browse. The app itself (a call signed with its JWT)
 * browses everything and administers nothing, as a Connect app with READ and WRITE scopes does.
 */

/** At most this many issues, and this many projects, per `POST /rest/api/3/permissions/check`. */
export const PERMISSION_CHECK_LIMIT = 1000;

export function isAdministrator(accountId: string): boolean {
  return findUser(accountId)?.administrator ?? false;
}

/** Whether a person (by account id; unknown accounts browse nothing) may browse the project. */
export function userMayBrowseProject(accountId: string, project: Pick<SeedProject, "key"> | undefined): boolean {
  const user = findUser(accountId);
  return user !== undefined && project !== undefined && !user.hiddenProjects.includes(project.key);
}

/** Whether the caller of a REST call sees the project: the app sees all, a person those they may browse. */
export function callerSeesProject(caller: Caller, project: Pick<SeedProject, "key"> | undefined): boolean {
  return caller.kind === "app" ? project !== undefined : userMayBrowseProject(caller.accountId, project);
}

/** Whether the caller of a REST call sees the issue (its project's browse permission). */
export function callerSeesIssue(site: Site, caller: Caller, issue: Pick<SeedIssue, "projectId">): boolean {
  if (caller.kind === "app") return true;
  return userMayBrowseProject(caller.accountId, site.content.projects.find((p) => p.id === issue.projectId));
}

type BulkPermissionsRequest = {
  accountId?: unknown;
  globalPermissions?: unknown;
  projectPermissions?: unknown;
};
type ProjectPermissionsRequest = { permissions?: unknown; projects?: unknown; issues?: unknown };

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => v !== null && v !== "").map(String) : []);
/** Ids as Jira reads them: numbers (or numeric strings); anything else is ignored, as Jira ignores invalid ids. */
const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((v) => (typeof v === "number" || typeof v === "string" ? Number(v) : Number.NaN)).filter((n) => Number.isSafeInteger(n) && n > 0) : [];

/**
 * `POST /rest/api/3/permissions/check` as Jira Cloud answers it: for `accountId` (the caller when
 * absent), the global permissions granted among those asked, and for each project permission
 * asked, the asked projects and issues where it is granted (ids as numbers; unknown ids left out).
 * Checking someone else needs ADMINISTER unless the app asks (Jira lets an app's server ask for
 * anyone); an unknown account is a 404; more than 1000 issues or projects a 400. `findIssue` is
 * the router's indexed lookup, so a check of 1000 issues is 1000 map reads.
 */
export function checkPermissions(
  site: Site,
  caller: Caller,
  body: BulkPermissionsRequest,
  findIssue: (site: Site, id: string) => SeedIssue | undefined,
): { status: number; body: unknown } {
  const requested = Array.isArray(body.projectPermissions) ? (body.projectPermissions as ProjectPermissionsRequest[]) : [];
  const issueCount = requested.reduce((sum, entry) => sum + ids(entry?.issues).length, 0);
  const projectCount = requested.reduce((sum, entry) => sum + ids(entry?.projects).length, 0);
  if (issueCount > PERMISSION_CHECK_LIMIT || projectCount > PERMISSION_CHECK_LIMIT) {
    return { status: 400, body: jiraError(`A maximum of ${PERMISSION_CHECK_LIMIT} projects and ${PERMISSION_CHECK_LIMIT} issues can be checked.`) };
  }
  const askedFor = typeof body.accountId === "string" && body.accountId !== "" ? body.accountId : undefined;
  if (askedFor !== undefined && !findUser(askedFor)) {
    return { status: 404, body: jiraError(`The user with account ID '${askedFor}' does not exist.`) };
  }
  if (askedFor !== undefined && caller.kind === "user" && caller.accountId !== askedFor && !isAdministrator(caller.accountId)) {
    return { status: 403, body: jiraError("You don't have the 'Administer Jira' global permission needed to check another user's permissions.") };
  }
  const subject: Caller = askedFor !== undefined ? { kind: "user", accountId: askedFor } : caller;
  const administers = subject.kind === "user" && isAdministrator(subject.accountId);

  const projectById = new Map(site.content.projects.map((project) => [Number(project.id), project]));
  const projectPermissions = requested.flatMap((entry) =>
    strings(entry?.permissions).map((permission) => ({
      permission,
      issues: ids(entry.issues).filter((id) => {
        const issue = findIssue(site, String(id));
        return issue ? callerSeesIssue(site, subject, issue) : false;
      }),
      projects: ids(entry.projects).filter((id) => callerSeesProject(subject, projectById.get(id))),
    })),
  );
  return {
    status: 200,
    body: {
      globalPermissions: strings(body.globalPermissions).filter((key) => key === "ADMINISTER" && administers),
      projectPermissions,
    },
  };
}
