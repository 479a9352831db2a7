import type { HostCall, HostClient } from "../../server/connect/hostClient.js";
import { HostCallError } from "../../server/connect/hostClientImpl.js";

export type FakeIssue = { id: string; key: string; summary: string; status: string; issueTypeId: string };

export const FAKE_ISSUE_TYPES = [
  { id: "10001", name: "Story" },
  { id: "10002", name: "Bug" },
  { id: "10003", name: "Task" },
];

/**
 * A Jira that knows `issues` and answers what the matrix export asks as the app: issue types,
 * the project, and issue bulk fetches (counted as `searches`). `rateLimit` makes the next
 * reads answer 429 with Retry-After 0; `failSearches` makes them fail for good; `hold` stops one.
 */
export function fakeJira(issues: FakeIssue[], projectName = "Pump Controller") {
  const byId = new Map(issues.map((issue) => [issue.id, issue]));
  const state = {
    searches: 0,
    rateLimit: 0,
    failSearches: false,
    calls: [] as HostCall[],
    /** When set, the next search tells `entered` and waits for `release` (a test's hand on a running export). */
    hold: undefined as { entered: () => void; release: Promise<void> } | undefined,
  };
  const client: HostClient = {
    async call<T>(_tenantId: string, _product: "jira" | "confluence", call: HostCall): Promise<T> {
      state.calls.push(call);
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
          issues: wanted.flatMap((id) => byId.get(id) ?? []).map((issue) => ({
            id: issue.id,
            key: issue.key,
            fields: { summary: issue.summary, status: { name: issue.status }, issuetype: { id: issue.issueTypeId } },
          })),
          issueErrors: wanted.filter((id) => !byId.has(id)).map((id) => ({ id, errorMessages: ["Issue does not exist or you do not have permission to see it."] })),
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
