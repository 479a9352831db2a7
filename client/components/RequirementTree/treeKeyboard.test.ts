import { describe, expect, it } from "vitest";
import { flattenTree } from "./flattenTree.js";
import { folder, requirement, wholeLevel } from "./treeFixtures.js";
import { treeKeyAction } from "./treeKeyboard.js";

// 0 Design (open) / 1 Sub (closed) / 2 In design / 3 Loading (open, children pending) / 4 … / 5 Top req
const rows = flattenTree(
  wholeLevel([folder(1, "Design", null), folder(4, "Loading", null), requirement(10, "Top req", null)]),
  new Map([[1, wholeLevel([folder(3, "Sub", 1), requirement(11, "In design", 1)])]]),
  new Set([1, 4]),
);

describe("moving through the tree with the keyboard", () => {
  it("moves down and up row by row, skipping loading placeholders", () => {
    expect(treeKeyAction(rows, 0, "ArrowDown")).toEqual({ type: "focus", index: 1 });
    expect(treeKeyAction(rows, 3, "ArrowDown")).toEqual({ type: "focus", index: 5 });
    expect(treeKeyAction(rows, 5, "ArrowUp")).toEqual({ type: "focus", index: 3 });
  });

  it("stays put at either end", () => {
    expect(treeKeyAction(rows, 0, "ArrowUp")).toBeNull();
    expect(treeKeyAction(rows, 5, "ArrowDown")).toBeNull();
  });

  it("jumps to the first and last rows with Home and End", () => {
    expect(treeKeyAction(rows, 2, "Home")).toEqual({ type: "focus", index: 0 });
    expect(treeKeyAction(rows, 2, "End")).toEqual({ type: "focus", index: 5 });
  });

  it("lands on the first or last row when nothing is active yet", () => {
    expect(treeKeyAction(rows, -1, "ArrowDown")).toEqual({ type: "focus", index: 0 });
    expect(treeKeyAction(rows, -1, "ArrowUp")).toEqual({ type: "focus", index: 5 });
    expect(treeKeyAction(rows, -1, "Enter")).toBeNull();
    expect(treeKeyAction(flattenTree(wholeLevel([]), new Map(), new Set()), -1, "ArrowDown")).toBeNull();
  });

  it("expands a closed folder with the right arrow, then enters it", () => {
    expect(treeKeyAction(rows, 1, "ArrowRight")).toEqual({ type: "expand", folderId: 3 });
    expect(treeKeyAction(rows, 0, "ArrowRight")).toEqual({ type: "focus", index: 1 });
  });

  it("does nothing on the right arrow for requirements or folders still loading", () => {
    expect(treeKeyAction(rows, 2, "ArrowRight")).toBeNull();
    expect(treeKeyAction(rows, 3, "ArrowRight")).toBeNull();
  });

  it("collapses an open folder with the left arrow, otherwise goes to the parent", () => {
    expect(treeKeyAction(rows, 0, "ArrowLeft")).toEqual({ type: "collapse", folderId: 1 });
    expect(treeKeyAction(rows, 2, "ArrowLeft")).toEqual({ type: "focus", index: 0 });
    expect(treeKeyAction(rows, 1, "ArrowLeft")).toEqual({ type: "focus", index: 0 });
    expect(treeKeyAction(rows, 5, "ArrowLeft")).toBeNull();
  });

  it("checks a requirement with space, but not a folder", () => {
    expect(treeKeyAction(rows, 2, " ")).toEqual({ type: "toggleCheck", requirementId: 11 });
    expect(treeKeyAction(rows, 0, " ")).toBeNull();
  });

  it("opens the active requirement or folder with Enter", () => {
    expect(treeKeyAction(rows, 2, "Enter")).toEqual({ type: "open", row: rows.at(2) });
    expect(treeKeyAction(rows, 1, "Enter")).toEqual({ type: "open", row: rows.at(1) });
  });

  it("ignores other keys", () => {
    expect(treeKeyAction(rows, 0, "a")).toBeNull();
  });
});
