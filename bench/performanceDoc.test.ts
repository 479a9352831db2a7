import { describe, expect, it } from "vitest";
import { mergeResults } from "./performanceDoc.js";

const row = (name: string, db: "pglite" | "postgres" | "none", ours: number, measured_at = "2026-11-27T10:00:00.000Z") => ({
  case: name,
  db,
  ours,
  baseline: 1,
  unit: "ms",
  ratio: ours,
  measured_at,
});

describe("bench results", () => {
  it("replace only the rows a run measured again, by case and database", () => {
    const stored = [row("a", "pglite", 1), row("a", "postgres", 2), row("b", "none", 3)];
    const merged = mergeResults(stored, [row("a", "postgres", 5, "2026-11-27T11:00:00.000Z")]);
    expect(merged.map((result) => [result.case, result.db, result.ours])).toEqual([
      ["a", "pglite", 1],
      ["a", "postgres", 5],
      ["b", "none", 3],
    ]);
  });

  it("keep a figure measured twice in one run once, as last measured", () => {
    const merged = mergeResults([], [row("bytes", "none", 10), row("bytes", "none", 11)]);
    expect(merged.map((result) => result.ours)).toEqual([11]);
  });
});
