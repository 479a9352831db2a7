import { describe, expect, it } from "vitest";
import { signInTarget, withoutJwt } from "./signIn.js";

const search = "?xdm_e=https%3A%2F%2Facme.atlassian.net&lic=active&projectId=10000&jwt=eyJhbGciOi.x.y";
const kept = "?xdm_e=https%3A%2F%2Facme.atlassian.net&lic=active&projectId=10000";

describe("where sign-in leads", () => {
  it.each([
    ["configuration", "/configuration", "jira"],
    ["issue-view-requirements-right-panel", "/issue-view-requirements-right-panel", "jira"],
    ["confluence-linked-requirements-macro-editor", "/confluence-linked-requirements-macro-editor", "confluence"],
    ["confluence-linked-requirements-macro", "/confluence-linked-requirements-macro", "confluence"],
    ["confluence-insert-requirements-macro-editor", "/confluence-insert-requirements-macro-editor", "confluence"],
    ["confluence-insert-requirements-macro", "/confluence-insert-requirements-macro", "confluence"],
    ["getting-started", "/getting-started", "jira"],
    ["link-requirements-dialog", "/link-requirements-dialog", "jira"],
    ["requirements", "/requirements", "jira"],
    ["traceability-matrix", "/requirements", "jira"],
    ["anything-else", "/requirements", "jira"],
  ])("%s goes to %s as %s, keeping the query but the JWT", (location, path, product) => {
    expect(signInTarget(location, search)).toEqual({ url: `${path}${kept}`, product });
  });

  it("adds no empty query", () => {
    expect(signInTarget("configuration", "?jwt=abc")).toEqual({ url: "/configuration", product: "jira" });
    expect(withoutJwt("")).toBe("");
  });
});
