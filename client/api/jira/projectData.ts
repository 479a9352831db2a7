import { useQuery } from "@tanstack/react-query";
import { useHost } from "../../host/index.js";
import { ASSIGNEES_LOAD_ERROR, COMPONENTS_LOAD_ERROR, STATUSES_LOAD_ERROR } from "../loadErrors.js";
import { GLOBAL_PROJECT_ID } from "../projects.js";
import { type HostRequester, hostGet } from "./hostData.js";
import { ASSIGNEE_SEARCH_LIMIT, dedupeById, projectStatusChoices } from "./paging.js";

export type JiraStatus = { id: string; name: string; statusCategory?: { key?: "new" | "indeterminate" | "done" | string; name?: string } };
export type JiraComponent = { id: string; name: string };
export type JiraIssueType = { id: string; name: string; iconUrl?: string; subtask?: boolean; hierarchyLevel?: number };
export type JiraUser = { accountId: string; displayName: string; avatarUrls?: Record<string, string>; active?: boolean };

/** The project's workflow statuses, once each: the status choices of its requirements. */
export async function loadProjectStatuses(host: HostRequester, projectId: number): Promise<JiraStatus[]> {
  return projectStatusChoices(await hostGet<{ statuses?: JiraStatus[] }[]>(host, `/rest/api/3/project/${projectId}/statuses`));
}

export async function loadStatus(host: HostRequester, statusId: string): Promise<JiraStatus> {
  return hostGet<JiraStatus>(host, `/rest/api/3/status/${encodeURIComponent(statusId)}`);
}

export async function loadProjectComponents(host: HostRequester, projectId: number): Promise<JiraComponent[]> {
  return hostGet<JiraComponent[]>(host, `/rest/api/3/project/${projectId}/components`);
}

/** The project's issue types, or every issue type of the instance for Global Requirements. */
export async function loadIssueTypes(host: HostRequester, projectId: number): Promise<JiraIssueType[]> {
  const url = projectId === GLOBAL_PROJECT_ID ? "/rest/api/3/issuetype" : `/rest/api/3/issuetype/project?projectId=${projectId}`;
  return dedupeById(await hostGet<JiraIssueType[]>(host, url));
}

/** Spec section 9: up to 1000 users who can be assigned in the project. */
export async function loadAssignableUsers(host: HostRequester, projectId: number): Promise<JiraUser[]> {
  return hostGet<JiraUser[]>(host, `/rest/api/3/user/assignable/search?project=${projectId}&maxResults=${ASSIGNEE_SEARCH_LIMIT}`);
}

export async function loadUser(host: HostRequester, accountId: string): Promise<JiraUser> {
  return hostGet<JiraUser>(host, `/rest/api/3/user?accountId=${encodeURIComponent(accountId)}`);
}

export const jiraKeys = {
  statuses: (projectId: number) => ["jira", "statuses", projectId] as const,
  status: (statusId: string) => ["jira", "status", statusId] as const,
  components: (projectId: number) => ["jira", "components", projectId] as const,
  issueTypes: (projectId: number) => ["jira", "issueTypes", projectId] as const,
  assignableUsers: (projectId: number) => ["jira", "assignableUsers", projectId] as const,
  user: (accountId: string) => ["jira", "user", accountId] as const,
};

/** Host data changes rarely while a page is open; failures surface at once instead of retrying a slow host. */
const hostQueryOptions = { staleTime: 5 * 60_000, retry: false } as const;

/** Spec section 4: status, components and assignee are loaded only for non-global projects. */
const isProject = (projectId: number) => projectId !== GLOBAL_PROJECT_ID;

export function useProjectStatuses(projectId: number) {
  const host = useHost();
  return useQuery({
    queryKey: jiraKeys.statuses(projectId),
    queryFn: () => loadProjectStatuses(host, projectId),
    enabled: isProject(projectId),
    meta: { loadError: STATUSES_LOAD_ERROR },
    ...hostQueryOptions,
  });
}

export function useStatus(statusId: string | null | undefined) {
  const host = useHost();
  return useQuery({
    queryKey: jiraKeys.status(statusId ?? ""),
    queryFn: () => loadStatus(host, statusId ?? ""),
    enabled: !!statusId,
    ...hostQueryOptions,
  });
}

export function useProjectComponents(projectId: number) {
  const host = useHost();
  return useQuery({
    queryKey: jiraKeys.components(projectId),
    queryFn: () => loadProjectComponents(host, projectId),
    enabled: isProject(projectId),
    meta: { loadError: COMPONENTS_LOAD_ERROR },
    ...hostQueryOptions,
  });
}

export function useIssueTypes(projectId: number) {
  const host = useHost();
  return useQuery({ queryKey: jiraKeys.issueTypes(projectId), queryFn: () => loadIssueTypes(host, projectId), ...hostQueryOptions });
}

export function useAssignableUsers(projectId: number) {
  const host = useHost();
  return useQuery({
    queryKey: jiraKeys.assignableUsers(projectId),
    queryFn: () => loadAssignableUsers(host, projectId),
    enabled: isProject(projectId),
    meta: { loadError: ASSIGNEES_LOAD_ERROR },
    ...hostQueryOptions,
  });
}

/** Names and avatars of reporters, assignees and Activity entries. */
export function useJiraUser(accountId: string | null | undefined) {
  const host = useHost();
  return useQuery({
    queryKey: jiraKeys.user(accountId ?? ""),
    queryFn: () => loadUser(host, accountId ?? ""),
    enabled: !!accountId,
    ...hostQueryOptions,
  });
}
