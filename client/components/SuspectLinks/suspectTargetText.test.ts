import { describe, expect, it } from "vitest";
import { suspectMarkOf, suspectSummaryText, suspectTargetText } from "./suspectTargetText.js";

const marks = [
  { link_type: "requirement" as const, target_id: 12 },
  { link_type: "issue" as const, target_id: "10001" },
];

describe("suspect link texts", () => {
  it("names a link's other end by its kind and id", () => {
    expect(suspectTargetText({ link_type: "content", target_id: "98765" })).toBe("Page 98765");
    expect(suspectTargetText(marks[0]!)).toBe("Requirement 12");
  });

  it("finds a link's mark whether its target id comes as a number or as text", () => {
    expect(suspectMarkOf(marks, "requirement", "12")).toBe(marks[0]);
    expect(suspectMarkOf(marks, "issue", 10001)).toBe(marks[1]);
    expect(suspectMarkOf(marks, "content", "10001")).toBeUndefined();
  });

  it("counts the suspect links in the warning", () => {
    expect(suspectSummaryText(1)).toMatch(/^1 link is suspect/);
    expect(suspectSummaryText(3)).toMatch(/^3 links are suspect/);
  });
});
