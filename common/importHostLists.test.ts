import { describe, expect, it } from "vitest";
import { hostComponentsOf, hostStatusesOf, unknownNames } from "./importHostLists.js";

describe("the names a file holds that the project lacks", () => {
  it("lists each unknown name once, as first written, matching the known ones trimmed and case-insensitively", () => {
    const known = [{ name: "Alarms" }, { name: "Dosing engine" }];
    expect(unknownNames(["Dosing", " alarms ", "Firmware", "dosing", "", "UI", "Logging", "DOSING ENGINE"], known)).toEqual([
      "Dosing",
      "Firmware",
      "UI",
      "Logging",
    ]);
  });
});

describe("the host's component and status lists", () => {
  it("reads Jira's answers, and an answer of another shape (an error body, a page object) as no names", () => {
    expect(hostComponentsOf([{ id: 10, name: "Alarms", lead: { accountId: "a-1" } }])).toEqual([
      { id: "10", name: "Alarms", assigneeAccountId: "a-1" },
    ]);
    expect(hostStatusesOf([{ statuses: [{ id: "1", name: "To Do" }] }, { statuses: [{ id: "1", name: "To Do" }] }])).toEqual([
      { id: "1", name: "To Do" },
    ]);
    expect(hostComponentsOf({ errorMessages: ["No project could be found"] })).toEqual([]);
    expect(hostStatusesOf({ values: [] })).toEqual([]);
    expect(hostComponentsOf(undefined)).toEqual([]);
  });
});
