import { afterEach, describe, expect, it, vi } from "vitest";
import { HOST_DATA_ERROR, HostDataError, hostRequest } from "./hostData.js";
import { lookupIssues } from "./issues.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("host data through the bridge", () => {
  it("gives up on a host that does not answer, with the spec's message", async () => {
    vi.useFakeTimers();
    const silent = { request: () => new Promise<never>(() => {}) };
    const answer = hostRequest(silent, { url: "/rest/api/3/project/search" }, 1000);
    vi.advanceTimersByTime(1000);
    await expect(answer).rejects.toThrow(HOST_DATA_ERROR);
  });

  it("turns a host error into the spec's message and keeps the cause", async () => {
    const failing = { request: () => Promise.reject(new Error("503 from Jira")) };
    const error = await hostRequest(failing, { url: "/rest/api/3/issue/1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostDataError);
    expect((error as HostDataError).reason).toEqual(new Error("503 from Jira"));
  });

  it("looks up 120 linked issues in 3 searches of at most 50 ids", async () => {
    const bodies: { jql: string; maxResults: number }[] = [];
    const host = {
      request: async <T>(options: { data?: string }) => {
        const body = JSON.parse(options.data ?? "{}") as { jql: string; maxResults: number };
        bodies.push(body);
        const ids = /id in \(([^)]*)\)/.exec(body.jql)?.[1]?.split(",") ?? [];
        return { issues: ids.map((id) => ({ id, key: `PRJ-${id}`, fields: { summary: `Issue ${id}` } })), isLast: true } as T;
      },
    };
    const ids = Array.from({ length: 120 }, (_, i) => String(i + 1));
    const issues = await lookupIssues(host, ids);
    expect(bodies.map((body) => body.maxResults)).toEqual([50, 50, 50]);
    expect(issues.size).toBe(120);
    expect(issues.get("77")?.key).toBe("PRJ-77");
  });
});
