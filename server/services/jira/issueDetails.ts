import type { HostClient } from "../../connect/hostClient.js";
import { readWithHostRetries, realSleep, type Sleep } from "../../connect/hostClientImpl.js";

/** What the Word export shows of an issue. */
export type IssueDetails = { key: string; summary: string; status: string; issueTypeId: string };

/**
 * Issues per read. Jira Cloud's bulk fetch answers up to 1000 issues a call when the fields are
 * named and single-valued (100 otherwise), while its JQL search gives at most 100 a page once any
 * field beyond id and key is asked for: ten times fewer calls for the same details.
 */
export const ISSUE_DETAILS_PER_CALL = 1000;
/** Reads in flight at once for one export: enough to keep Jira busy, few enough to stay clear of its rate limits. */
export const ISSUE_DETAILS_PARALLEL = 4;
/** Named and single-valued, so that Jira serves the larger calls. */
const DETAIL_FIELDS = ["summary", "status", "issuetype"];
const KEY_FIELDS = ["summary"];
const STATUS_FIELDS = ["status"];
type BulkFetchAnswer = {
  issues?: {
    id: string;
    key: string;
    fields?: { summary?: string; status?: { name?: string; statusCategory?: { key?: string } }; issuetype?: { id?: string } };
  }[];
};

/** Runs the calls given to it at most `limit` at a time, the others waiting their turn in order. */
export function limitInFlight(limit: number): <T>(call: () => Promise<T>) => Promise<T> {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  return async (call) => {
    if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else inFlight++;
    try {
      return await call();
    } finally {
      // The freed slot passes straight to the next waiting call, if any.
      const next = waiting.shift();
      if (next) next();
      else inFlight--;
    }
  };
}

/**
 * The distinct issue ids that are numbers (Jira's ids; anything else is never asked for), in
 * batches of `size`, the most one Jira call takes.
 */
export function issueIdBatches(issueIds: Iterable<string>, size: number): string[][] {
  const ids = [...new Set([...issueIds].filter((id) => /^\d+$/.test(id)))];
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
  return batches;
}

/** Reads issue details for one export, its reads sharing one limit of calls in flight however many pages ask at once. */
export type IssueDetailsReader = (issueIds: readonly string[]) => Promise<Map<string, IssueDetails>>;
/** Reads issue keys for one export, as IssueDetailsReader reads details. */
export type IssueKeyReader = (issueIds: readonly string[]) => Promise<Map<string, string>>;

type BulkFetchedIssue = NonNullable<BulkFetchAnswer["issues"]>[number];

/**
 * The given issues read as the app with `POST /rest/api/3/issue/bulkfetch` asking for `fields`
 * (named and single-valued, so that Jira serves 1000 ids a call), at most a few calls in flight
 * for the whole export, each answered issue handed to `take`. Ids that are not numbers are not
 * asked for; issues Jira no longer knows (its issueErrors) are simply not handed over.
 */
function bulkFetchReader(hostClient: HostClient, tenantId: string, fields: readonly string[], sleep: Sleep) {
  const limited = limitInFlight(ISSUE_DETAILS_PARALLEL);
  const readCall = async (ids: string[], take: (issue: BulkFetchedIssue) => void) => {
    const body = { issueIdsOrKeys: ids, fields };
    const answer = await limited(() =>
      readWithHostRetries(
        () => hostClient.call<BulkFetchAnswer>(tenantId, "jira", { method: "POST", path: "/rest/api/3/issue/bulkfetch", body }),
        sleep,
      ),
    );
    for (const issue of answer.issues ?? []) take(issue);
  };
  return async (issueIds: readonly string[], take: (issue: BulkFetchedIssue) => void): Promise<void> => {
    await Promise.all(issueIdBatches(issueIds, ISSUE_DETAILS_PER_CALL).map((ids) => readCall(ids, take)));
  };
}

/**
 * Key, summary, status and type of the given issues of the given types (the matrix's Word export);
 * issues of other types are simply absent.
 */
export function issueDetailsReader(
  hostClient: HostClient,
  tenantId: string,
  issueTypeIds: readonly string[],
  sleep: Sleep = realSleep,
): IssueDetailsReader {
  const types = new Set(issueTypeIds.filter((id) => /^\d+$/.test(id)));
  const read = bulkFetchReader(hostClient, tenantId, DETAIL_FIELDS, sleep);
  return async (issueIds) => {
    const found = new Map<string, IssueDetails>();
    if (types.size === 0) return found;
    await read(issueIds, (issue) => {
      const issueTypeId = String(issue.fields?.issuetype?.id ?? "");
      if (!types.has(issueTypeId)) return;
      found.set(String(issue.id), {
        key: issue.key,
        summary: issue.fields?.summary ?? "",
        status: issue.fields?.status?.name ?? "",
        issueTypeId,
      });
    });
    return found;
  };
}

/**
 * The keys of the given issues of any type (the CSV export). Jira always answers the key; the
 * one field asked for is the smallest that keeps the calls at 1000 ids, so an answer stays a
 * fifth the size of the details'.
 */
export function issueKeyReader(hostClient: HostClient, tenantId: string, sleep: Sleep = realSleep): IssueKeyReader {
  const read = bulkFetchReader(hostClient, tenantId, KEY_FIELDS, sleep);
  return async (issueIds) => {
    const keys = new Map<string, string>();
    await read(issueIds, (issue) => keys.set(String(issue.id), issue.key));
    return keys;
  };
}

/** Of the given issues, those whose status is in Jira's status category Done (the coverage figures). */
export async function issuesDone(
  hostClient: HostClient,
  tenantId: string,
  issueIds: readonly string[],
  sleep: Sleep = realSleep,
): Promise<Set<string>> {
  const done = new Set<string>();
  await bulkFetchReader(
    hostClient,
    tenantId,
    STATUS_FIELDS,
    sleep,
  )(issueIds, (issue) => {
    if (issue.fields?.status?.statusCategory?.key === "done") done.add(String(issue.id));
  });
  return done;
}
