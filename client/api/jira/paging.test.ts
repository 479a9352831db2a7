import { describe, expect, it } from "vitest";
import {
  chunk,
  dedupeById,
  followPageTokens,
  issueLookupJqls,
  issuePickerJql,
  mapWithConcurrency,
  projectStatusChoices,
} from "./paging.js";

describe("issue lookups", () => {
  it("asks for 500 linked issues in 10 requests of 50 ids, not 500 requests", () => {
    const ids = Array.from({ length: 500 }, (_, i) => String(10000 + i));
    const jqls = issueLookupJqls(ids);
    expect(jqls).toHaveLength(10);
    expect(jqls[0]).toBe(`id in (${ids.slice(0, 50).join(",")}) ORDER BY key ASC`);
  });

  it("skips repeated ids and anything that is not an issue id", () => {
    expect(issueLookupJqls(["1", "2", "1", "PRJ-1) OR (1=1", ""])).toEqual(["id in (1,2) ORDER BY key ASC"]);
    expect(issueLookupJqls([])).toEqual([]);
  });
});

describe("chunk", () => {
  it("splits into pages of the given size with a short last page", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe("following nextPageToken", () => {
  it("reads every page until the host stops giving a token", async () => {
    const pages: Record<string, { items: number[]; nextPageToken?: string }> = {
      first: { items: [1, 2], nextPageToken: "b" },
      b: { items: [3, 4], nextPageToken: "c" },
      c: { items: [5] },
    };
    const asked: (string | undefined)[] = [];
    const all = await followPageTokens(async (token) => {
      asked.push(token);
      return pages[token ?? "first"] ?? { items: [] };
    });
    expect(all).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, "b", "c"]);
  });

  it("stops at isLast and never loops on a repeated token", async () => {
    expect(await followPageTokens(async () => ({ items: [1], nextPageToken: "x", isLast: true }))).toEqual([1]);
    let calls = 0;
    const items = await followPageTokens(async () => {
      calls++;
      return { items: [calls], nextPageToken: "same" };
    });
    expect(items).toEqual([1, 2]);
  });
});

describe("requests in parallel", () => {
  it("never has more than the limit in flight and keeps the order of the input", async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapWithConcurrency(
      Array.from({ length: 25 }, (_, i) => i),
      10,
      async (n) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, (25 - n) % 4));
        inFlight--;
        return n * 2;
      },
    );
    expect(most).toBe(10);
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
  });

  it("fails when one request fails", async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error("host said no");
        return n;
      }),
    ).rejects.toThrow("host said no");
  });
});

describe("status choices", () => {
  it("lists each workflow status of the project once, in first-seen order", () => {
    const todo = { id: "1", name: "To Do" };
    const doing = { id: "3", name: "In Progress" };
    const done = { id: "5", name: "Done" };
    expect(projectStatusChoices([{ statuses: [todo, doing, done] }, { statuses: [todo, done] }, { statuses: [] }, {}])).toEqual([
      todo,
      doing,
      done,
    ]);
  });

  it("de-duplicates anything with an id, numbers and strings alike", () => {
    expect(dedupeById([{ id: 1 }, { id: "1" }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
  });
});

describe("the issue picker's JQL", () => {
  it("searches the project's issues by text as typed", () => {
    expect(issuePickerJql(10000, "login")).toBe('project = 10000 AND text ~ "login*" ORDER BY key DESC');
    expect(issuePickerJql(10000, "  ")).toBe("project = 10000 ORDER BY key DESC");
  });

  it("searches the whole instance for Global Requirements and matches a typed key", () => {
    expect(issuePickerJql(0, "prj-12")).toBe('(text ~ "prj-12*" OR key = "PRJ-12") ORDER BY key DESC');
  });

  it("escapes quotes in the typed text", () => {
    expect(issuePickerJql(1, 'say "hi"')).toBe('project = 1 AND text ~ "say \\"hi\\"*" ORDER BY key DESC');
  });
});
