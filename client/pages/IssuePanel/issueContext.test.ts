import { describe, expect, it } from "vitest";
import { issueContextOf, linkableProjectIds, requirementPageUrl } from "./issueContext.js";

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

describe("links from the panel", () => {
  it("opens a global requirement on the issue's project page of the add-on, deep-linked", () => {
    expect(requirementPageUrl("https://acme.atlassian.net/", { jiraProjectId: 10000, projectId: 0, requirementId: 42 })).toBe(
      "https://acme.atlassian.net/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.id=10000&ac.projectId=0&ac.requirementId=42",
    );
  });

  it("offers the project's and the global requirements, or only global ones on the global project", () => {
    expect(linkableProjectIds(10000)).toEqual([10000, 0]);
    expect(linkableProjectIds(0)).toEqual([0]);
  });
});
