import { describe, expect, it } from "vitest";
import { type FakeIssue, fakeJira } from "../../../test/helpers/fakeJira.js";
import type { HostCall, HostClient } from "../../connect/hostClient.js";
import { ISSUE_DETAILS_PARALLEL, ISSUE_DETAILS_PER_CALL, issueDetailsReader, issueKeyReader } from "./issueDetails.js";

const issueTypes = ["10001", "10002"];
const manyIssues: FakeIssue[] = Array.from({ length: 2500 }, (_, i) => ({
  id: String(20000 + i),
  key: `PUMP-${i + 1}`,
  summary: `Issue ${i + 1}`,
  status: "To Do",
  issueTypeId: i % 3 === 0 ? "10003" : "10001",
}));

describe("reading the issue details of an export from Jira", () => {
  it("reads 1000 ids a bulk fetch with named fields, keeping only the exported issue types", async () => {
    const jira = fakeJira(manyIssues);
    const read = issueDetailsReader(jira.client, "tenant", issueTypes, async () => {});

    const found = await read([...manyIssues.map((issue) => issue.id), "20000", "not-an-id", "99999"]);

    const fetches = jira.state.calls.filter((call) => call.path === "/rest/api/3/issue/bulkfetch");
    expect(fetches.map((call) => (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys.length)).toEqual([
      ISSUE_DETAILS_PER_CALL,
      ISSUE_DETAILS_PER_CALL,
      501,
    ]);
    expect(fetches.every((call) => call.method === "POST")).toBe(true);
    expect(fetches.map((call) => (call.body as { fields: string[] }).fields)[0]).toEqual(["summary", "status", "issuetype"]);
    expect(found.size).toBe(manyIssues.filter((issue) => issue.issueTypeId !== "10003").length);
    expect(found.get("20001")).toEqual({ key: "PUMP-2", summary: "Issue 2", status: "To Do", issueTypeId: "10001" });
    expect(found.has("20000")).toBe(false);
  });

  it("reads the keys of issues of every type for the CSV export, asking for one small field, 1000 ids a call", async () => {
    const jira = fakeJira(manyIssues);
    const read = issueKeyReader(jira.client, "tenant", async () => {});

    const keys = await read(manyIssues.slice(0, 1200).map((issue) => issue.id));

    expect(keys.size).toBe(1200);
    expect(keys.get("20000")).toBe("PUMP-1");
    const fetches = jira.state.calls.filter((call) => call.path === "/rest/api/3/issue/bulkfetch");
    expect(fetches.map((call) => call.body)).toEqual([
      { issueIdsOrKeys: manyIssues.slice(0, 1000).map((issue) => issue.id), fields: ["summary"] },
      { issueIdsOrKeys: manyIssues.slice(1000, 1200).map((issue) => issue.id), fields: ["summary"] },
    ]);
  });

  it("waits out Jira's 429 and keeps at most a few reads in flight however many pages ask at once", async () => {
    const jira = fakeJira(manyIssues);
    jira.state.rateLimit = 3;
    let inFlight = 0;
    let mostInFlight = 0;
    const counting: HostClient = {
      async call<T>(tenantId: string, product: "jira" | "confluence", call: HostCall): Promise<T> {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return await jira.client.call<T>(tenantId, product, call);
        } finally {
          inFlight--;
        }
      },
    };
    const waits: number[] = [];
    const read = issueDetailsReader(counting, "tenant", issueTypes, async (ms) => void waits.push(ms));

    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, page) => read(manyIssues.slice(page * 250, page * 250 + 250).map((issue) => issue.id))),
    );

    expect(pages.reduce((sum, page) => sum + page.size, 0)).toBe(manyIssues.filter((issue) => issue.issueTypeId !== "10003").length);
    expect(mostInFlight).toBe(ISSUE_DETAILS_PARALLEL);
    expect(waits).toEqual([0, 0, 0]);
    expect(jira.state.searches).toBe(13);
  });
});
