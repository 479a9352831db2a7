import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withLinkChanges } from "./linkListChanges.js";

describe("saving a whole list of links after others changed it", () => {
  it("keeps a link someone else added while the dialog was open", () => {
    expect(withLinkChanges({ loaded: [1, 2], chosen: [1, 2, 3], latest: [1, 2, 9] })).toEqual([1, 2, 9, 3]);
  });

  it("removes what the user removed, even if it is still there, and nothing else", () => {
    expect(withLinkChanges({ loaded: [1, 2], chosen: [2], latest: [1, 2, 9] })).toEqual([2, 9]);
  });

  it("does not bring back a link someone else removed that the user left alone", () => {
    expect(withLinkChanges({ loaded: [1, 2], chosen: [1, 2], latest: [2] })).toEqual([2]);
  });

  it("saves exactly the user's choice when nobody else changed the list", () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 40 }));
    fc.assert(
      fc.property(ids, ids, (loaded, chosen) => {
        expect(new Set(withLinkChanges({ loaded, chosen, latest: loaded }))).toEqual(new Set(chosen));
      }),
    );
  });
});
