import { describe, expect, it } from "vitest";
import type { MatrixRow } from "../../../common/schemas/matrix.js";
import type { JiraIssue } from "../../api/jira/issues.js";
import {
  exportProgressText,
  issuesOfType,
  linkedIssueIds,
  loadHiddenColumns,
  lozengeAppearance,
  saveHiddenColumns,
  windowsInView,
} from "./matrixView.js";

const row = (requirement_id: number, name: string, issueIds: string[], display_id: string | null = null): MatrixRow => ({
  requirements: [{ requirement_id, display_id, prefix: "SYS", name, requirement_type_id: 3 }],
  issues: issueIds.map((atlassian_issue_id) => ({ atlassian_issue_id, suspect: false })),
  has_suspect_links: false,
});

const issue = (id: string, typeId: string): JiraIssue => ({
  id,
  key: `PUMP-${id}`,
  fields: { summary: `Issue ${id}`, issuetype: { id: typeId, name: typeId === "1" ? "Story" : "Bug" } },
});

const rows = [row(1, "Braking distance", ["11", "12"]), row(2, "Pump pressure", []), row(3, "Alarm volume", ["13"], "ALM-7")];

describe("the traceability matrix view", () => {
  it("asks the server only for the windows that hold the rows in view", () => {
    const inView = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => ({ index: from + n }));
    expect(windowsInView(inView(0, 30), 200)).toEqual([0]);
    expect(windowsInView(inView(190, 215), 200)).toEqual([0, 1]);
    expect(windowsInView(inView(19_990, 20_000), 200)).toEqual([99, 100]);
    expect(windowsInView([], 200)).toEqual([]);
  });

  it("asks Jira only for the issues the matrix names, once each", () => {
    expect(linkedIssueIds([...rows, row(4, "Again", ["11"])])).toEqual(["11", "12", "13"]);
  });

  it("puts each linked issue in the column of its type, leaving out issues Jira did not answer for", () => {
    const issues = new Map([
      ["11", issue("11", "1")],
      ["12", issue("12", "2")],
    ]);
    const [first] = rows;
    if (!first) throw new Error("no row");
    expect(issuesOfType(first, "1", issues).map((i) => i.key)).toEqual(["PUMP-11"]);
    expect(issuesOfType(first, "2", issues).map((i) => i.key)).toEqual(["PUMP-12"]);
    expect(issuesOfType(row(9, "Gone", ["99"]), "1", issues)).toEqual([]);
  });

  it("colours status lozenges by category: new grey, indeterminate blue, done green", () => {
    expect(lozengeAppearance("new")).toBe("default");
    expect(lozengeAppearance("indeterminate")).toBe("inprogress");
    expect(lozengeAppearance("done")).toBe("success");
    expect(lozengeAppearance(undefined)).toBe("default");
  });

  it("remembers hidden columns per project and survives garbage in storage", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    };
    saveHiddenColumns(storage, 10000, ["10002"]);
    expect(loadHiddenColumns(storage, 10000)).toEqual(["10002"]);
    expect(loadHiddenColumns(storage, 0)).toEqual([]);
    store.set("rmcloud-matrix-hidden-columns-0", "{not json");
    expect(loadHiddenColumns(storage, 0)).toEqual([]);
  });

  it("shows the export's progress as completed rows of total rows", () => {
    expect(exportProgressText({ completed_rows: 250, total_rows: 1000 })).toBe("250 of 1000");
    expect(exportProgressText({ completed_rows: 0, total_rows: 0 })).toBe("");
    expect(exportProgressText(undefined)).toBe("");
  });
});
