import type { HostCall, HostClient } from "../../server/connect/hostClient.js";
import { HostCallError } from "../../server/connect/hostClientImpl.js";
import { PERMISSION_SCHEMES_PATH, PERMISSIONS_CHECK_PATH } from "../../server/services/jira/jiraPermissions.js";

/**
 * Who may do what in a fake Jira: by default everyone is a Jira administrator who may browse
 * every issue and browse and edit every project (what tests meant before the server asked), or as a test says.
 * `holds` answers the project permissions besides browsing (EDIT_ISSUES, rmCloud's own); `grantedOnSite`
 * lists the permissions the site's permission schemes grant to anyone (none of rmCloud's by default).
 */
export type FakeJiraPermissions = {
  isAdministrator?: (accountId: string) => boolean;
  mayBrowse?: (accountId: string, issueId: string) => boolean;
  mayBrowseProject?: (accountId: string, projectId: number) => boolean;
  holds?: (accountId: string, projectId: number, permission: string) => boolean;
  grantedOnSite?: readonly string[];
};

/** Jira's permission questions: the bulk check, and the permission schemes' grants. */
export const isPermissionCheck = (call: HostCall) => call.path === PERMISSIONS_CHECK_PATH || call.path === PERMISSION_SCHEMES_PATH;

/** Connect's license REST (server/connect/license.ts), asked as the app. */
export const isLicenseCheck = (call: HostCall) => call.method === "GET" && call.path.startsWith("/rest/atlassian-connect/1/addons/");

/** The host's answer about the app: an active paid license unless `active` says otherwise. */
export const licenseAnswer = (call: HostCall, active = true) => ({
  key: decodeURIComponent(call.path.split("/").pop() ?? ""),
  state: "ENABLED",
  license: { active, type: "COMMERCIAL", evaluation: false },
});

type PermissionCheckBody = {
  accountId?: string;
  globalPermissions?: string[];
  projectPermissions?: { permissions?: string[]; issues?: number[]; projects?: number[] }[];
};

/**
 * `POST /rest/api/3/permissions/check` answered as Jira answers it: the global permissions granted
 * of those asked (ADMINISTER only), and for each project permission asked the issues (browsing
 * only) and projects granted, as numbers. `GET /rest/api/3/permissionscheme` answers one scheme
 * granting `grantedOnSite`.
 */
export function permissionCheckAnswer(call: HostCall, permissions: FakeJiraPermissions = {}) {
  if (call.path === PERMISSION_SCHEMES_PATH) {
    return {
      permissionSchemes: [
        { id: 0, permissions: (permissions.grantedOnSite ?? []).map((permission) => ({ permission, holder: { type: "group" } })) },
      ],
    };
  }
  const body = (call.body ?? {}) as PermissionCheckBody;
  const accountId = String(body.accountId ?? "");
  if (!accountId) throw new Error("A permission check without accountId answers for the app itself");
  const isAdministrator = permissions.isAdministrator ?? (() => true);
  const mayBrowse = permissions.mayBrowse ?? (() => true);
  const mayBrowseProject = permissions.mayBrowseProject ?? (() => true);
  const holds = permissions.holds ?? ((_account: string, _project: number, permission: string) => !permission.includes("__"));
  const asked = body.projectPermissions ?? [];
  if (asked.some((entry) => (entry.issues ?? []).length > 1000 || (entry.projects ?? []).length > 1000)) {
    throw new HostCallError(400, "", "At most 1000 issues and 1000 projects can be checked");
  }
  const granted = (permission: string, projectId: number) =>
    mayBrowseProject(accountId, projectId) && (permission === "BROWSE_PROJECTS" || holds(accountId, projectId, permission));
  return {
    globalPermissions: (body.globalPermissions ?? []).filter((key) => key === "ADMINISTER" && isAdministrator(accountId)),
    projectPermissions: asked.flatMap((entry) =>
      (entry.permissions ?? []).map((permission) => ({
        permission,
        issues: permission === "BROWSE_PROJECTS" ? (entry.issues ?? []).filter((id) => mayBrowse(accountId, String(id))) : [],
        projects: (entry.projects ?? []).filter((id) => granted(permission, id)),
      })),
    ),
  };
}

export type FakeIssue = { id: string; key: string; summary: string; status: string; issueTypeId: string };

export const FAKE_ISSUE_TYPES = [
  { id: "10001", name: "Story" },
  { id: "10002", name: "Bug" },
  { id: "10003", name: "Task" },
];

/**
 * A Jira that knows `issues` and answers what the matrix export asks as the app: issue types,
 * the project, permission checks (`permissions`), and issue bulk fetches (counted as `searches`). `rateLimit` makes the next
 * reads answer 429 with Retry-After 0; `failSearches` makes them fail for good; `hold` stops one.
 */
export function fakeJira(issues: FakeIssue[], projectName = "Pump Controller") {
  const byId = new Map(issues.map((issue) => [issue.id, issue]));
  const state = {
    searches: 0,
    rateLimit: 0,
    failSearches: false,
    calls: [] as HostCall[],
    /** Everyone administers and browses everything unless a test says otherwise. */
    permissions: {} as FakeJiraPermissions,
    /** When set, the next search tells `entered` and waits for `release` (a test's hand on a running export). */
    hold: undefined as { entered: () => void; release: Promise<void> } | undefined,
  };
  const client: HostClient = {
    async call<T>(_tenantId: string, _product: "jira" | "confluence", call: HostCall): Promise<T> {
      state.calls.push(call);
      if (isPermissionCheck(call)) return permissionCheckAnswer(call, state.permissions) as T;
      if (call.path.startsWith("/rest/api/3/issuetype")) return FAKE_ISSUE_TYPES as T;
      if (call.path.startsWith("/rest/api/3/project/")) return { id: "10000", key: "PUMP", name: projectName } as T;
      if (call.path === "/rest/api/3/issue/bulkfetch") {
        state.searches++;
        const hold = state.hold;
        if (hold) {
          state.hold = undefined;
          hold.entered();
          await hold.release;
        }
        if (state.failSearches) throw new HostCallError(500, "", "Jira answered 500");
        if (state.rateLimit > 0) {
          state.rateLimit--;
          throw new HostCallError(429, "", "Jira answered 429", 0);
        }
        const wanted = (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys;
        if (wanted.length > 1000) throw new HostCallError(400, "", "You can request up to 1000 issues.");
        return {
          issues: wanted
            .flatMap((id) => byId.get(id) ?? [])
            .map((issue) => ({
              id: issue.id,
              key: issue.key,
              fields: { summary: issue.summary, status: { name: issue.status }, issuetype: { id: issue.issueTypeId } },
            })),
          issueErrors: wanted
            .filter((id) => !byId.has(id))
            .map((id) => ({ id, errorMessages: ["Issue does not exist or you do not have permission to see it."] })),
        } as T;
      }
      throw new HostCallError(404, "", `${call.path} is not known to this fake Jira`);
    },
  };
  /** Stops the next search until `release`; `inJira` resolves once it is waiting. */
  const holdNextSearch = () => {
    let entered = () => {};
    let release = () => {};
    const inJira = new Promise<void>((resolve) => {
      entered = resolve;
    });
    state.hold = {
      entered,
      release: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    return { inJira, release };
  };
  return { client, state, holdNextSearch };
}
