import { describe, expect, it } from "vitest";
import { issueContextOf, linkableProjectIds } from "./issueContext.js";

describe("which issue the panel shows", () => {
  it("reads the issue and project from the iframe URL", async () => {
    const context = await issueContextOf("?issueId=10001&projectId=10000&lic=active", async () => ({ product: "jira" }));
    expect(context).toEqual({ issueId: "10001", projectId: 10000 });
  });

  it("falls back to the host context when the URL does not name them", async () => {
    const context = await issueContextOf("", async () => ({ product: "jira", issueId: "7", projectId: "3" }));
    expect(context).toEqual({ issueId: "7", projectId: 3 });
  });

  it("refuses an unsubstituted placeholder", async () => {
    await expect(issueContextOf("?issueId={issue.id}&projectId=1", async () => ({ product: "jira" }))).rejects.toThrow();
  });
});

describe("requirements an issue can link to", () => {
  it("offers the project's and the global requirements, or only global ones on the global project", () => {
    expect(linkableProjectIds(10000)).toEqual([10000, 0]);
    expect(linkableProjectIds(0)).toEqual([0]);
  });
});
