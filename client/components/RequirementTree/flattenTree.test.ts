import { describe, expect, it } from "vitest";
import type { LoadedLevel } from "../../api/items.js";
import { flattenTree, indexOfCurrent } from "./flattenTree.js";
import { everyRow, folder, requirement, wholeLevel } from "./treeFixtures.js";

const top = wholeLevel([folder(1, "Design", null), folder(2, "Empty", null, false), requirement(10, "Top req", null)]);
const children = new Map([
  [1, wholeLevel([folder(3, "Sub", 1), requirement(11, "In design", 1)])],
  [3, wholeLevel([requirement(12, "Deep", 3)])],
]);

const labels = (rows: ReturnType<typeof flattenTree>) =>
  everyRow(rows).map((row) =>
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
    expect(everyRow(rows).map((row) => row.parentIndex)).toEqual([-1, 0, 1, 0, -1, -1]);
    expect(everyRow(rows).map((row) => `${row.positionInSet}/${row.setSize}`)).toEqual(["1/3", "1/2", "1/1", "2/2", "2/3", "3/3"]);
  });

  it("hides an open folder's children while its parent is closed", () => {
    expect(labels(flattenTree(top, children, new Set([3])))).toEqual(["1:Design+", "1:Empty", "1:Top req"]);
  });

  it("shows a loading row under an open folder whose children are not loaded yet", () => {
    const rows = flattenTree(top, new Map(), new Set([1]));
    expect(labels(rows)).toEqual(["1:Design-", "2:…", "1:Empty", "1:Top req"]);
    expect(rows.at(1)?.parentIndex).toBe(0);
  });

  it("never expands a folder without children, even if it was left open", () => {
    expect(labels(flattenTree(top, children, new Set([2])))).toEqual(["1:Design+", "1:Empty", "1:Top req"]);
  });

  it("names the expanded folders so the tree knows whose children to fetch", () => {
    expect(flattenTree(top, children, new Set([1, 3])).expandedFolderIds()).toEqual([1, 3]);
    expect(flattenTree(top, new Map(), new Set([1, 3])).expandedFolderIds()).toEqual([1]);
  });

  it("finds the row of the current requirement or folder", () => {
    const rows = flattenTree(top, children, new Set([1, 3]));
    expect(indexOfCurrent(rows, { requirementId: 12 })).toBe(2);
    expect(indexOfCurrent(rows, { folderId: 3 })).toBe(1);
    expect(indexOfCurrent(rows, { requirementId: 999 })).toBe(-1);
  });

  it("flattens a folder of 5,000 requirements into 5,000 rows with unique keys", () => {
    const many = Array.from({ length: 5000 }, (_, index) => requirement(100 + index, `R${index}`, 1));
    const rows = flattenTree(wholeLevel([folder(1, "Big", null)]), new Map([[1, wholeLevel(many)]]), new Set([1]));
    expect(rows).toHaveLength(5001);
    expect(new Set(everyRow(rows).map((row) => row.key)).size).toBe(5001);
  });

  it("keeps a level's full size while only some windows are loaded, a placeholder in each gap, and names the windows to fetch", () => {
    // A top level of 1,200 items of which the first window (500) and the third (1,000 on) are loaded.
    const first = Array.from({ length: 500 }, (_, n) => (n === 0 ? folder(1, "Design", null) : requirement(1000 + n, `Req ${n}`, null)));
    const third = Array.from({ length: 200 }, (_, n) => requirement(2000 + n, `Req ${1000 + n}`, null));
    const level: LoadedLevel = {
      total: 1200,
      windowItems: 500,
      windows: new Map([
        [0, first],
        [2, third],
      ]),
    };
    const bigFolder: LoadedLevel = { total: 3000, windowItems: 500, windows: new Map([[0, [requirement(9, "First inside", 1)]]]) };
    const rows = flattenTree(level, new Map([[1, bigFolder]]), new Set([1]));

    expect(rows).toHaveLength(1200 + 3000);
    expect(rows.at(3001)).toMatchObject({ kind: "requirement", level: 1, positionInSet: 2, setSize: 1200 });
    expect(rows.at(3000 + 500)).toMatchObject({
      kind: "loading",
      level: 1,
      positionInSet: 501,
      slot: { parentFolderId: null, position: 500 },
    });
    expect(rows.at(3000 + 1000)).toMatchObject({ kind: "requirement", positionInSet: 1001, requirement: { requirement_id: 2000 } });
    expect(rows.at(2)).toMatchObject({
      kind: "loading",
      level: 2,
      parentIndex: 0,
      setSize: 3000,
      slot: { parentFolderId: 1, position: 1 },
    });
    expect(new Set(everyRow(rows).map((row) => row.key)).size).toBe(rows.length);
    expect(everyRow(rows).map((_, index) => rows.keyAt(index))).toEqual(everyRow(rows).map((row) => row.key));

    expect(rows.windowsIn(0, 40)).toEqual([{ parentFolderId: 1, window: 0 }]);
    expect(rows.windowsIn(2990, 3000 + 520)).toEqual([
      { parentFolderId: 1, window: 5 },
      { parentFolderId: null, window: 1 },
    ]);
  });

  it("holds a level of 100,000 with one window loaded as that window's rows and its gaps, not 100,000 rows", () => {
    const loaded = Array.from({ length: 500 }, (_, n) => requirement(n + 1, `Req ${n}`, null));
    const rows = flattenTree({ total: 100_000, windowItems: 500, windows: new Map([[0, loaded]]) }, new Map(), new Set());

    expect(rows).toHaveLength(100_000);
    expect(rows.at(99_999)).toMatchObject({ kind: "loading", positionInSet: 100_000, slot: { position: 99_999 } });
    expect(rows.windowsIn(99_990, 99_999)).toEqual([{ parentFolderId: null, window: 199 }]);
    // The keyboard jumps over the whole gap: End lands on the last loaded row, not a placeholder.
    expect(rows.nextFocusable(rows.length, -1)).toBe(499);
    expect(rows.nextFocusable(499, 1)).toBeUndefined();
    expect(rows.findIndex((row) => row.kind === "loading")).toBe(-1);
  });
});
