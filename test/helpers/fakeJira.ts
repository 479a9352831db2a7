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
 * the project, and `id in (...) AND issuetype in (...)` searches. `rateLimit` makes the next
 * searches answer 429 with Retry-After 0; `failSearches` makes them fail for good; `hold` stops one.
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
      if (call.path === "/rest/api/3/search/jql") {
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
        const jql = String((call.body as { jql: string }).jql);
        const ids = /id in \(([^)]*)\)/.exec(jql)?.[1]?.split(",") ?? [];
        const types = new Set(/issuetype in \(([^)]*)\)/.exec(jql)?.[1]?.split(",") ?? []);
        const found = ids.map((id) => byId.get(id)).filter((issue): issue is FakeIssue => !!issue && types.has(issue.issueTypeId));
        return {
          isLast: true,
          issues: found.map((issue) => ({
            id: issue.id,
            key: issue.key,
            fields: { summary: issue.summary, status: { name: issue.status }, issuetype: { id: issue.issueTypeId } },
          })),
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
