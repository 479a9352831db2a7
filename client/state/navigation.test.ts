import { describe, expect, it } from "vitest";
import { baselinePageOf, formatNavState, initialNavState, type NavState, navForProject, parseNavState, tabOfPath } from "./navigation.js";

const cases: Array<[string, NavState]> = [
  ["10000-requirements", { projectId: 10000, tab: "requirements" }],
  ["10000-requirements-42", { projectId: 10000, tab: "requirements", requirementId: 42 }],
  ["10000-folder-7", { projectId: 10000, tab: "requirements", folderId: 7 }],
  ["10000-traceability", { projectId: 10000, tab: "traceability" }],
  ["10000-baselines", { projectId: 10000, tab: "baselines" }],
  ["10000-baselines-3", { projectId: 10000, tab: "baselines", baselineId: 3 }],
  ["10000-comparison", { projectId: 10000, tab: "comparison" }],
  ["0-requirements", { projectId: 0, tab: "requirements" }],
];

describe("the navigation state kept in the host history", () => {
  it.each(cases)("reads %s", (text, state) => {
    expect(parseNavState(text)).toEqual(state);
  });

  it.each(cases)("writes %s", (text, state) => {
    expect(formatNavState(state)).toBe(text);
  });

  it("ignores what is not one of the spec's strings", () => {
    for (const text of [
      "",
      "requirements",
      "10000",
      "10000-folder",
      "abc-requirements",
      "10000-traceability-4",
      "10000-comparison-1",
      "10000-requirements-x",
    ]) {
      expect(parseNavState(text)).toBeUndefined();
    }
    expect(parseNavState(undefined)).toBeUndefined();
  });

  it("writes only what belongs to the tab", () => {
    expect(formatNavState({ projectId: 1, tab: "traceability", requirementId: 5 })).toBe("1-traceability");
    expect(formatNavState({ projectId: 1, tab: "comparison", baselineId: 5 })).toBe("1-comparison");
  });
});

describe("changing project", () => {
  it("keeps the tab and drops the open requirement, folder or baseline", () => {
    expect(navForProject({ projectId: 1, tab: "requirements", requirementId: 9 }, 2)).toEqual({ projectId: 2, tab: "requirements" });
    expect(navForProject({ projectId: 1, tab: "requirements", folderId: 9 }, 2)).toEqual({ projectId: 2, tab: "requirements" });
    expect(navForProject({ projectId: 1, tab: "baselines", baselineId: 4 }, 0)).toEqual({ projectId: 0, tab: "baselines" });
    expect(navForProject({ projectId: 1, tab: "traceability" }, 2)).toEqual({ projectId: 2, tab: "traceability" });
    expect(navForProject({ projectId: 1, tab: "comparison" }, 2)).toEqual({ projectId: 2, tab: "comparison" });
  });

  it("opens the requirements of the first project chosen", () => {
    expect(navForProject(undefined, 10001)).toEqual({ projectId: 10001, tab: "requirements" });
  });
});

describe("where the main screen opens", () => {
  it("returns to the place kept in the host history", () => {
    expect(initialNavState({ hostState: "5-baselines-2", search: "?projectId=10000&requirementId=3", pathname: "/requirements" })).toEqual({
      projectId: 5,
      tab: "baselines",
      baselineId: 2,
    });
  });

  it("opens a requirement linked by projectId and requirementId", () => {
    expect(initialNavState({ hostState: undefined, search: "?projectId=10000&requirementId=3", pathname: "/requirements" })).toEqual({
      projectId: 10000,
      tab: "requirements",
      requirementId: 3,
    });
  });

  it("opens a requirement linked from outside the add-on, over the project page's own project", () => {
    expect(
      initialNavState({
        hostState: undefined,
        search: "?projectId=10000&project.id=10000&ac.projectId=0&ac.requirementId=42",
        pathname: "/requirements",
      }),
    ).toEqual({ projectId: 0, tab: "requirements", requirementId: 42 });
  });

  it("opens the tab of the iframe path for the project of the page", () => {
    expect(initialNavState({ hostState: undefined, search: "?project.id=10002", pathname: "/traceability-matrix" })).toEqual({
      projectId: 10002,
      tab: "traceability",
    });
    expect(initialNavState({ hostState: undefined, search: "", pathname: "/requirements", contextProjectId: "10001" })).toEqual({
      projectId: 10001,
      tab: "requirements",
    });
  });

  it("opens the global project when linked to it", () => {
    expect(initialNavState({ hostState: undefined, search: "?projectId=0", pathname: "/requirements" })).toEqual({
      projectId: 0,
      tab: "requirements",
    });
  });

  it("has no project when nothing names one", () => {
    expect(initialNavState({ hostState: "garbage", search: "?requirementId=3", pathname: "/baselines" })).toBeUndefined();
  });
});

describe("tabs and pages", () => {
  it("knows the tab of each main path", () => {
    expect(tabOfPath("/requirements")).toBe("requirements");
    expect(tabOfPath("/traceability-matrix")).toBe("traceability");
    expect(tabOfPath("/baselines/")).toBe("baselines");
    expect(tabOfPath("/configuration")).toBeUndefined();
  });

  it("shows the comparison page only on the comparison tab", () => {
    expect(baselinePageOf({ projectId: 1, tab: "comparison" })).toBe("baseline-comparison");
    expect(baselinePageOf({ projectId: 1, tab: "baselines", baselineId: 1 })).toBe("baseline-explorer");
    expect(baselinePageOf(undefined)).toBe("baseline-explorer");
  });
});
