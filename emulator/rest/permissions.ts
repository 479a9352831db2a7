import type { SeedIssue, SeedProject } from "../seed/jira.js";
import type { Site } from "../sites.js";
import type { Caller } from "./jira.js";
import { findUser, jiraError } from "./shapes.js";

/**
 * The emulated site's permission model, from its grants (seed/grants.ts, the seed users): an
 * administrator holds ADMINISTER; a person browses every project but those hidden from them, and
 * edits every project they browse but those read-only to them. Any other project permission asked
 * (EDIT_ISSUES, CREATE_ISSUES...) follows editing; an app's own (`<app key>__<module key>`) also
 * needs a permission scheme of the site to grant it. The app itself (a call signed with its JWT)
 * browses everything and administers nothing, as a Connect app with READ and WRITE scopes does.
 */

/** At most this many issues, and this many projects, per `POST /rest/api/3/permissions/check`. */
export const PERMISSION_CHECK_LIMIT = 1000;

export function isAdministrator(accountId: string): boolean {
  return findUser(accountId)?.administrator ?? false;
}

/** Whether a person (by account id; unknown accounts browse nothing) may browse the project. */
export function userMayBrowseProject(site: Site, accountId: string, project: Pick<SeedProject, "key"> | undefined): boolean {
  return (
    findUser(accountId) !== undefined &&
    project !== undefined &&
    !(site.content.grants.hiddenProjects[accountId] ?? []).includes(project.key)
  );
}

/** Whether a person may edit the project's issues (and hold what else editing brings). */
export function userMayEditProject(site: Site, accountId: string, project: Pick<SeedProject, "key"> | undefined): boolean {
  return (
    userMayBrowseProject(site, accountId, project) && !(site.content.grants.readOnlyProjects[accountId] ?? []).includes(project?.key ?? "")
  );
}

/** Whether the caller of a REST call sees the project: the app sees all, a person those they may browse. */
export function callerSeesProject(site: Site, caller: Caller, project: Pick<SeedProject, "key"> | undefined): boolean {
  return caller.kind === "app" ? project !== undefined : userMayBrowseProject(site, caller.accountId, project);
}

/** Whether the caller of a REST call sees the issue (its project's browse permission). */
export function callerSeesIssue(site: Site, caller: Caller, issue: Pick<SeedIssue, "projectId">): boolean {
  if (caller.kind === "app") return true;
  return userMayBrowseProject(
    site,
    caller.accountId,
    site.content.projects.find((p) => p.id === issue.projectId),
  );
}

/** Whether the caller holds a project permission in the project. */
function callerHolds(site: Site, caller: Caller, permission: string, project: Pick<SeedProject, "key"> | undefined): boolean {
  if (permission === "BROWSE_PROJECTS") return callerSeesProject(site, caller, project);
  if (caller.kind === "app") return project !== undefined;
  if (permission.includes("__") && !site.content.grants.appPermissions.includes(permission)) return false;
  return userMayEditProject(site, caller.accountId, project);
}

/**
 * `GET /rest/api/3/permissionscheme?expand=permissions`: the site's one permission scheme, granting
 * browsing and editing to its users (as projects' roles do) and whichever app permissions it grants.
 */
export function permissionSchemes(site: Site) {
  const grant = (permission: string, id: number) => ({ id, holder: { type: "projectRole", parameter: "10002" }, permission });
  return {
    permissionSchemes: [
      {
        id: 10000,
        name: "Default Permission Scheme",
        permissions: ["BROWSE_PROJECTS", "EDIT_ISSUES", ...site.content.grants.appPermissions].map((permission, index) =>
          grant(permission, 10100 + index),
        ),
      },
    ],
  };
}

/** Whether a person may view a Confluence page: everyone but where a view restriction names its viewers. */
export function userMayViewPage(site: Site, accountId: string, pageId: string): boolean {
  const viewers = site.content.grants.pageViewers[pageId];
  return findUser(accountId) !== undefined && (viewers === undefined || viewers.includes(accountId));
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
  Array.isArray(value)
    ? value
        .map((v) => (typeof v === "number" || typeof v === "string" ? Number(v) : Number.NaN))
        .filter((n) => Number.isSafeInteger(n) && n > 0)
    : [];

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
    return {
      status: 400,
      body: jiraError(`A maximum of ${PERMISSION_CHECK_LIMIT} projects and ${PERMISSION_CHECK_LIMIT} issues can be checked.`),
    };
  }
  const askedFor = typeof body.accountId === "string" && body.accountId !== "" ? body.accountId : undefined;
  if (askedFor !== undefined && !findUser(askedFor)) {
    return { status: 404, body: jiraError(`The user with account ID '${askedFor}' does not exist.`) };
  }
  if (askedFor !== undefined && caller.kind === "user" && caller.accountId !== askedFor && !isAdministrator(caller.accountId)) {
    return {
      status: 403,
      body: jiraError("You don't have the 'Administer Jira' global permission needed to check another user's permissions."),
    };
  }
  const subject: Caller = askedFor !== undefined ? { kind: "user", accountId: askedFor } : caller;
  const administers = subject.kind === "user" && isAdministrator(subject.accountId);

  const projectById = new Map(site.content.projects.map((project) => [Number(project.id), project]));
  const projectPermissions = requested.flatMap((entry) =>
    strings(entry?.permissions).map((permission) => ({
      permission,
      issues: ids(entry.issues).filter((id) => {
        const issue = findIssue(site, String(id));
        return issue
          ? callerHolds(
              site,
              subject,
              permission,
              site.content.projects.find((p) => p.id === issue.projectId),
            )
          : false;
      }),
      projects: ids(entry.projects).filter((id) => callerHolds(site, subject, permission, projectById.get(id))),
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
