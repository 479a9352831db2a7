import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useHost } from "../../host/index.js";
import { type HostRequester, hostPost } from "./hostData.js";
import {
  followPageTokens,
  ISSUE_LOOKUP_PAGE_SIZE,
  ISSUE_PAGE_SIZE,
  issueLookupJqls,
  issuePickerJql,
  MAX_PARALLEL_REQUESTS,
  mapWithConcurrency,
  type TokenPage,
} from "./paging.js";

/** What the add-on shows of an issue: Linked Issues, the picker, the matrix columns. */
export type JiraIssue = {
  id: string;
  key: string;
  fields: {
    summary: string;
    issuetype?: { id: string; name: string; iconUrl?: string };
    status?: { id: string; name: string; statusCategory?: { key?: string } };
    project?: { id: string; key?: string };
  };
};

export const ISSUE_FIELDS = ["summary", "issuetype", "status", "project"];

type SearchJqlAnswer = { issues?: JiraIssue[]; nextPageToken?: string; isLast?: boolean };

/** One page of `POST /rest/api/3/search/jql` (POST keeps long `id in (...)` lists out of the URL). */
export async function searchIssuesPage(
  host: HostRequester,
  jql: string,
  { maxResults = ISSUE_PAGE_SIZE, nextPageToken }: { maxResults?: number; nextPageToken?: string | undefined } = {},
): Promise<TokenPage<JiraIssue>> {
  const answer = await hostPost<SearchJqlAnswer>(host, "/rest/api/3/search/jql", {
    jql,
    fields: ISSUE_FIELDS,
    maxResults,
    ...(nextPageToken ? { nextPageToken } : {}),
  });
  return { items: answer.issues ?? [], nextPageToken: answer.nextPageToken, isLast: answer.isLast };
}

/**
 * Every issue of several JQL queries: each query follows its own nextPageToken chain, and the
 * queries run side by side with at most `parallel` requests in flight (spec section 9: pages of
 * 100, 10 in parallel; the matrix passes pages of 50 and 50 in parallel).
 */
export async function searchAllIssues(
  host: HostRequester,
  jqls: readonly string[],
  { pageSize = ISSUE_PAGE_SIZE, parallel = MAX_PARALLEL_REQUESTS }: { pageSize?: number; parallel?: number } = {},
): Promise<JiraIssue[]> {
  const perQuery = await mapWithConcurrency(jqls, parallel, (jql) =>
    followPageTokens((nextPageToken) => searchIssuesPage(host, jql, { maxResults: pageSize, nextPageToken })),
  );
  return perQuery.flat();
}

/** Issues by id, 50 ids a request, 10 requests in flight. Ids Jira no longer knows are simply absent. */
export async function lookupIssues(host: HostRequester, issueIds: readonly string[]): Promise<Map<string, JiraIssue>> {
  const issues = await searchAllIssues(host, issueLookupJqls(issueIds), { pageSize: ISSUE_LOOKUP_PAGE_SIZE });
  return new Map(issues.map((issue) => [issue.id, issue]));
}

export const jiraIssueKeys = {
  byIds: (issueIds: readonly string[]) => ["jira", "issues", "byIds", [...issueIds].sort()] as const,
  picker: (projectId: number, text: string) => ["jira", "issues", "picker", projectId, text] as const,
};

/** The issues of Linked Issues, in the order of `issueIds`. */
export function useIssuesByIds(issueIds: readonly string[]) {
  const host = useHost();
  return useQuery({
    queryKey: jiraIssueKeys.byIds(issueIds),
    queryFn: () => lookupIssues(host, issueIds),
    enabled: issueIds.length > 0,
    retry: false,
  });
}

/** The picker's search: one page of 100 at a time, the next one when the user scrolls to the end. */
export function useIssueSearch(projectId: number, text: string, enabled = true) {
  const host = useHost();
  return useInfiniteQuery({
    queryKey: jiraIssueKeys.picker(projectId, text),
    queryFn: ({ pageParam }) => searchIssuesPage(host, issuePickerJql(projectId, text), { nextPageToken: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => (page.isLast === true ? undefined : page.nextPageToken),
    enabled,
    retry: false,
    staleTime: 30_000,
  });
}
