import { describe, expect, it } from "vitest";
import { pagesReadAhead } from "./pagesReadAhead.js";

/** Rows 1..total, read `pageRows` at a time after the last row of the page before. */
function source(total: number) {
  const reads: (number | undefined)[] = [];
  const readPage = async (last: number | undefined) => {
    reads.push(last);
    const first = (last ?? 0) + 1;
    return Array.from({ length: Math.max(0, Math.min(3, total - first + 1)) }, (_, index) => first + index);
  };
  return { reads, readPage };
}

describe("reading pages ahead of the one being written", () => {
  it("gives every page in order with its lookup, and reads nothing after the short last page", async () => {
    const { reads, readPage } = source(8);
    const pages = [];
    for await (const page of pagesReadAhead({ pageRows: 3, readAhead: 3, readPage, lookUp: async (rows) => rows.map((row) => row * 10) })) {
      pages.push(page);
    }
    expect(pages).toEqual([
      { rows: [1, 2, 3], found: [10, 20, 30] },
      { rows: [4, 5, 6], found: [40, 50, 60] },
      { rows: [7, 8], found: [70, 80] },
    ]);
    expect(reads).toEqual([undefined, 3, 6]);
  });

  it("keeps at most `readAhead` pages read beyond the one being written", async () => {
    const { reads, readPage } = source(100);
    const pages = pagesReadAhead({ pageRows: 3, readAhead: 2, readPage, lookUp: async () => null });
    await pages.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reads).toEqual([undefined, 3, 6]);
    await pages.return(undefined);
  });

  it("fails the reading when a page read ahead fails, once that page is reached", async () => {
    let calls = 0;
    const readPage = async (last: number | undefined) => {
      calls += 1;
      if (calls === 2) throw new Error("the database went away");
      return [(last ?? 0) + 1, (last ?? 0) + 2];
    };
    const pages = pagesReadAhead({ pageRows: 2, readAhead: 2, readPage, lookUp: async () => null });
    expect((await pages.next()).value).toEqual({ rows: [1, 2], found: null });
    await expect(pages.next()).rejects.toThrow("the database went away");
  });
});
