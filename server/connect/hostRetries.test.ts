import { describe, expect, it } from "vitest";
import { HOST_CALL_TRIES, HostCallError, readWithHostRetries, writeWithHostRetries } from "./hostClientImpl.js";

/** Jira answering each status in turn, then `answer`; counts the calls and records the waits between them. */
function jiraAnswering(statuses: { status: number; retryAfterSeconds?: number }[], answer = { id: "10001" }) {
  const waits: number[] = [];
  let calls = 0;
  return {
    call: async () => {
      const next = statuses[calls++];
      if (next) throw new HostCallError(next.status, "", `Jira answered ${next.status}`, next.retryAfterSeconds);
      return answer;
    },
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    calls: () => calls,
    waits,
  };
}

describe("a read of Jira's", () => {
  it.each([500, 502, 503, 504])("answered %i is asked again a second later, and answers", async (status) => {
    const jira = jiraAnswering([{ status }]);
    await expect(readWithHostRetries(jira.call, jira.sleep)).resolves.toEqual({ id: "10001" });
    expect(jira.calls()).toBe(2);
    expect(jira.waits).toEqual([1000]);
  });

  it("rate limited (429) waits the Retry-After Jira sent, at most a minute", async () => {
    const jira = jiraAnswering([
      { status: 429, retryAfterSeconds: 7 },
      { status: 429, retryAfterSeconds: 3600 },
    ]);
    await expect(readWithHostRetries(jira.call, jira.sleep)).resolves.toEqual({ id: "10001" });
    expect(jira.waits).toEqual([7000, 60_000]);
  });

  it(`failing for good is given up after ${HOST_CALL_TRIES} tries, with Jira's last answer`, async () => {
    const jira = jiraAnswering(Array.from({ length: 20 }, () => ({ status: 500 })));
    await expect(readWithHostRetries(jira.call, jira.sleep)).rejects.toMatchObject({ status: 500 });
    expect(jira.calls()).toBe(HOST_CALL_TRIES);
  });

  it("refused for good (404, 403) is not asked again", async () => {
    for (const status of [404, 403]) {
      const jira = jiraAnswering([{ status }]);
      await expect(readWithHostRetries(jira.call, jira.sleep)).rejects.toMatchObject({ status });
      expect(jira.calls()).toBe(1);
    }
  });
});

describe("a write of Jira's that is not idempotent (a comment)", () => {
  it.each([500, 502, 503, 504])("answered %i is not sent again: Jira may have written it", async (status) => {
    const jira = jiraAnswering([{ status }]);
    await expect(writeWithHostRetries(jira.call, jira.sleep)).rejects.toMatchObject({ status });
    expect(jira.calls()).toBe(1);
  });

  it("refused by the rate limit (429), which Jira answers before acting, is sent again after the Retry-After", async () => {
    const jira = jiraAnswering([{ status: 429, retryAfterSeconds: 2 }]);
    await expect(writeWithHostRetries(jira.call, jira.sleep)).resolves.toEqual({ id: "10001" });
    expect(jira.calls()).toBe(2);
    expect(jira.waits).toEqual([2000]);
  });
});
