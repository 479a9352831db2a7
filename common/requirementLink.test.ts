import { describe, expect, it } from "vitest";
import { requirementPageUrl } from "./requirementLink.js";

describe("a link to a requirement inside Jira", () => {
  it("opens the add-on's project page with the requirement deep-linked", () => {
    expect(requirementPageUrl("https://acme.atlassian.net/", { jiraProjectId: 10000, projectId: 10000, requirementId: 7 })).toBe(
      "https://acme.atlassian.net/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.id=10000&ac.projectId=10000&ac.requirementId=7",
    );
  });

  it("keeps a site's context path and opens a global requirement with project 0 chosen", () => {
    expect(requirementPageUrl("http://localhost:2990/jira", { jiraProjectId: 10001, projectId: 0, requirementId: 3 })).toBe(
      "http://localhost:2990/jira/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.id=10001&ac.projectId=0&ac.requirementId=3",
    );
  });
});
