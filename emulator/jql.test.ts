import { describe, expect, it } from "vitest";
import { decodePageToken, encodePageToken, idsRequiredBy, JqlError, parseJql, runJql } from "./jql.js";
import { seedJira } from "./seed/jira.js";
import { seedIssueTypes, seedStatuses } from "./seed/jira.js";

const { projects, issues } = seedJira();
const view = (issue: (typeof issues)[number]) => {
  const project = projects.find((p) => p.id === issue.projectId);
  const type = seedIssueTypes.find((t) => t.id === issue.issueTypeId);
  const status = seedStatuses.find((s) => s.id === issue.statusId);
  return {
    id: issue.id,
    key: issue.key,
    created: issue.created,
    updated: issue.updated,
    summary: issue.summary,
    text: `${issue.summary} ${issue.description}`,
    values: {
      project: [project?.id ?? "", project?.key ?? ""],
      issuetype: [type?.id ?? "", type?.name ?? ""],
      status: [status?.id ?? "", status?.name ?? ""],
      key: [issue.key],
      id: [issue.id],
    },
  };
};
const keysOf = (jql: string) => runJql(parseJql(jql), issues, view).map((i) => i.key);

describe("the emulator's JQL subset", () => {
  it("seeds three projects of at least 60 issues across Epic, Story, Task and Bug, the same on every run", () => {
    expect(projects.map((p) => [p.id, p.key])).toEqual([
      ["10000", "PUMP"],
      ["10001", "ROVER"],
      ["10002", "PAY"],
    ]);
    for (const project of projects) {
      const own = issues.filter((i) => i.projectId === project.id);
      expect(own.length).toBeGreaterThanOrEqual(60);
      expect(new Set(own.map((i) => i.issueTypeId))).toEqual(new Set(["10000", "10001", "10002", "10003"]));
    }
    expect(seedJira()).toEqual({ projects, issues });
  });

  it("filters by project key or id, issue type and status, with AND and OR", () => {
    const pumpBugs = keysOf("project = PUMP AND issuetype = Bug ORDER BY key ASC");
    expect(pumpBugs.length).toBeGreaterThan(5);
    expect(pumpBugs.every((k) => k.startsWith("PUMP-"))).toBe(true);
    expect(keysOf("project = 10000 AND type = 10003 ORDER BY key")).toEqual(pumpBugs);
    const done = keysOf('project in (ROVER, PAY) AND status = "Done"');
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((k) => !k.startsWith("PUMP-"))).toBe(true);
    expect(keysOf("key = PUMP-1 OR key = PAY-2 ORDER BY key")).toEqual(["PAY-2", "PUMP-1"]);
  });

  it("finds issues by key list, id list and text search", () => {
    expect(keysOf("key in (ROVER-3, ROVER-1) ORDER BY key ASC")).toEqual(["ROVER-1", "ROVER-3"]);
    expect(keysOf("id in (10000, 10001) ORDER BY id")).toEqual(["PUMP-1", "PUMP-2"]);
    const hits = keysOf('text ~ "occlusion alarm"');
    expect(hits.length).toBeGreaterThan(0);
    const summaryHits = runJql(parseJql('project = PAY AND summary ~ "refund"'), issues, view);
    expect(summaryHits.length).toBeGreaterThan(0);
    expect(summaryHits.every((i) => i.summary.toLowerCase().includes("refund"))).toBe(true);
  });

  it("orders by key numerically and by created, newest first by default", () => {
    expect(keysOf("project = PUMP ORDER BY key ASC").slice(8, 11)).toEqual(["PUMP-9", "PUMP-10", "PUMP-11"]);
    expect(keysOf("project = PUMP ORDER BY key DESC")[0]).toBe("PUMP-66");
    expect(keysOf("project = PUMP")[0]).toBe("PUMP-66");
  });

  it("rejects unsupported fields and broken queries as Jira does", () => {
    expect(() => parseJql("sprint = 4")).toThrow(JqlError);
    expect(() => parseJql("project = ")).toThrow(JqlError);
    expect(() => parseJql('summary ~ "open')).toThrow(JqlError);
  });

  it("round-trips page tokens and refuses forged ones", () => {
    expect(decodePageToken(encodePageToken(200))).toBe(200);
    expect(decodePageToken(undefined)).toBe(0);
    expect(() => decodePageToken("not-a-token")).toThrow(JqlError);
  });
});

describe("searches limited to ids", () => {
  it("know the ids an `id in` condition (alone or ANDed) limits them to, and nothing else", () => {
    expect(idsRequiredBy(parseJql("id in (1, 2, 3) AND issuetype in (10001)").where)).toEqual(new Set(["1", "2", "3"]));
    expect(idsRequiredBy(parseJql("project = PUMP AND id = 7").where)).toEqual(new Set(["7"]));
    expect(idsRequiredBy(parseJql("id in (1, 2) AND id in (2, 3)").where)).toEqual(new Set(["2"]));
    expect(idsRequiredBy(parseJql("id in (1, 2) OR project = PUMP").where)).toBeUndefined();
    expect(idsRequiredBy(parseJql("id not in (1)").where)).toBeUndefined();
    expect(idsRequiredBy(parseJql("project = PUMP").where)).toBeUndefined();
  });
});
