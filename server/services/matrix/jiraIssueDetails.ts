import type { HostClient } from "../../connect/hostClient.js";
import { HostCallError } from "../../connect/hostClientImpl.js";

/** What the Word export shows of an issue. */
export type IssueDetails = { key: string; summary: string; status: string; issueTypeId: string };

/** Jira Cloud answers at most 100 issues a search page when fields are asked for. */
export const ISSUE_DETAILS_PAGE_SIZE = 100;
/** Searches in flight at once: enough to keep Jira busy, few enough to stay clear of its rate limits. */
export const ISSUE_DETAILS_PARALLEL = 4;
const MAX_ATTEMPTS = 8;
const MAX_WAIT_SECONDS = 60;

type SearchAnswer = {
  issues?: { id: string; key: string; fields?: { summary?: string; status?: { name?: string }; issuetype?: { id?: string } } }[];
  nextPageToken?: string;
  isLast?: boolean;
};

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Jira's rate limit (429), its overload (503), and no answer at all (our 502 and 504: a reset connection, a timeout). */
const RETRYABLE = new Set([429, 502, 503, 504]);

/**
 * One read from the host, tried again while Jira is rate limiting or unreachable, each time after
 * the Retry-After it sent (1 s when it sent none, at most a minute); any other failure fails at once.
 */
export async function callRespectingRateLimits<T>(call: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const limited = error instanceof HostCallError && RETRYABLE.has(error.status);
      if (!limited || attempt >= MAX_ATTEMPTS) throw error;
      await sleep(Math.min(error.retryAfterSeconds ?? 1, MAX_WAIT_SECONDS) * 1000);
    }
  }
}

/**
 * Key, summary, status and type of the given issues of the given types, read as the app with
 * `POST /rest/api/3/search/jql` in pages of 100 ids, a few pages in flight. Issues Jira no longer
 * knows, and issues of other types, are simply absent.
 */
export async function readIssueDetails(
  hostClient: HostClient,
  tenantId: string,
  issueIds: readonly string[],
  issueTypeIds: readonly string[],
  sleep: Sleep = realSleep,
): Promise<Map<string, IssueDetails>> {
  const found = new Map<string, IssueDetails>();
  const ids = [...new Set(issueIds.filter((id) => /^\d+$/.test(id)))];
  if (ids.length === 0 || issueTypeIds.length === 0) return found;
  const pages: string[][] = [];
  for (let i = 0; i < ids.length; i += ISSUE_DETAILS_PAGE_SIZE) pages.push(ids.slice(i, i + ISSUE_DETAILS_PAGE_SIZE));
  const types = issueTypeIds.filter((id) => /^\d+$/.test(id)).join(",");

  const readPage = async (page: string[]) => {
    let nextPageToken: string | undefined;
    do {
      const body = {
        jql: `id in (${page.join(",")}) AND issuetype in (${types})`,
        fields: ["summary", "status", "issuetype"],
        maxResults: ISSUE_DETAILS_PAGE_SIZE,
        ...(nextPageToken ? { nextPageToken } : {}),
      };
      const answer = await callRespectingRateLimits(
        () => hostClient.call<SearchAnswer>(tenantId, "jira", { method: "POST", path: "/rest/api/3/search/jql", body }),
        sleep,
      );
      for (const issue of answer.issues ?? []) {
        found.set(String(issue.id), {
          key: issue.key,
          summary: issue.fields?.summary ?? "",
          status: issue.fields?.status?.name ?? "",
          issueTypeId: String(issue.fields?.issuetype?.id ?? ""),
        });
      }
      nextPageToken = answer.isLast === false || (answer.isLast === undefined && answer.nextPageToken) ? answer.nextPageToken : undefined;
    } while (nextPageToken);
  };

  let next = 0;
  const worker = async () => {
    while (next < pages.length) await readPage(pages[next++] as string[]);
  };
  await Promise.all(Array.from({ length: Math.min(ISSUE_DETAILS_PARALLEL, pages.length) }, worker));
  return found;
}
