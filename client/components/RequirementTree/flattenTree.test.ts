import { describe, expect, it } from "vitest";
import { expandedFolderIds, flattenTree, indexOfCurrent, windowsOfPlaceholders } from "./flattenTree.js";
import { folder, requirement } from "./treeFixtures.js";

const top = [folder(1, "Design", null), folder(2, "Empty", null, false), requirement(10, "Top req", null)];
const children = new Map([
  [1, [folder(3, "Sub", 1), requirement(11, "In design", 1)]],
  [3, [requirement(12, "Deep", 3)]],
]);

const labels = (rows: ReturnType<typeof flattenTree>) =>
  rows.map((row) =>
    row.kind === "folder"
      ? `${row.level}:${row.folder.name}${row.isExpanded ? "-" : row.hasChildren ? "+" : ""}`
      : row.kind === "requirement"
        ? `${row.level}:${row.requirement.name}`
        : `${row.level}:…`,
  );

describe("flattening the requirement tree", () => {
  it("shows only the top level while every folder is closed", () => {
    expect(labels(flattenTree(top, children, new Set()))).toEqual(["1:Design+", "1:Empty", "1:Top req"]);
  });

  it("shows the children of open folders under them, one level deeper", () => {
    const rows = flattenTree(top, children, new Set([1, 3]));
    expect(labels(rows)).toEqual(["1:Design-", "2:Sub-", "3:Deep", "2:In design", "1:Empty", "1:Top req"]);
    expect(rows.map((row) => row.parentIndex)).toEqual([-1, 0, 1, 0, -1, -1]);
    expect(rows.map((row) => `${row.positionInSet}/${row.setSize}`)).toEqual(["1/3", "1/2", "1/1", "2/2", "2/3", "3/3"]);
  });

  it("hides an open folder's children while its parent is closed", () => {
    expect(labels(flattenTree(top, children, new Set([3])))).toEqual(["1:Design+", "1:Empty", "1:Top req"]);
  });

  it("shows a loading row under an open folder whose children are not loaded yet", () => {
    const rows = flattenTree(top, new Map(), new Set([1]));
    expect(labels(rows)).toEqual(["1:Design-", "2:…", "1:Empty", "1:Top req"]);
    expect(rows[1]?.parentIndex).toBe(0);
  });

  it("never expands a folder without children, even if it was left open", () => {
    expect(labels(flattenTree(top, children, new Set([2])))).toEqual(["1:Design+", "1:Empty", "1:Top req"]);
  });

  it("names the expanded folders so the tree knows whose children to fetch", () => {
    expect(expandedFolderIds(flattenTree(top, children, new Set([1, 3])))).toEqual([1, 3]);
    expect(expandedFolderIds(flattenTree(top, new Map(), new Set([1, 3])))).toEqual([1]);
  });

  it("finds the row of the current requirement or folder", () => {
    const rows = flattenTree(top, children, new Set([1, 3]));
    expect(indexOfCurrent(rows, { requirementId: 12 })).toBe(2);
    expect(indexOfCurrent(rows, { folderId: 3 })).toBe(1);
    expect(indexOfCurrent(rows, { requirementId: 999 })).toBe(-1);
  });

  it("flattens a folder of 5,000 requirements into 5,000 rows with unique keys", () => {
    const many = Array.from({ length: 5000 }, (_, index) => requirement(100 + index, `R${index}`, 1));
    const rows = flattenTree([folder(1, "Big", null)], new Map([[1, many]]), new Set([1]));
    expect(rows).toHaveLength(5001);
    expect(new Set(rows.map((row) => row.key)).size).toBe(5001);
  });

  it("keeps a level's full size while only some windows are loaded, a placeholder in each gap, and names the windows to fetch", () => {
    // A top level of 1,200 items of which the first window (500) and the third (1,000 on) are loaded.
    const level = new Array(1200);
    for (let n = 0; n < 500; n++) level[n] = requirement(1000 + n, `Req ${n}`, null);
    for (let n = 1000; n < 1200; n++) level[n] = requirement(1000 + n, `Req ${n}`, null);
    level[0] = folder(1, "Design", null);
    const bigFolder = new Array(3000);
    bigFolder[0] = requirement(9, "First inside", 1);
    const rows = flattenTree(level, new Map([[1, bigFolder]]), new Set([1]));

    expect(rows).toHaveLength(1200 + 3000);
    expect(rows[3001]).toMatchObject({ kind: "requirement", level: 1, positionInSet: 2, setSize: 1200 });
    expect(rows[3000 + 500]).toMatchObject({
      kind: "loading",
      level: 1,
      positionInSet: 501,
      slot: { parentFolderId: null, position: 500 },
    });
    expect(rows[2]).toMatchObject({ kind: "loading", level: 2, setSize: 3000, slot: { parentFolderId: 1, position: 1 } });
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);

    expect(windowsOfPlaceholders(rows.slice(0, 40), 500)).toEqual([{ parentFolderId: 1, window: 0 }]);
    expect(windowsOfPlaceholders(rows.slice(2990, 3000 + 520), 500)).toEqual([
      { parentFolderId: 1, window: 5 },
      { parentFolderId: null, window: 1 },
    ]);
  });
});
