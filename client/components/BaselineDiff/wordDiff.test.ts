import { describe, expect, it } from "vitest";
import { wordDiff } from "./wordDiff.js";

const marked = (parts: { text: string; kind: string }[], kind: string) =>
  parts.filter((part) => part.kind === kind).map((part) => part.text.trim());

describe("wordDiff", () => {
  it("marks the words taken out of the old text and put into the new one", () => {
    const diff = wordDiff("The pump stops on occlusion", "The pump stops at once on occlusion");
    expect(marked(diff.after, "added")).toEqual(["at once"]);
    expect(marked(diff.before, "removed")).toEqual([]);
    expect(diff.before.map((part) => part.text).join("")).toBe("The pump stops on occlusion");
    expect(diff.after.map((part) => part.text).join("")).toBe("The pump stops at once on occlusion");
  });

  it("marks a replaced word on both sides", () => {
    const diff = wordDiff("Alarm sounds quietly", "Alarm sounds loudly");
    expect(marked(diff.before, "removed")).toEqual(["quietly"]);
    expect(marked(diff.after, "added")).toEqual(["loudly"]);
  });

  it("marks nothing when the text is the same, and everything when one side is empty", () => {
    expect(wordDiff("Same text", "Same text").after.every((part) => part.kind === "same")).toBe(true);
    expect(marked(wordDiff("", "New words").after, "added")).toEqual(["New words"]);
  });
});
