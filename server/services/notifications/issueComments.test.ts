import { describe, expect, it } from "vitest";
import type { RequirementEventState } from "../../../common/schemas/requirementSaved.js";
import { newAssigneeOf } from "./assigneeEmail.js";
import { commentDocument, issueCommentsFor, statusIdsOf } from "./issueComments.js";

const state = (overrides: Partial<RequirementEventState> = {}): RequirementEventState => ({
  requirementId: 7,
  projectId: 10000,
  label: "SYS-7: Brakes",
  name: "Brakes",
  statusId: "1",
  assignedTo: null,
  issueIds: [],
  ...overrides,
});

describe("which linked issues hear of a requirement change", () => {
  it("tells each newly linked issue of a new requirement", () => {
    expect(issueCommentsFor(undefined, state({ issueIds: ["100", "101"] }))).toEqual([
      { issueId: "100", label: "SYS-7: Brakes", changes: [{ kind: "linked" }] },
      { issueId: "101", label: "SYS-7: Brakes", changes: [{ kind: "linked" }] },
    ]);
  });

  it("tells linked and unlinked issues, and leaves the unchanged link alone", () => {
    const comments = issueCommentsFor(state({ issueIds: ["100", "101"] }), state({ issueIds: ["101", "102"] }));
    expect(comments).toEqual([
      { issueId: "102", label: "SYS-7: Brakes", changes: [{ kind: "linked" }] },
      { issueId: "100", label: "SYS-7: Brakes", changes: [{ kind: "unlinked" }] },
    ]);
  });

  it("tells issues that stay linked of a new name and status in one comment", () => {
    const comments = issueCommentsFor(
      state({ issueIds: ["100"] }),
      state({ issueIds: ["100"], name: "Stopping", label: "SYS-7: Stopping", statusId: "3" }),
    );
    expect(comments).toEqual([
      {
        issueId: "100",
        label: "SYS-7: Stopping",
        changes: [
          { kind: "renamed", from: "Brakes", to: "Stopping" },
          { kind: "statusChanged", from: "1", to: "3" },
        ],
      },
    ]);
    expect(statusIdsOf(comments)).toEqual(["1", "3"]);
  });

  it("says nothing when only other fields changed", () => {
    expect(issueCommentsFor(state({ issueIds: ["100"] }), state({ issueIds: ["100"], assignedTo: "abc" }))).toEqual([]);
  });

  it("does not tell a newly linked issue about the rename made in the same save", () => {
    const comments = issueCommentsFor(state(), state({ issueIds: ["100"], name: "New", label: "SYS-7: New" }));
    expect(comments).toEqual([{ issueId: "100", label: "SYS-7: New", changes: [{ kind: "linked" }] }]);
  });

  it("tells every linked issue of a deleted requirement under its last label", () => {
    expect(issueCommentsFor(state({ issueIds: ["100"] }), undefined)).toEqual([
      { issueId: "100", label: "SYS-7: Brakes", changes: [{ kind: "deleted" }] },
    ]);
  });
});

describe("the comment text", () => {
  it("names the requirement in bold with a link and the status names", () => {
    const document = commentDocument(
      { issueId: "100", label: "SYS-7: Brakes", changes: [{ kind: "statusChanged", from: "1", to: null }] },
      "https://example.test/req",
      (id) => (id === null ? "None" : `Status ${id}`),
    );
    expect(document.type).toBe("doc");
    const paragraph = document.content[0];
    expect(paragraph?.content.map((node) => node.text).join("")).toBe(
      "rmCloud requirement SYS-7: Brakes changed status from Status 1 to None.",
    );
    expect(paragraph?.content[1]?.marks).toEqual([{ type: "strong" }, { type: "link", attrs: { href: "https://example.test/req" } }]);
  });
});

describe("who gets the assignee email", () => {
  it("is the first assignee of a new requirement", () => {
    expect(newAssigneeOf(undefined, state({ assignedTo: "acc-1" }))).toBe("acc-1");
  });

  it("is the new assignee when it changes, and nobody otherwise", () => {
    expect(newAssigneeOf(state({ assignedTo: "acc-1" }), state({ assignedTo: "acc-2" }))).toBe("acc-2");
    expect(newAssigneeOf(state({ assignedTo: "acc-1" }), state({ assignedTo: "acc-1" }))).toBeUndefined();
    expect(newAssigneeOf(state({ assignedTo: "acc-1" }), state({ assignedTo: null }))).toBeUndefined();
    expect(newAssigneeOf(state({ assignedTo: "acc-1" }), undefined)).toBeUndefined();
  });
});
