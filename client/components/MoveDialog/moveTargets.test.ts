import { describe, expect, it } from "vitest";
import { canMoveTo, commonParentFolder } from "./moveTargets.js";

describe("where things may be moved", () => {
  it("allows the top level and other folders", () => {
    expect(canMoveTo(null, { currentFolderId: 3 })).toBe(true);
    expect(canMoveTo(4, { currentFolderId: 3 })).toBe(true);
  });

  it("refuses the folder the items are already in", () => {
    expect(canMoveTo(3, { currentFolderId: 3 })).toBe(false);
    expect(canMoveTo(null, { currentFolderId: null })).toBe(false);
  });

  it("refuses moving a folder into itself", () => {
    expect(canMoveTo(7, { currentFolderId: null, movingFolderId: 7 })).toBe(false);
  });

  it("allows any folder when the items come from several folders", () => {
    expect(canMoveTo(3, { currentFolderId: undefined })).toBe(true);
  });

  it("knows the folder shared by all moved requirements", () => {
    expect(commonParentFolder([3, 3, 3])).toBe(3);
    expect(commonParentFolder([null, null])).toBeNull();
    expect(commonParentFolder([3, null])).toBeUndefined();
    expect(commonParentFolder([])).toBeUndefined();
  });
});
